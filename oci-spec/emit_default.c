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
	"CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE",
};
static const char *const default_masked_paths[] = {
	"/proc/acpi",	     "/proc/asound",	"/proc/kcore",	   "/proc/keys",
	"/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug",
	"/sys/firmware",     "/proc/scsi",
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
	{ "/dev/pts", "devpts", "devpts",
	  { "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5" } },
	{ "/dev/shm", "tmpfs", "shm", { "nosuid", "noexec", "nodev", "mode=1777", "size=65536k" } },
	{ "/dev/mqueue", "mqueue", "mqueue", { "nosuid", "noexec", "nodev" } },
	{ "/sys", "sysfs", "sysfs", { "nosuid", "noexec", "nodev", "ro" } },
	{ "/sys/fs/cgroup", "cgroup", "cgroup", { "nosuid", "noexec", "nodev", "relatime", "ro" } },
};

/* --rootless changes (runc's specconv.ToRootless): devpts loses gid=5 (no
 * group 5 in a one-id user namespace), /sys becomes an rbind of the host's. */
static const struct default_mount rootless_devpts = {
	"/dev/pts", "devpts", "devpts",
	{ "nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620" }
};
static const struct default_mount rootless_sys = {
	"/sys", "none", "/sys", { "rbind", "nosuid", "noexec", "nodev", "ro" }
};

static void gen_mount(struct gen *gen, const struct default_mount *m)
{
	size_t n = 0;

	while (n < N_ELEMENTS(m->options) && m->options[n])
		n++;
	gen_map_open(gen);
	gen_key(gen, "destination");
	gen_string(gen, m->destination);
	gen_key(gen, "type");
	gen_string(gen, m->type);
	gen_key(gen, "source");
	gen_string(gen, m->source);
	if (n)
		gen_key_strv(gen, "options", m->options, n);
	gen_map_close(gen);
}

/* runc maps container root to the caller's effective id. */
static void gen_id_mapping(struct gen *gen, const char *key, unsigned host_id)
{
	gen_key(gen, key);
	gen_array_open(gen);
	gen_map_open(gen);
	gen_key(gen, "containerID");
	gen_int(gen, 0);
	gen_key(gen, "hostID");
	gen_int(gen, host_id);
	gen_key(gen, "size");
	gen_int(gen, 1);
	gen_map_close(gen);
	gen_array_close(gen);
}

static void gen_namespaces(struct gen *gen, bool rootless)
{
	static const char *const normal[] = { "pid", "network", "ipc", "uts", "mount" };
	static const char *const user[] = { "pid", "ipc", "uts", "mount", "user" };
	const char *const *types = rootless ? user : normal;
	size_t i;

	gen_key(gen, "namespaces");
	gen_array_open(gen);
	for (i = 0; i < 5; i++) {
		gen_map_open(gen);
		gen_key(gen, "type");
		gen_string(gen, types[i]);
		gen_map_close(gen);
	}
	gen_array_close(gen);
}

static void gen_process(struct gen *gen)
{
	gen_key(gen, "process");
	gen_map_open(gen);
	gen_key(gen, "terminal");
	gen_bool(gen, true);
	gen_key(gen, "user");
	gen_map_open(gen);
	gen_key(gen, "uid");
	gen_int(gen, 0);
	gen_key(gen, "gid");
	gen_int(gen, 0);
	gen_map_close(gen);
	gen_key_strv(gen, "args", default_args, N_ELEMENTS(default_args));
	gen_key_strv(gen, "env", default_env, N_ELEMENTS(default_env));
	gen_key(gen, "cwd");
	gen_string(gen, "/");
	gen_key(gen, "capabilities");
	gen_map_open(gen);
	gen_key_strv(gen, "bounding", default_caps, N_ELEMENTS(default_caps));
	gen_key_strv(gen, "effective", default_caps, N_ELEMENTS(default_caps));
	gen_key_strv(gen, "permitted", default_caps, N_ELEMENTS(default_caps));
	gen_key_strv(gen, "ambient", default_caps, N_ELEMENTS(default_caps));
	gen_map_close(gen);
	gen_key(gen, "rlimits");
	gen_array_open(gen);
	gen_map_open(gen);
	gen_key(gen, "type");
	gen_string(gen, "RLIMIT_NOFILE");
	gen_key(gen, "hard");
	gen_int(gen, 1024);
	gen_key(gen, "soft");
	gen_int(gen, 1024);
	gen_map_close(gen);
	gen_array_close(gen);
	gen_key(gen, "noNewPrivileges");
	gen_bool(gen, true);
	gen_map_close(gen);
}

int oci_spec_default_json(bool rootless, char **out)
{
	struct gen gen;
	size_t i;

	if (gen_begin(&gen) < 0)
		return -1;
	gen_map_open(&gen);
	gen_key(&gen, "ociVersion");
	gen_string(&gen, DEFAULT_OCI_VERSION);
	gen_process(&gen);
	gen_key(&gen, "root");
	gen_map_open(&gen);
	gen_key(&gen, "path");
	gen_string(&gen, "rootfs");
	gen_key(&gen, "readonly");
	gen_bool(&gen, true);
	gen_map_close(&gen);
	gen_key(&gen, "hostname");
	gen_string(&gen, "runc");

	gen_key(&gen, "mounts");
	gen_array_open(&gen);
	for (i = 0; i < N_ELEMENTS(default_mounts); i++) {
		const struct default_mount *m = &default_mounts[i];

		if (rootless && m == &default_mounts[2])
			m = &rootless_devpts;
		else if (rootless && m == &default_mounts[5])
			m = &rootless_sys;
		gen_mount(&gen, m);
	}
	gen_array_close(&gen);

	gen_key(&gen, "linux");
	gen_map_open(&gen);
	if (rootless) {
		gen_id_mapping(&gen, "uidMappings", geteuid());
		gen_id_mapping(&gen, "gidMappings", getegid());
	} else {
		/* deny all devices; runc's allow-list is added at create time */
		gen_key(&gen, "resources");
		gen_map_open(&gen);
		gen_key(&gen, "devices");
		gen_array_open(&gen);
		gen_map_open(&gen);
		gen_key(&gen, "allow");
		gen_bool(&gen, false);
		gen_key(&gen, "access");
		gen_string(&gen, "rwm");
		gen_map_close(&gen);
		gen_array_close(&gen);
		gen_map_close(&gen);
	}
	gen_namespaces(&gen, rootless);
	gen_key_strv(&gen, "maskedPaths", default_masked_paths, N_ELEMENTS(default_masked_paths));
	gen_key_strv(&gen, "readonlyPaths", default_readonly_paths,
		     N_ELEMENTS(default_readonly_paths));
	gen_map_close(&gen);
	gen_map_close(&gen);
	return gen_finish(&gen, "\t", false, out);
}
