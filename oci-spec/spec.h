/* SPDX-License-Identifier: GPL-2.0-or-later */
/* C model of an OCI runtime-spec 1.2 bundle configuration (config.json)
 * and of the container state (state.json / `runc state` / hook stdin).
 *
 * Conventions, so a reader can find a field by grepping its JSON name:
 *  - A JSON field `fooBar` is the C member `foo_bar`.  The one exception is
 *    the top-level `linux` object, held in `linux_` because `linux` is a
 *    predefined macro under -std=gnu11.
 *  - An array `foo` is `T *foo` plus `size_t foo_len`.  An absent array is
 *    NULL/0; an empty JSON array is also NULL/0 (the spec treats them alike).
 *  - An optional object is a pointer, NULL when absent.
 *  - An optional scalar has a `bool has_foo` next to it; without has_foo the
 *    value is meaningless.  Optional strings are NULL when absent.
 *  - JSON objects used as maps (annotations, sysctl, unified, ...) keep their
 *    document order in a `struct oci_map` (or a typed list for maps of
 *    objects); duplicate keys keep the last value, like Go's decoder.
 *  - Every string is a NUL-terminated heap copy owned by the struct.  The
 *    parser rejects strings with embedded NULs, so strlen() is the length.
 *
 * Everything is freed by oci_spec_free() / oci_state_free(); the smaller
 * oci_*_free() helpers exist for code that builds parts by hand.
 */
#ifndef OCI_SPEC_SPEC_H
#define OCI_SPEC_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* The runtime-spec version this model follows and that kcrun reports. */
#define OCI_SPEC_VERSION "1.2.0"
/* Oldest ociVersion `features` advertises. */
#define OCI_SPEC_VERSION_MIN "1.0.0"

/* Limits the parser enforces (see parse.c). */
#define OCI_MAX_STRING_LEN (1024 * 1024)       /* any string value or key, bytes */
#define OCI_MAX_NESTING 64		       /* JSON depth of arrays/objects */
#define OCI_MAX_CONFIG_SIZE (64 * 1024 * 1024) /* config.json, bytes */

/* ---------- generic ordered string map ---------- */

struct oci_map_entry {
	char *key;
	char *value;
};

struct oci_map {
	struct oci_map_entry *entries;
	size_t len;
};

/* Value for key, or NULL. */
const char *oci_map_get(const struct oci_map *map, const char *key);
/* Adds or replaces (keeping the position of an existing key).  0 / -1 (ENOMEM). */
int oci_map_set(struct oci_map *map, const char *key, const char *value);
void oci_map_free(struct oci_map *map); /* frees contents, not map itself */

/* NULL-safe free of an array of `len` strings and of the array. */
void oci_strv_free(char **strv, size_t len);

/* ---------- process ---------- */

struct oci_console_size {
	uint32_t height;
	uint32_t width;
};

struct oci_user {
	uint32_t uid;
	uint32_t gid;
	bool has_umask;
	uint32_t umask;
	uint32_t *additional_gids;
	size_t additional_gids_len;
};

struct oci_capabilities {
	char **bounding;
	size_t bounding_len;
	char **effective;
	size_t effective_len;
	char **inheritable;
	size_t inheritable_len;
	char **permitted;
	size_t permitted_len;
	char **ambient;
	size_t ambient_len;
};

struct oci_rlimit {
	char *type; /* "RLIMIT_NOFILE", ... (validated: RLIMIT_ + upper case) */
	uint64_t hard;
	uint64_t soft;
};

/* process.scheduler (runtime-spec 1.2, sched_setattr(2)) */
struct oci_scheduler {
	char *policy; /* "SCHED_OTHER", "SCHED_FIFO", ... (required) */
	bool has_nice;
	int32_t nice;
	bool has_priority;
	int32_t priority;
	char **flags; /* "SCHED_FLAG_RESET_ON_FORK", ... */
	size_t flags_len;
	bool has_runtime;
	uint64_t runtime;
	bool has_deadline;
	uint64_t deadline;
	bool has_period;
	uint64_t period;
};

/* process.ioPriority (runtime-spec 1.2, ioprio_set(2)) */
struct oci_io_priority {
	char *class; /* "IOPRIO_CLASS_RT" | "IOPRIO_CLASS_BE" | "IOPRIO_CLASS_IDLE" */
	int32_t priority;
};

/* process.execCPUAffinity (runtime-spec 1.2) */
struct oci_exec_cpu_affinity {
	char *initial; /* cpu list such as "0-3,7", NULL if absent */
	char *final;
};

struct oci_process {
	bool terminal;
	bool has_console_size;
	struct oci_console_size console_size;
	struct oci_user user;
	char **args; /* non-empty when process is present (validated) */
	size_t args_len;
	char **env;
	size_t env_len;
	char *cwd; /* absolute (validated) */
	struct oci_capabilities *capabilities;
	struct oci_rlimit *rlimits;
	size_t rlimits_len;
	bool no_new_privileges;
	char *apparmor_profile;
	bool has_oom_score_adj;
	int oom_score_adj; /* -1000..1000 (validated) */
	char *selinux_label;
	struct oci_scheduler *scheduler;
	struct oci_io_priority *io_priority;
	struct oci_exec_cpu_affinity *exec_cpu_affinity;
};

/* ---------- root, mounts ---------- */

struct oci_root {
	char *path; /* required when root is present */
	bool readonly;
};

struct oci_id_mapping {
	uint32_t container_id;
	uint32_t host_id;
	uint32_t size;
};

struct oci_mount {
	char *destination; /* absolute (validated) */
	char *type;	   /* NULL if absent */
	char *source;	   /* NULL if absent */
	char **options;
	size_t options_len;
	struct oci_id_mapping *uid_mappings;
	size_t uid_mappings_len;
	struct oci_id_mapping *gid_mappings;
	size_t gid_mappings_len;
};

/* ---------- hooks ---------- */

struct oci_hook {
	char *path; /* absolute (validated) */
	char **args;
	size_t args_len;
	char **env;
	size_t env_len;
	bool has_timeout;
	int timeout; /* seconds, > 0 (validated) */
};

struct oci_hooks {
	struct oci_hook *prestart; /* deprecated in the spec, still honoured */
	size_t prestart_len;
	struct oci_hook *create_runtime;
	size_t create_runtime_len;
	struct oci_hook *create_container;
	size_t create_container_len;
	struct oci_hook *start_container;
	size_t start_container_len;
	struct oci_hook *poststart;
	size_t poststart_len;
	struct oci_hook *poststop;
	size_t poststop_len;
};

/* ---------- closed sets of names (names.c) ---------- */

/* mounts[].options: what each known name means to the runtime. */
enum oci_mount_option_kind {
	OCI_MOUNT_OPT_DATA,        /* no mount flag: handed to the filesystem as is */
	OCI_MOUNT_OPT_IGNORED,     /* means nothing to a mount made with the new mount API */
	OCI_MOUNT_OPT_BIND,        /* bind; rbind (recursive) */
	OCI_MOUNT_OPT_ATTR,        /* sets (or, clear, clears) the MOUNT_ATTR_* value;
				    * recursive (rro, rnosuid, rdev...): on every
				    * mount of the tree, not only the top one */
	OCI_MOUNT_OPT_ATIME,       /* value is the MOUNT_ATTR__ATIME mode (recursive:
				    * ratime, rnoatime...) */
	OCI_MOUNT_OPT_PROPAGATION, /* value is MS_PRIVATE, MS_SHARED, MS_SLAVE or MS_UNBINDABLE */
	OCI_MOUNT_OPT_IDMAP,       /* idmap, ridmap (recursive): an idmapped mount */
	OCI_MOUNT_OPT_TMPCOPYUP,   /* tmpcopyup: a tmpfs starts with a copy of what it covers */
};
struct oci_mount_option {
	const char *name;
	enum oci_mount_option_kind kind;
	uint64_t value;
	bool clear;
	bool recursive;
	bool feature; /* listed by `features` */
};
extern const struct oci_mount_option oci_mount_options[];
extern const size_t oci_mount_options_len;
/* NULL for a name kcrun does not know (a filesystem option: "mode=755"). */
const struct oci_mount_option *oci_mount_option_find(const char *name);

/* Capabilities, CAP_CHOWN (0) .. CAP_CHECKPOINT_RESTORE (40). */
#define OCI_CAPABILITY_COUNT 41
const char *oci_capability_name(int cap); /* NULL when out of range */
/* The number of a "CAP_..." name (any case), -1 if unknown. */
int oci_capability_from_name(const char *name);

/* process.rlimits[].type -> RLIMIT_*, -1 if unknown. */
int oci_rlimit_from_name(const char *name);

/* linux.seccomp.architectures names. */
struct oci_seccomp_arch {
	const char *name; /* "SCMP_ARCH_X86_64" */
	bool feature;     /* listed by `features` */
};
extern const struct oci_seccomp_arch oci_seccomp_archs[];
extern const size_t oci_seccomp_archs_len;
bool oci_seccomp_arch_known(const char *name);

/* ---------- linux: namespaces, devices ---------- */

enum oci_namespace_type {
	OCI_NS_PID,
	OCI_NS_NETWORK,
	OCI_NS_MOUNT,
	OCI_NS_IPC,
	OCI_NS_UTS,
	OCI_NS_USER,
	OCI_NS_CGROUP,
	OCI_NS_TIME,
	OCI_NS__COUNT
};

/* "pid", "network", ... ; NULL for an out-of-range value. */
const char *oci_namespace_type_name(enum oci_namespace_type type);
/* 0 and *out set, or -1 for an unknown name. */
int oci_namespace_type_from_name(const char *name, enum oci_namespace_type *out);

struct oci_namespace {
	enum oci_namespace_type type;
	char *path; /* join this namespace; NULL = create a new one */
};

struct oci_device {
	char *type;    /* "c", "b", "u" or "p" (validated) */
	char *path;    /* absolute (validated) */
	int64_t major; /* required for c/b/u, ignored for p */
	int64_t minor;
	bool has_file_mode;
	uint32_t file_mode;
	bool has_uid;
	uint32_t uid;
	bool has_gid;
	uint32_t gid;
};

/* ---------- linux.resources ---------- */

struct oci_device_cgroup {
	bool allow;
	char *type; /* "a", "c", "b" or NULL (= all) */
	bool has_major;
	int64_t major; /* absent = all (-1 in the kernel's notation) */
	bool has_minor;
	int64_t minor;
	char *access; /* subset of "rwm", NULL = all */
};

struct oci_memory {
	bool has_limit;
	int64_t limit; /* -1 = unlimited */
	bool has_reservation;
	int64_t reservation;
	bool has_swap;
	int64_t swap;
	bool has_kernel;
	int64_t kernel;
	bool has_kernel_tcp;
	int64_t kernel_tcp;
	bool has_swappiness;
	uint64_t swappiness;
	bool has_disable_oom_killer;
	bool disable_oom_killer;
	bool has_use_hierarchy;
	bool use_hierarchy;
	bool has_check_before_update;
	bool check_before_update;
};

struct oci_cpu {
	bool has_shares;
	uint64_t shares;
	bool has_quota;
	int64_t quota;
	bool has_burst;
	uint64_t burst;
	bool has_period;
	uint64_t period;
	bool has_realtime_runtime;
	int64_t realtime_runtime;
	bool has_realtime_period;
	uint64_t realtime_period;
	char *cpus; /* NULL if absent */
	char *mems;
	bool has_idle;
	int64_t idle;
};

struct oci_pids {
	bool has_limit;
	int64_t limit; /* <= 0 = unlimited */
};

struct oci_weight_device {
	int64_t major;
	int64_t minor;
	bool has_weight;
	uint16_t weight;
	bool has_leaf_weight;
	uint16_t leaf_weight;
};

struct oci_throttle_device {
	int64_t major;
	int64_t minor;
	uint64_t rate;
};

struct oci_block_io {
	bool has_weight;
	uint16_t weight;
	bool has_leaf_weight;
	uint16_t leaf_weight;
	struct oci_weight_device *weight_device;
	size_t weight_device_len;
	struct oci_throttle_device *throttle_read_bps_device;
	size_t throttle_read_bps_device_len;
	struct oci_throttle_device *throttle_write_bps_device;
	size_t throttle_write_bps_device_len;
	struct oci_throttle_device *throttle_read_iops_device;
	size_t throttle_read_iops_device_len;
	struct oci_throttle_device *throttle_write_iops_device;
	size_t throttle_write_iops_device_len;
};

struct oci_hugepage_limit {
	char *page_size; /* "2MB", "1GB", ... */
	uint64_t limit;
};

struct oci_interface_priority {
	char *name;
	uint32_t priority;
};

struct oci_network {
	bool has_class_id;
	uint32_t class_id;
	struct oci_interface_priority *priorities;
	size_t priorities_len;
};

/* One entry of the linux.resources.rdma map (key = device name). */
struct oci_rdma {
	char *device;
	bool has_hca_handles;
	uint32_t hca_handles;
	bool has_hca_objects;
	uint32_t hca_objects;
};

struct oci_resources {
	struct oci_device_cgroup *devices;
	size_t devices_len;
	struct oci_memory *memory;
	struct oci_cpu *cpu;
	struct oci_pids *pids;
	struct oci_block_io *block_io;
	struct oci_hugepage_limit *hugepage_limits;
	size_t hugepage_limits_len;
	struct oci_network *network;
	struct oci_rdma *rdma;
	size_t rdma_len;
	struct oci_map unified; /* cgroup v2 file name -> value */
};

/* ---------- linux.seccomp ---------- */

enum oci_seccomp_action {
	OCI_SECCOMP_ACT_KILL,	      /* SCMP_ACT_KILL (= kill thread) */
	OCI_SECCOMP_ACT_KILL_PROCESS, /* SCMP_ACT_KILL_PROCESS */
	OCI_SECCOMP_ACT_KILL_THREAD,  /* SCMP_ACT_KILL_THREAD */
	OCI_SECCOMP_ACT_TRAP,	      /* SCMP_ACT_TRAP */
	OCI_SECCOMP_ACT_ERRNO,	      /* SCMP_ACT_ERRNO */
	OCI_SECCOMP_ACT_TRACE,	      /* SCMP_ACT_TRACE */
	OCI_SECCOMP_ACT_ALLOW,	      /* SCMP_ACT_ALLOW */
	OCI_SECCOMP_ACT_LOG,	      /* SCMP_ACT_LOG */
	OCI_SECCOMP_ACT_NOTIFY,	      /* SCMP_ACT_NOTIFY */
	OCI_SECCOMP_ACT__COUNT
};

const char *oci_seccomp_action_name(enum oci_seccomp_action action);
int oci_seccomp_action_from_name(const char *name, enum oci_seccomp_action *out);

enum oci_seccomp_op {
	OCI_SECCOMP_CMP_NE,	   /* SCMP_CMP_NE */
	OCI_SECCOMP_CMP_LT,	   /* SCMP_CMP_LT */
	OCI_SECCOMP_CMP_LE,	   /* SCMP_CMP_LE */
	OCI_SECCOMP_CMP_EQ,	   /* SCMP_CMP_EQ */
	OCI_SECCOMP_CMP_GE,	   /* SCMP_CMP_GE */
	OCI_SECCOMP_CMP_GT,	   /* SCMP_CMP_GT */
	OCI_SECCOMP_CMP_MASKED_EQ, /* SCMP_CMP_MASKED_EQ */
	OCI_SECCOMP_CMP__COUNT
};

const char *oci_seccomp_op_name(enum oci_seccomp_op op);
int oci_seccomp_op_from_name(const char *name, enum oci_seccomp_op *out);

struct oci_seccomp_arg {
	uint32_t index;
	uint64_t value;
	bool has_value_two;
	uint64_t value_two;
	enum oci_seccomp_op op;
};

struct oci_seccomp_syscall {
	char **names; /* non-empty (validated) */
	size_t names_len;
	enum oci_seccomp_action action;
	bool has_errno_ret;
	uint32_t errno_ret;
	struct oci_seccomp_arg *args;
	size_t args_len;
};

struct oci_seccomp {
	enum oci_seccomp_action default_action;
	bool has_default_errno_ret;
	uint32_t default_errno_ret;
	char **architectures; /* "SCMP_ARCH_X86_64", ... */
	size_t architectures_len;
	char **flags; /* "SECCOMP_FILTER_FLAG_LOG", ... */
	size_t flags_len;
	char *listener_path;
	char *listener_metadata;
	struct oci_seccomp_syscall *syscalls;
	size_t syscalls_len;
};

/* ---------- linux: the rest ---------- */

struct oci_intel_rdt {
	char *clos_id; /* JSON "closID" */
	char *l3_cache_schema;
	char *mem_bw_schema;
	bool enable_cmt;
	bool enable_mbm;
};

enum oci_personality_domain {
	OCI_PERSONALITY_LINUX,	 /* "LINUX" */
	OCI_PERSONALITY_LINUX32, /* "LINUX32" */
};

struct oci_personality {
	enum oci_personality_domain domain;
	char **flags;
	size_t flags_len;
};

/* One entry of linux.timeOffsets (key = clock: "monotonic" | "boottime"). */
struct oci_time_offset {
	char *clock;
	int64_t secs;
	uint32_t nanosecs;
};

/* One entry of linux.netDevices (key = device name on the host). */
struct oci_net_device {
	char *host_name;
	char *name; /* name inside the container; NULL = keep host_name */
};

struct oci_linux {
	struct oci_namespace *namespaces; /* no duplicate types (validated) */
	size_t namespaces_len;
	struct oci_id_mapping *uid_mappings;
	size_t uid_mappings_len;
	struct oci_id_mapping *gid_mappings;
	size_t gid_mappings_len;
	struct oci_device *devices;
	size_t devices_len;
	char *cgroups_path;
	struct oci_resources *resources;
	char *rootfs_propagation; /* "private", "rslave", ... (validated) */
	struct oci_seccomp *seccomp;
	struct oci_map sysctl;
	char **masked_paths;
	size_t masked_paths_len;
	char **readonly_paths;
	size_t readonly_paths_len;
	char *mount_label;
	struct oci_intel_rdt *intel_rdt;
	struct oci_personality *personality;
	struct oci_time_offset *time_offsets;
	size_t time_offsets_len;
	struct oci_net_device *net_devices;
	size_t net_devices_len;
};

/* Namespace entry of the given type, or NULL. */
const struct oci_namespace *oci_linux_find_namespace(const struct oci_linux *linux_,
						     enum oci_namespace_type type);

/* ---------- the whole config.json ---------- */

struct oci_spec {
	char *oci_version; /* required */
	struct oci_process *process;
	struct oci_root *root;
	char *hostname;
	char *domainname;
	struct oci_mount *mounts;
	size_t mounts_len;
	struct oci_hooks *hooks;
	struct oci_map annotations;
	struct oci_linux *linux_; /* JSON "linux" */
};

/* ---------- container state ---------- */

enum oci_status {
	OCI_STATUS_CREATING,
	OCI_STATUS_CREATED,
	OCI_STATUS_RUNNING,
	OCI_STATUS_STOPPED,
	OCI_STATUS_PAUSED, /* runc extension, not in runtime-spec */
};

const char *oci_status_name(enum oci_status status);
int oci_status_from_name(const char *name, enum oci_status *out);

/* runtime-spec state plus the extra fields `runc state` prints. */
struct oci_state {
	char *oci_version;
	char *id;
	enum oci_status status;
	int pid; /* 0 when there is no process */
	char *bundle;
	struct oci_map annotations;
	/* runc `state` extras (not in the hook state) */
	char *rootfs;
	struct timespec created; /* UTC, printed RFC 3339 with nanoseconds */
	char *owner;		 /* "" for the usual root-owned case */
};

/* ---------- parsing (parse.c) ---------- */

/* Parse config.json.  On success returns 0 and sets *out (free with
 * oci_spec_free()).  On failure returns -1, *out stays NULL and *errmsg is a
 * malloc'ed message naming the JSON path and the reason, e.g.
 *   `linux.namespaces[2].type: unknown namespace "foo"`.
 * errmsg may be NULL. */
int oci_spec_parse_file(const char *path, struct oci_spec **out, char **errmsg);
int oci_spec_parse_string(const char *json, size_t len, struct oci_spec **out, char **errmsg);

/* Checks what create/run additionally need (runtime-spec: `process` is
 * required to start a container; args non-empty, cwd set). 0 or -1 + *errmsg. */
int oci_spec_validate_for_create(const struct oci_spec *spec, char **errmsg);

/* Parse a bare linux.resources object (`update --resources FILE`).  Error
 * paths are relative to it ("memory.limit: ..."); syntax errors name
 * "resources". */
int oci_resources_parse_string(const char *json, size_t len, struct oci_resources **out,
			       char **errmsg);
/* Parse a bare process object (`exec --process FILE`); errors are named as
 * in config.json ("process.args: ...", syntax errors "process: ..."). */
int oci_process_parse_string(const char *json, size_t len, struct oci_process **out,
			     char **errmsg);

/* The same, with the errors named as in config.json
 * ("linux.resources.memory.limit: ...", syntax errors "linux.resources: ..."). */
int oci_linux_resources_parse_string(const char *json, size_t len, struct oci_resources **out,
				     char **errmsg);

/* Parse a runtime-spec state document (what hooks receive on stdin). */
int oci_state_parse_string(const char *json, size_t len, struct oci_state **out, char **errmsg);

/* ---------- serialising (emit.c) ---------- */

/* All return 0 and a malloc'ed NUL-terminated *out, or -1 (errno set). */

/* `runc state` format: pretty-printed, 2-space indent, no trailing newline. */
int oci_state_to_json(const struct oci_state *state, char **out);
/* runtime-spec state passed to hooks on stdin (compact). */
int oci_state_to_hook_json(const struct oci_state *state, char **out);
/* runtime-spec ContainerProcessState (seccomp notify): {ociVersion, fds,
 * pid (the process's: init's, or an exec'd one's), metadata (omitted when
 * NULL), state}. */
int oci_process_state_to_json(const struct oci_state *state, int pid, const char *const *fds,
			      size_t fds_len, const char *metadata, char **out);
/* `runc features` format. */
int oci_features_to_json(char **out);
/* What the runtime binary and the running kernel add to it (NULL: nothing):
 * the systemd cgroup driver when the build has it, and more "annotations"
 * (probes of the kernel: org.kcrun.keys.*) after kcrun's own. */
struct oci_features_host {
	bool systemd;      /* cgroup.systemd and cgroup.systemdUser */
	const struct oci_map *annotations;
};
int oci_features_to_json_host(const struct oci_features_host *host, char **out);
/* Exactly what `runc spec` [--rootless] writes to config.json. */
int oci_spec_default_json(bool rootless, char **out);
/* config.json for a spec, as runc would write it: Go field order, empty
 * optional fields left out, map keys sorted, tab indent, no newline.
 * Unknown fields of a parsed config are not carried over. */
int oci_spec_to_json(const struct oci_spec *spec, char **out);

/* ---------- freeing ---------- */

void oci_spec_free(struct oci_spec *spec);
void oci_state_free(struct oci_state *state);

void oci_process_free(struct oci_process *process);
void oci_user_free(struct oci_user *user); /* contents only */
void oci_capabilities_free(struct oci_capabilities *capabilities);
void oci_rlimit_free(struct oci_rlimit *rlimit); /* contents only */
void oci_scheduler_free(struct oci_scheduler *scheduler);
void oci_io_priority_free(struct oci_io_priority *io_priority);
void oci_exec_cpu_affinity_free(struct oci_exec_cpu_affinity *affinity);
void oci_root_free(struct oci_root *root);
void oci_mount_free(struct oci_mount *mount); /* contents only */
void oci_hook_free(struct oci_hook *hook);    /* contents only */
void oci_hooks_free(struct oci_hooks *hooks);
void oci_namespace_free(struct oci_namespace *ns);	       /* contents only */
void oci_device_free(struct oci_device *device);	       /* contents only */
void oci_device_cgroup_free(struct oci_device_cgroup *device); /* contents only */
void oci_memory_free(struct oci_memory *memory);
void oci_cpu_free(struct oci_cpu *cpu);
void oci_pids_free(struct oci_pids *pids);
void oci_block_io_free(struct oci_block_io *block_io);
void oci_hugepage_limit_free(struct oci_hugepage_limit *limit);		   /* contents only */
void oci_interface_priority_free(struct oci_interface_priority *priority); /* contents only */
void oci_network_free(struct oci_network *network);
void oci_rdma_free(struct oci_rdma *rdma); /* contents only */
void oci_resources_free(struct oci_resources *resources);
void oci_seccomp_syscall_free(struct oci_seccomp_syscall *syscall); /* contents only */
void oci_seccomp_free(struct oci_seccomp *seccomp);
void oci_intel_rdt_free(struct oci_intel_rdt *intel_rdt);
void oci_personality_free(struct oci_personality *personality);
void oci_time_offset_free(struct oci_time_offset *offset); /* contents only */
void oci_net_device_free(struct oci_net_device *device);   /* contents only */
void oci_linux_free(struct oci_linux *linux_);

/* Cleanup-attribute helpers: `oci_cleanup_spec struct oci_spec *spec = NULL;` */
static inline void oci_spec_freep(struct oci_spec **spec)
{
	oci_spec_free(*spec);
}
static inline void oci_state_freep(struct oci_state **state)
{
	oci_state_free(*state);
}
#define oci_cleanup_spec __attribute__((cleanup(oci_spec_freep)))
#define oci_cleanup_state __attribute__((cleanup(oci_state_freep)))

#endif /* OCI_SPEC_SPEC_H */
