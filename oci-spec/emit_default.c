/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The default config.json, byte for byte what `runc spec` (runc 1.1) and
 * `runc spec --rootless` write: same fields, order, values, tab indent, no
 * trailing newline.  tests/unit/oci-spec/fixtures/runc-spec*.json are the
 * captured originals. */
#include "spec.h"
#include "emit_gen.h"

#include <unistd.h>

#define N_ELEMENTS(a) (sizeof(a) / sizeof((a)[0]))

/* runc's spec still says 1.0.2-dev; scripts compare against it. */
#define DEFAULT_OCI_VERSION "1.0.2-dev"

static const char *const default_args[] = { "sh" };
static const char *const default_env[] = {
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"TERM=xterm",
};
static const char *const default_caps[] = {
	"CAP_AUDIT_WRITE",
	"CAP_KILL",
	"CAP_NET_BIND_SERVICE",
};
static const char *const default_masked_paths[] = {
	"/proc/acpi",	       "/proc/asound",	   "/proc/kcore",	"/proc/keys",
	"/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug",
	"/sys/firmware",       "/proc/scsi",
};
static const char *const default_readonly_paths[] = {
	"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger",
};

struct default_mount {
	const char *destination;
	const char *type;
	const char *source;
	const char *options[8]; /* NULL-terminated */
};

static const struct default_mount default_mounts[] = {
	{ "/proc", "proc", "proc", { NULL } },
	{ "/dev", "tmpfs", "tmpfs", { "nosuid", "strictatime", "mode=755", "size=65536k" } },
	{ "/dev/pts",
	  "devpts",
	  "devpts",
	  { "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5" } },
	{ "/dev/shm", "tmpfs", "shm", { "nosuid", "noexec", "nodev", "mode=1777", "size=65536k" } },
	{ "/dev/mqueue", "mqueue", "mqueue", { "nosuid", "noexec", "nodev" } },
	{ "/sys", "sysfs", "sysfs", { "nosuid", "noexec", "nodev", "ro" } },
	{ "/sys/fs/cgroup", "cgroup", "cgroup", { "nosuid", "noexec", "nodev", "relatime", "ro" } },
};

/* --rootless changes (runc's specconv.ToRootless): devpts loses gid=5 (no
 * group 5 in a one-id user namespace), /sys becomes an rbind of the host's. */
static const struct default_mount rootless_devpts = { "/dev/pts",
						      "devpts",
						      "devpts",
						      { "nosuid", "noexec", "newinstance",
							"ptmxmode=0666", "mode=0620" } };
static const struct default_mount rootless_sys = {
	"/sys", "none", "/sys", { "rbind", "nosuid", "noexec", "nodev", "ro" }
};

static void gen_mount(struct gen *gen, const struct default_mount *m)
{
	size_t n = 0;

	while (n < N_ELEMENTS(m->options) && m->options[n])
		n++;
	oci_gen_map_open(gen);
	oci_gen_key(gen, "destination");
	oci_gen_string(gen, m->destination);
	oci_gen_key(gen, "type");
	oci_gen_string(gen, m->type);
	oci_gen_key(gen, "source");
	oci_gen_string(gen, m->source);
	if (n)
		oci_gen_key_strv(gen, "options", m->options, n);
	oci_gen_map_close(gen);
}

/* runc maps container root to the caller's effective id. */
static void gen_id_mapping(struct gen *gen, const char *key, unsigned host_id)
{
	oci_gen_key(gen, key);
	oci_gen_array_open(gen);
	oci_gen_map_open(gen);
	oci_gen_key(gen, "containerID");
	oci_gen_int(gen, 0);
	oci_gen_key(gen, "hostID");
	oci_gen_int(gen, host_id);
	oci_gen_key(gen, "size");
	oci_gen_int(gen, 1);
	oci_gen_map_close(gen);
	oci_gen_array_close(gen);
}

static void gen_namespaces(struct gen *gen, bool rootless)
{
	static const char *const normal[] = { "pid", "network", "ipc", "uts", "mount" };
	static const char *const user[] = { "pid", "ipc", "uts", "mount", "user" };
	const char *const *types = rootless ? user : normal;
	size_t i;

	oci_gen_key(gen, "namespaces");
	oci_gen_array_open(gen);
	for (i = 0; i < 5; i++) {
		oci_gen_map_open(gen);
		oci_gen_key(gen, "type");
		oci_gen_string(gen, types[i]);
		oci_gen_map_close(gen);
	}
	oci_gen_array_close(gen);
}

static void gen_process(struct gen *gen)
{
	oci_gen_key(gen, "process");
	oci_gen_map_open(gen);
	oci_gen_key(gen, "terminal");
	oci_gen_bool(gen, true);
	oci_gen_key(gen, "user");
	oci_gen_map_open(gen);
	oci_gen_key(gen, "uid");
	oci_gen_int(gen, 0);
	oci_gen_key(gen, "gid");
	oci_gen_int(gen, 0);
	oci_gen_map_close(gen);
	oci_gen_key_strv(gen, "args", default_args, N_ELEMENTS(default_args));
	oci_gen_key_strv(gen, "env", default_env, N_ELEMENTS(default_env));
	oci_gen_key(gen, "cwd");
	oci_gen_string(gen, "/");
	oci_gen_key(gen, "capabilities");
	oci_gen_map_open(gen);
	oci_gen_key_strv(gen, "bounding", default_caps, N_ELEMENTS(default_caps));
	oci_gen_key_strv(gen, "effective", default_caps, N_ELEMENTS(default_caps));
	oci_gen_key_strv(gen, "permitted", default_caps, N_ELEMENTS(default_caps));
	oci_gen_key_strv(gen, "ambient", default_caps, N_ELEMENTS(default_caps));
	oci_gen_map_close(gen);
	oci_gen_key(gen, "rlimits");
	oci_gen_array_open(gen);
	oci_gen_map_open(gen);
	oci_gen_key(gen, "type");
	oci_gen_string(gen, "RLIMIT_NOFILE");
	oci_gen_key(gen, "hard");
	oci_gen_int(gen, 1024);
	oci_gen_key(gen, "soft");
	oci_gen_int(gen, 1024);
	oci_gen_map_close(gen);
	oci_gen_array_close(gen);
	oci_gen_key(gen, "noNewPrivileges");
	oci_gen_bool(gen, true);
	oci_gen_map_close(gen);
}

int oci_spec_default_json(bool rootless, char **out)
{
	struct gen gen;
	size_t i;

	if (oci_gen_begin(&gen) < 0)
		return -1;
	oci_gen_map_open(&gen);
	oci_gen_key(&gen, "ociVersion");
	oci_gen_string(&gen, DEFAULT_OCI_VERSION);
	gen_process(&gen);
	oci_gen_key(&gen, "root");
	oci_gen_map_open(&gen);
	oci_gen_key(&gen, "path");
	oci_gen_string(&gen, "rootfs");
	oci_gen_key(&gen, "readonly");
	oci_gen_bool(&gen, true);
	oci_gen_map_close(&gen);
	oci_gen_key(&gen, "hostname");
	oci_gen_string(&gen, "runc");

	oci_gen_key(&gen, "mounts");
	oci_gen_array_open(&gen);
	for (i = 0; i < N_ELEMENTS(default_mounts); i++) {
		const struct default_mount *m = &default_mounts[i];

		if (rootless && m == &default_mounts[2])
			m = &rootless_devpts;
		else if (rootless && m == &default_mounts[5])
			m = &rootless_sys;
		gen_mount(&gen, m);
	}
	oci_gen_array_close(&gen);

	oci_gen_key(&gen, "linux");
	oci_gen_map_open(&gen);
	if (rootless) {
		gen_id_mapping(&gen, "uidMappings", geteuid());
		gen_id_mapping(&gen, "gidMappings", getegid());
	} else {
		/* deny all devices; runc's allow-list is added at create time */
		oci_gen_key(&gen, "resources");
		oci_gen_map_open(&gen);
		oci_gen_key(&gen, "devices");
		oci_gen_array_open(&gen);
		oci_gen_map_open(&gen);
		oci_gen_key(&gen, "allow");
		oci_gen_bool(&gen, false);
		oci_gen_key(&gen, "access");
		oci_gen_string(&gen, "rwm");
		oci_gen_map_close(&gen);
		oci_gen_array_close(&gen);
		oci_gen_map_close(&gen);
	}
	gen_namespaces(&gen, rootless);
	oci_gen_key_strv(&gen, "maskedPaths", default_masked_paths,
			 N_ELEMENTS(default_masked_paths));
	oci_gen_key_strv(&gen, "readonlyPaths", default_readonly_paths,
			 N_ELEMENTS(default_readonly_paths));
	oci_gen_map_close(&gen);
	oci_gen_map_close(&gen);
	return oci_gen_finish(&gen, "\t", false, out);
}
