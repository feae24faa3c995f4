/* SPDX-License-Identifier: GPL-2.0-or-later */
/* process.user and process.capabilities, set by init on itself: see creds.h. */
#include "creds.h"
#include "cleanup.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int last_cap(void)
{
	static int last = -1;
	int cap;

	if (last >= 0)
		return last;
	for (cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) < 0)
			break;
	last = cap - 1;
	return last;
}

static uint64_t cap_mask(char **names, size_t len)
{
	uint64_t mask = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		int cap = oci_capability_from_name(names[i]);

		if (cap >= 0 && cap <= last_cap())
			mask |= 1ULL << cap;
	}
	return mask;
}

/* process.capabilities.bounding: dropped while init still has CAP_SETPCAP. */
int kc_creds_drop_bounding(const struct oci_process *p, kc_error_t *err)
{
	const struct oci_capabilities *c = p->capabilities;
	uint64_t keep = c ? cap_mask(c->bounding, c->bounding_len) : 0;
	int cap;

	for (cap = 0; cap <= last_cap(); cap++) {
		if (keep & (1ULL << cap))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
			return kc_error_set(err, errno, "drop capability %d from the bounding set", cap);
	}
	return 0;
}

/* effective, permitted, inheritable, then ambient. */
int kc_creds_set_capabilities(const struct oci_process *p, kc_error_t *err)
{
	const struct oci_capabilities *c = p->capabilities;
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2];
	uint64_t eff = 0, perm = 0, inh = 0, amb = 0;
	int cap;

	if (c) {
		eff = cap_mask(c->effective, c->effective_len);
		perm = cap_mask(c->permitted, c->permitted_len);
		inh = cap_mask(c->inheritable, c->inheritable_len);
		amb = cap_mask(c->ambient, c->ambient_len);
	}
	memset(data, 0, sizeof(data));
	data[0].effective = (uint32_t)eff;
	data[1].effective = (uint32_t)(eff >> 32);
	data[0].permitted = (uint32_t)perm;
	data[1].permitted = (uint32_t)(perm >> 32);
	data[0].inheritable = (uint32_t)inh;
	data[1].inheritable = (uint32_t)(inh >> 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return kc_error_set(err, errno, "capset");
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return kc_error_set(err, errno, "clear ambient capabilities");
	for (cap = 0; cap <= last_cap(); cap++) {
		if (!(amb & (1ULL << cap)))
			continue;
		/* runc ignores ambient capabilities that are not also
		 * permitted and inheritable */
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0 && errno != EPERM)
			return kc_error_set(err, errno, "raise ambient capability %s",
					    oci_capability_name(cap));
	}
	return 0;
}

/* runc's fixStdioPermissions: a terminal on stdio (the pty of
 * process.terminal or exec -t) becomes the process user's, so that it can
 * reopen it (/dev/stdout, tty(1), ssh-agent style checks).  Only the uid:
 * devpts' gid= option chose the group.  /dev/null stays root's; an owner
 * the user namespace does not map (EINVAL, EPERM) or a read-only /dev is
 * left as it is, as runc does.  Pipes and files are not changed. */
static int fix_stdio_owner(const struct oci_user *u, kc_error_t *err)
{
	struct stat null_st, st;
	int fd;

	if (stat("/dev/null", &null_st) < 0)
		null_st.st_rdev = 0;
	for (fd = 0; fd <= 2; fd++) {
		if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))
			continue;
		if (st.st_uid == u->uid || st.st_rdev == null_st.st_rdev)
			continue;
		if (fchown(fd, u->uid, st.st_gid) < 0 && errno != EINVAL && errno != EPERM &&
		    errno != EROFS)
			return kc_error_set(err, errno, "chown stdio fd %d to uid %u", fd, u->uid);
	}
	return 0;
}

int kc_creds_set_user(const struct oci_process *p, kc_error_t *err)
{
	const struct oci_user *u = &p->user;
	cleanup_free gid_t *groups = NULL;
	size_t i;

	if (fix_stdio_owner(u, err) < 0)
		return -1;
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return kc_error_set(err, errno, "prctl PR_SET_KEEPCAPS");
	if (u->additional_gids_len) {
		groups = calloc(u->additional_gids_len, sizeof(gid_t));
		if (groups == NULL)
			return kc_error_set(err, ENOMEM, "setgroups");
		for (i = 0; i < u->additional_gids_len; i++)
			groups[i] = u->additional_gids[i];
	}
	if (setgroups(u->additional_gids_len, groups) < 0 && !(errno == EPERM && !groups))
		return kc_error_set(err, errno, "setgroups");
	if (setresgid(u->gid, u->gid, u->gid) < 0)
		return kc_error_set(err, errno, "setresgid %u", u->gid);
	if (setresuid(u->uid, u->uid, u->uid) < 0)
		return kc_error_set(err, errno, "setresuid %u", u->uid);
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return kc_error_set(err, errno, "prctl PR_SET_KEEPCAPS");
	umask(u->has_umask ? (mode_t)u->umask : 0022);
	return 0;
}
