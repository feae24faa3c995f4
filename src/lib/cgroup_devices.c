/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgroup v2, the eBPF device filter: see cgroup_devices.h. */
#include "cgroup_devices.h"
#include "bpf_cache.h"
#include "cleanup.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KC_DEVICE_ACCESS_ALL (BPF_DEVCG_ACC_MKNOD | BPF_DEVCG_ACC_READ | BPF_DEVCG_ACC_WRITE)

/* runc 1.1's AllowedDevices: what every container may use. */
static const struct kc_device_rule always_allowed_devices[] = {
	{ 'c', -1, -1, BPF_DEVCG_ACC_MKNOD, true },
	{ 'b', -1, -1, BPF_DEVCG_ACC_MKNOD, true },
	{ 'c', 1, 3, KC_DEVICE_ACCESS_ALL, true },    /* /dev/null */
	{ 'c', 1, 8, KC_DEVICE_ACCESS_ALL, true },    /* /dev/random */
	{ 'c', 1, 7, KC_DEVICE_ACCESS_ALL, true },    /* /dev/full */
	{ 'c', 5, 0, KC_DEVICE_ACCESS_ALL, true },    /* /dev/tty */
	{ 'c', 1, 5, KC_DEVICE_ACCESS_ALL, true },    /* /dev/zero */
	{ 'c', 1, 9, KC_DEVICE_ACCESS_ALL, true },    /* /dev/urandom */
	{ 'c', 136, -1, KC_DEVICE_ACCESS_ALL, true }, /* /dev/pts/N */
	{ 'c', 5, 2, KC_DEVICE_ACCESS_ALL, true },    /* /dev/ptmx */
	{ 'c', 10, 200, KC_DEVICE_ACCESS_ALL, true }, /* /dev/net/tun */
};

/* runc takes any string and looks for the letters it knows: its own
 * update.bats writes "rwa"; the parser takes any string. */
static void parse_device_access(const char *access, unsigned int *bits)
{
	*bits = 0;
	if (access == NULL || access[0] == '\0') {
		*bits = KC_DEVICE_ACCESS_ALL;
		return;
	}
	for (; *access; access++) {
		switch (*access) {
		case 'r':
			*bits |= BPF_DEVCG_ACC_READ;
			break;
		case 'w':
			*bits |= BPF_DEVCG_ACC_WRITE;
			break;
		case 'm':
			*bits |= BPF_DEVCG_ACC_MKNOD;
			break;
		default:
			break;
		}
	}
}

int kc_cgroup_device_rules(const struct oci_linux *linux_, struct kc_device_rule **rules,
			   size_t *n, kc_error_t *err)
{
	const struct oci_resources *resources = linux_ ? linux_->resources : NULL;
	size_t spec_rules = resources ? resources->devices_len : 0;
	size_t defaults = sizeof(always_allowed_devices) / sizeof(always_allowed_devices[0]);
	struct kc_device_rule *list = calloc(spec_rules + defaults, sizeof(*list));
	size_t count = 0, i;

	if (list == NULL)
		return kc_error_set(err, ENOMEM, "linux.resources.devices");
	for (i = 0; i < spec_rules; i++) {
		const struct oci_device_cgroup *device = &resources->devices[i];
		struct kc_device_rule *rule = &list[count++];

		rule->allow = device->allow;
		rule->type = device->type ? device->type[0] : 'a';
		if (device->type && (strlen(device->type) != 1 || !strchr("acb", rule->type))) {
			free(list);
			return kc_error_set(err, EINVAL, "linux.resources.devices[%zu].type: \"%s\" is not a, c or b",
					    i, device->type);
		}
		rule->major = device->has_major ? device->major : -1;
		rule->minor = device->has_minor ? device->minor : -1;
		parse_device_access(device->access, &rule->access);
	}
	for (i = 0; i < defaults; i++)
		list[count++] = always_allowed_devices[i];
	*rules = list;
	*n = count;
	return 0;
}

/* Instruction encoding (linux/bpf.h's struct bpf_insn). */
#define INSN(c, dst, src, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (dst), .src_reg = (src), .off = (o), .imm = (i) })
#define LDX_W(dst, src, off) INSN(BPF_LDX | BPF_MEM | BPF_W, dst, src, off, 0)
#define ALU32_IMM(op, dst, imm) INSN(BPF_ALU | (op) | BPF_K, dst, 0, 0, imm)
#define MOV32_REG(dst, src) INSN(BPF_ALU | BPF_MOV | BPF_X, dst, src, 0, 0)
#define MOV64_IMM(dst, imm) INSN(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm)
#define JNE_IMM(dst, imm, off) INSN(BPF_JMP | BPF_JNE | BPF_K, dst, 0, off, imm)
#define JNE_REG(dst, src, off) INSN(BPF_JMP | BPF_JNE | BPF_X, dst, src, off, 0)
#define EXIT_INSN() INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* Registers after the prologue: r2 device type, r3 access, r4 major,
 * r5 minor (r1, the context, is then free for scratch). */
enum { R0, R1, R2, R3, R4, R5 };

int kc_cgroup_device_program(const struct kc_device_rule *rules, size_t n, void **insns,
			     size_t *insn_count, kc_error_t *err)
{
	/* prologue 6 + at most 7 per rule + epilogue 2 */
	struct bpf_insn *program = calloc(6 + 7 * n + 2, sizeof(*program));
	size_t count = 0, i;
	bool unconditional = false;

	if (program == NULL)
		return kc_error_set(err, ENOMEM, "device filter");
	program[count++] = LDX_W(R2, R1, offsetof(struct bpf_cgroup_dev_ctx, access_type));
	program[count++] = ALU32_IMM(BPF_AND, R2, 0xFFFF);
	program[count++] = LDX_W(R3, R1, offsetof(struct bpf_cgroup_dev_ctx, access_type));
	program[count++] = ALU32_IMM(BPF_RSH, R3, 16);
	program[count++] = LDX_W(R4, R1, offsetof(struct bpf_cgroup_dev_ctx, major));
	program[count++] = LDX_W(R5, R1, offsetof(struct bpf_cgroup_dev_ctx, minor));

	/* Last match wins: test the rules from the last one back, the first
	 * block that matches decides. */
	for (i = n; i-- > 0 && !unconditional;) {
		const struct kc_device_rule *rule = &rules[i];
		struct bpf_insn *block = &program[count];
		size_t len = 0, j;

		if (rule->type != 'a')
			block[len++] = JNE_IMM(R2, rule->type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR, 0);
		if ((rule->access & KC_DEVICE_ACCESS_ALL) != KC_DEVICE_ACCESS_ALL) {
			/* every requested bit must be in the rule's access */
			block[len++] = MOV32_REG(R1, R3);
			block[len++] = ALU32_IMM(BPF_AND, R1, rule->access);
			block[len++] = JNE_REG(R1, R3, 0);
		}
		if (rule->major >= 0)
			block[len++] = JNE_IMM(R4, (int32_t)rule->major, 0);
		if (rule->minor >= 0)
			block[len++] = JNE_IMM(R5, (int32_t)rule->minor, 0);
		unconditional = len == 0;
		block[len++] = MOV64_IMM(R0, rule->allow ? 1 : 0);
		block[len++] = EXIT_INSN();
		/* A failed test jumps past the block's end. */
		for (j = 0; j < len; j++) {
			if (BPF_CLASS(block[j].code) == BPF_JMP && BPF_OP(block[j].code) == BPF_JNE)
				block[j].off = (int16_t)(len - j - 1);
		}
		count += len;
	}
	/* Nothing matched: deny.  (After an unconditional rule this would be
	 * unreachable, which the verifier refuses.) */
	if (!unconditional) {
		program[count++] = MOV64_IMM(R0, 0);
		program[count++] = EXIT_INSN();
	}
	*insns = program;
	*insn_count = count;
	return 0;
}

static int bpf_call(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* The verifier's log ends with its verdict and a "processed N insns"
 * line: keep those two lines, not the whole trace. */
static const char *verifier_verdict(char *log)
{
	size_t len = strlen(log);
	int newlines = 0;

	while (len > 0 && log[len - 1] == '\n')
		log[--len] = '\0';
	while (len > 0) {
		if (log[len - 1] == '\n' && ++newlines == 2)
			return log + len;
		len--;
	}
	return log;
}

static void fill_load_attr(union bpf_attr *attr, const struct bpf_insn *program, size_t count)
{
	memset(attr, 0, sizeof(*attr));
	attr->prog_type = BPF_PROG_TYPE_CGROUP_DEVICE;
	attr->insns = (uintptr_t)program;
	attr->insn_cnt = count;
	attr->license = (uintptr_t)"GPL";
}

static int load_device_program(const struct bpf_insn *program, size_t count, kc_error_t *err)
{
	static char log[65536];
	union bpf_attr attr;
	int fd;

	fill_load_attr(&attr, program, count);
	fd = bpf_call(BPF_PROG_LOAD, &attr);
	if (fd >= 0)
		return fd;
	/* Again with the verifier's log, for the error message. */
	fill_load_attr(&attr, program, count);
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	log[0] = '\0';
	fd = bpf_call(BPF_PROG_LOAD, &attr);
	if (fd >= 0)
		return fd;
	return kc_error_set(err, errno, "linux.resources.devices: load the device filter (%zu instructions)%s%s",
			    count, log[0] ? ": verifier: " : "", verifier_verdict(log));
}

int kc_cgroup_apply_devices(const char *dir, const struct oci_linux *linux_, kc_error_t *err)
{
	cleanup_free struct kc_device_rule *rules = NULL;
	cleanup_free void *program = NULL;
	cleanup_close int cgroup_fd = -1, program_fd = -1;
	uint32_t old_ids[64], old_count = 64, i, program_id = 0;
	size_t rule_count, insn_count;
	bool attached = false;
	union bpf_attr attr;

	if (kc_cgroup_device_rules(linux_, &rules, &rule_count, err) < 0 ||
	    kc_cgroup_device_program(rules, rule_count, &program, &insn_count, err) < 0)
		return -1;
	cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgroup_fd < 0)
		return kc_error_set(err, errno, "linux.resources.devices: open cgroup %s", dir);

	/* Programs attached before (an earlier call): detached once the new
	 * one is in place, so there is no window without a filter. */
	memset(&attr, 0, sizeof(attr));
	attr.query.target_fd = cgroup_fd;
	attr.query.attach_type = BPF_CGROUP_DEVICE;
	attr.query.prog_ids = (uintptr_t)old_ids;
	attr.query.prog_cnt = old_count;
	old_count = bpf_call(BPF_PROG_QUERY, &attr) == 0 ? attr.query.prog_cnt : 0;
	if (old_count > 64)
		old_count = 64;

	/* The same rules make the same program: verified once, pinned, and
	 * attached to every container that has them (bpf_cache.h). */
	program_fd = kc_bpf_cache_get(KC_BPF_CACHE_DIR, "devices", BPF_PROG_TYPE_CGROUP_DEVICE, program,
				      insn_count);
	if (program_fd >= 0) {
		program_id = kc_bpf_prog_id(program_fd);
		kc_log_debug("device filter: the pinned program %u", program_id);
	} else {
		program_fd = load_device_program(program, insn_count, err);
		if (program_fd < 0)
			return -1;
		if (kc_bpf_cache_put(KC_BPF_CACHE_DIR, "devices", program_fd, program, insn_count) < 0)
			kc_log_debug("device filter: not pinned in %s: %s", KC_BPF_CACHE_DIR, strerror(errno));
	}
	/* Already attached here (the same rules as before): it stays. */
	for (i = 0; i < old_count && program_id != 0; i++) {
		if (old_ids[i] == program_id)
			attached = true;
	}
	memset(&attr, 0, sizeof(attr));
	attr.target_fd = cgroup_fd;
	attr.attach_bpf_fd = program_fd;
	attr.attach_type = BPF_CGROUP_DEVICE;
	attr.attach_flags = BPF_F_ALLOW_MULTI;
	if (!attached && bpf_call(BPF_PROG_ATTACH, &attr) < 0)
		return kc_error_set(err, errno, "linux.resources.devices: attach the device filter to %s", dir);

	for (i = 0; i < old_count; i++) {
		cleanup_close int old_fd = -1;

		if (old_ids[i] == program_id)
			continue;
		memset(&attr, 0, sizeof(attr));
		attr.prog_id = old_ids[i];
		old_fd = bpf_call(BPF_PROG_GET_FD_BY_ID, &attr);
		if (old_fd < 0)
			continue;
		memset(&attr, 0, sizeof(attr));
		attr.target_fd = cgroup_fd;
		attr.attach_bpf_fd = old_fd;
		attr.attach_type = BPF_CGROUP_DEVICE;
		if (bpf_call(BPF_PROG_DETACH, &attr) < 0)
			return kc_error_set(err, errno, "linux.resources.devices: detach the previous device filter");
	}
	return 0;
}
