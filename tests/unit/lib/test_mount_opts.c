/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of mount_opts.c: what mounts[].options set on the top mount
 * and on every mount of a tree, idmap refused with its JSON path, and the
 * attributes applied to a real recursive clone (a tmpfs with a tmpfs
 * below it) in a forked child's own mount namespace. */
#include "tap.h"
#include "src/lib/kcontainer.h"
#include "src/lib/mount_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MOUNT_ATTR_NOSYMFOLLOW
#define MOUNT_ATTR_NOSYMFOLLOW 0x00200000
#endif

static bool parse(char **options, size_t n, struct kc_mount_opts *o)
{
	struct oci_mount m = { .destination = "/mnt", .type = "bind", .source = "/x" };
	kc_error_t err = NULL;
	int rc;

	m.options = options;
	m.options_len = n;
	rc = kc_mount_opts_parse(&m, 0, o, &err);
	if (rc < 0)
		printf("# error: %s\n", err ? err->msg : "(none)");
	kc_error_free(&err);
	return rc == 0;
}

static void test_parse(void)
{
	char *set[] = { "rbind", "rnosuid", "rnodev", "rnoexec", "rnodiratime", "rnosymfollow" };
	char *clear[] = { "rdev", "rsuid", "rexec", "rrw", "rdiratime", "rsymfollow" };
	char *rro_rw[] = { "rbind", "rro", "rw" };
	char *atime[] = { "rnoatime" };
	char *strictatime[] = { "rstrictatime" };
	char *nostrictatime[] = { "nostrictatime", "mode=755" };
	char *idmap[] = { "rbind", "ro", "ridmap" };
	const uint64_t all = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC |
			     MOUNT_ATTR_NODIRATIME | MOUNT_ATTR_NOSYMFOLLOW;
	struct oci_mount m = { .destination = "/mnt", .type = "bind", .source = "/x" };
	struct kc_mount_opts o;
	kc_error_t err = NULL;
	size_t i;
	bool ok;

	ok = parse(set, 6, &o);
	TAP_OK(ok && o.recursive && o.attr_rset == all && o.attr_rclr == 0 && o.attr_set == all &&
		       o.data_len == 0,
	       "mount options: rnosuid,rnodev,rnoexec,rnodiratime,rnosymfollow set on every mount "
	       "of the tree and the top one, nothing handed to the filesystem");
	kc_mount_opts_release(&o);

	ok = parse(clear, 6, &o);
	TAP_OK(ok && o.attr_rset == 0 && o.attr_rclr == (all | MOUNT_ATTR_RDONLY) &&
		       o.attr_clr == (all | MOUNT_ATTR_RDONLY) && o.data_len == 0,
	       "mount options: rdev,rsuid,rexec,rrw,rdiratime,rsymfollow clear on every mount");
	kc_mount_opts_release(&o);

	ok = parse(rro_rw, 3, &o);
	TAP_OK(ok && o.attr_rset == MOUNT_ATTR_RDONLY && !(o.attr_set & MOUNT_ATTR_RDONLY) &&
		       (o.attr_clr & MOUNT_ATTR_RDONLY),
	       "mount options: rbind,rro,rw: submounts read-only, the top mount writable");
	kc_mount_opts_release(&o);

	ok = parse(atime, 1, &o);
	TAP_OK(ok && o.attr_rset == MOUNT_ATTR_NOATIME && o.attr_rclr == MOUNT_ATTR__ATIME &&
		       o.data_len == 0,
	       "mount options: rnoatime is the noatime mode on every mount (all of MOUNT_ATTR__ATIME cleared)");
	kc_mount_opts_release(&o);

	ok = parse(strictatime, 1, &o);
	TAP_OK(ok && o.attr_rset == MOUNT_ATTR_STRICTATIME && o.attr_rclr == MOUNT_ATTR__ATIME,
	       "mount options: rstrictatime is the strictatime mode on every mount");
	kc_mount_opts_release(&o);

	ok = parse(nostrictatime, 2, &o);
	TAP_OK(ok && o.attr_set == MOUNT_ATTR_RELATIME && o.attr_clr == MOUNT_ATTR__ATIME &&
		       o.data_len == 1 && strcmp(o.data[0], "mode=755") == 0,
	       "mount options: nostrictatime is the relatime mode, not a filesystem option; "
	       "mode=755 is one");
	kc_mount_opts_release(&o);

	m.options = idmap;
	m.options_len = 3;
	TAP_CALL_FAILS(kc_mount_opts_parse(&m, 4, &o, &err), err,
		       "mounts[4].options[2]: \"ridmap\": idmapped mounts are not supported",
		       "mount options: ridmap refused, naming mounts[4].options[2]");
	TAP_OK(o.data == NULL, "mount options: a refused entry leaves nothing allocated");

	/* every r* option `features` lists (but relatime, remount and the
	 * propagation and bind ones) sets or clears on every mount */
	ok = true;
	for (i = 0; i < oci_mount_options_len; i++) {
		const struct oci_mount_option *opt = &oci_mount_options[i];
		char *one[1] = { (char *)opt->name };

		if (!opt->feature || opt->name[0] != 'r' || strcmp(opt->name, "relatime") == 0 ||
		    strcmp(opt->name, "remount") == 0 || strcmp(opt->name, "ro") == 0 ||
		    strcmp(opt->name, "rw") == 0 || opt->kind == OCI_MOUNT_OPT_PROPAGATION ||
		    opt->kind == OCI_MOUNT_OPT_BIND)
			continue;
		if (!parse(one, 1, &o) || (o.attr_rset | o.attr_rclr) == 0 || o.data_len) {
			printf("# %s is not applied to every mount\n", opt->name);
			ok = false;
		}
		kc_mount_opts_release(&o);
	}
	TAP_OK(ok, "mount options: every recursive option features lists is applied recursively");
}

/* ---------- applied to a real tree ---------- */

enum {
	TREE_REC_SET,  /* rbind,rnosuid,rnodev,rro */
	TREE_TOP_ONLY, /* rbind,nosuid,ro */
	TREE_RRO_RW,   /* rbind,rro,rw */
	TREE_RNOATIME, /* rbind,rnoatime */
	TREE__COUNT
};

struct tree_flags {
	unsigned long top, sub; /* statvfs f_flag; ~0UL: not measured */
};

/* Clones base/src (a tmpfs with a tmpfs on sub) recursively, gives the
 * clone the options' attributes, attaches it at base/N and reads the flags
 * of the two mounts there. */
static struct tree_flags apply_and_measure(const char *base, int n, char **options, size_t len)
{
	struct tree_flags f = { ~0UL, ~0UL };
	struct kc_mount_opts o;
	struct statvfs sv;
	kc_error_t err = NULL;
	char src[512], dst[512], sub[600];
	int mfd;

	snprintf(src, sizeof(src), "%s/src", base);
	snprintf(dst, sizeof(dst), "%s/%d", base, n);
	snprintf(sub, sizeof(sub), "%s/sub", dst);
	if (!parse(options, len, &o))
		return f;
	mfd = kc_open_tree(AT_FDCWD, src, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (mfd < 0 || mkdir(dst, 0755) < 0 || kc_mount_opts_apply(mfd, src, &o, &err) < 0 ||
	    kc_move_mount(mfd, "", AT_FDCWD, dst, MOVE_MOUNT_F_EMPTY_PATH) < 0) {
		printf("# tree %d: %s\n", n, err ? err->msg : strerror(errno));
		goto out;
	}
	if (statvfs(dst, &sv) == 0)
		f.top = sv.f_flag;
	if (statvfs(sub, &sv) == 0)
		f.sub = sv.f_flag;
out:
	kc_error_free(&err);
	kc_mount_opts_release(&o);
	if (mfd >= 0)
		close(mfd);
	return f;
}

static void measure_trees(const char *base, struct tree_flags *flags)
{
	char *rec_set[] = { "rbind", "rnosuid", "rnodev", "rro" };
	char *top_only[] = { "rbind", "nosuid", "ro" };
	char *rro_rw[] = { "rbind", "rro", "rw" };
	char *rnoatime[] = { "rbind", "rnoatime" };
	char path[600];

	/* a private namespace: nothing made here reaches the host's */
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("kcrun-test", base, "tmpfs", 0, "size=1m") < 0)
		return;
	snprintf(path, sizeof(path), "%s/src", base);
	if (mkdir(path, 0755) < 0 || mount("kcrun-test", path, "tmpfs", 0, "size=1m") < 0)
		return;
	snprintf(path, sizeof(path), "%s/src/sub", base);
	if (mkdir(path, 0755) < 0 || mount("kcrun-test", path, "tmpfs", 0, "size=1m") < 0)
		return;
	flags[TREE_REC_SET] = apply_and_measure(base, TREE_REC_SET, rec_set, 4);
	flags[TREE_TOP_ONLY] = apply_and_measure(base, TREE_TOP_ONLY, top_only, 3);
	flags[TREE_RRO_RW] = apply_and_measure(base, TREE_RRO_RW, rro_rw, 3);
	flags[TREE_RNOATIME] = apply_and_measure(base, TREE_RNOATIME, rnoatime, 2);
}

#define TREE_TESTS 6

static void test_apply(void)
{
	static const char *const names[TREE_TESTS] = {
		"mount options applied: rbind,rnosuid,rnodev,rro make the top mount nosuid,nodev,ro",
		"mount options applied: rbind,rnosuid,rnodev,rro make the submount nosuid,nodev,ro",
		"mount options applied: rbind,nosuid,ro leave the submount suid and writable",
		"mount options applied: rbind,rro,rw: top writable, submount read-only",
		"mount options applied: rbind,rnoatime make the submount noatime",
		"mount options applied: a tree without options keeps the submount's flags (control)",
	};
	struct tree_flags flags[TREE__COUNT + 1];
	const unsigned long nosuid_nodev_ro = ST_NOSUID | ST_NODEV | ST_RDONLY;
	char base[] = "/tmp/kcrun-mount-opts.XXXXXX";
	int pipe_fds[2], status, i;
	pid_t child;

	for (i = 0; i <= TREE__COUNT; i++)
		flags[i] = (struct tree_flags){ ~0UL, ~0UL };
	if (geteuid() != 0 || mkdtemp(base) == NULL) {
		for (i = 0; i < TREE_TESTS; i++)
			printf("ok %d - %s # SKIP needs root and a /tmp\n", ++tap_count, names[i]);
		return;
	}
	if (pipe(pipe_fds) < 0) {
		TAP_OK(0, "mount options applied: pipe: %s", strerror(errno));
		rmdir(base);
		return;
	}
	fflush(stdout);
	child = fork();
	if (child == 0) {
		char *none[] = { "rbind" };

		close(pipe_fds[0]);
		measure_trees(base, flags);
		flags[TREE__COUNT] = apply_and_measure(base, TREE__COUNT, none, 1);
		if (write(pipe_fds[1], flags, sizeof(flags)) != sizeof(flags))
			_exit(1);
		fflush(stdout);
		_exit(0);
	}
	close(pipe_fds[1]);
	if (read(pipe_fds[0], flags, sizeof(flags)) != sizeof(flags))
		printf("# the child reported nothing\n");
	close(pipe_fds[0]);
	waitpid(child, &status, 0);
	rmdir(base);
	TAP_OK(flags[TREE_REC_SET].top != ~0UL &&
		       (flags[TREE_REC_SET].top & nosuid_nodev_ro) == nosuid_nodev_ro,
	       "%s", names[0]);
	TAP_OK(flags[TREE_REC_SET].sub != ~0UL &&
		       (flags[TREE_REC_SET].sub & nosuid_nodev_ro) == nosuid_nodev_ro,
	       "%s", names[1]);
	TAP_OK(flags[TREE_TOP_ONLY].top != ~0UL && flags[TREE_TOP_ONLY].sub != ~0UL &&
		       (flags[TREE_TOP_ONLY].top & (ST_NOSUID | ST_RDONLY)) == (ST_NOSUID | ST_RDONLY) &&
		       !(flags[TREE_TOP_ONLY].sub & (ST_NOSUID | ST_RDONLY)),
	       "%s", names[2]);
	TAP_OK(flags[TREE_RRO_RW].top != ~0UL && flags[TREE_RRO_RW].sub != ~0UL &&
		       !(flags[TREE_RRO_RW].top & ST_RDONLY) && (flags[TREE_RRO_RW].sub & ST_RDONLY),
	       "%s", names[3]);
	TAP_OK(flags[TREE_RNOATIME].sub != ~0UL && (flags[TREE_RNOATIME].sub & ST_NOATIME),
	       "%s", names[4]);
	/* the control: the fixture's submount itself is none of these */
	TAP_OK(flags[TREE__COUNT].sub != ~0UL &&
		       !(flags[TREE__COUNT].sub & (nosuid_nodev_ro | ST_NOATIME)),
	       "%s", names[5]);
}

void test_mount_opts(void)
{
	test_parse();
	test_apply();
}
