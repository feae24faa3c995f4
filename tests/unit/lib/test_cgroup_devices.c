/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the cgroup v2 device filter: the rules kcrun derives from
 * the spec, and the hand-assembled eBPF program run through a small
 * interpreter (nothing is loaded into the host kernel). */
#include "tap.h"
#include "src/lib/cgroup_devices.h"

#include <linux/bpf.h>
#include <stdint.h>

/* Runs the subset of eBPF the generator emits.  Returns r0, -1 for an
 * instruction it does not know or a jump out of the program, -2 for an
 * instruction with reserved fields set. */
static int64_t run_program(const struct bpf_insn *program, size_t count, char type,
			   uint32_t major, uint32_t minor, uint32_t access)
{
	struct bpf_cgroup_dev_ctx ctx = {
		.access_type = (access << 16) | (type == 'b' ? BPF_DEVCG_DEV_BLOCK : BPF_DEVCG_DEV_CHAR),
		.major = major,
		.minor = minor,
	};
	uint64_t reg[11] = { 0 };
	size_t pc = 0;

	reg[1] = (uintptr_t)&ctx;
	while (pc < count) {
		const struct bpf_insn *insn = &program[pc++];
		uint64_t *dst = &reg[insn->dst_reg];
		uint64_t src = BPF_SRC(insn->code) == BPF_X ? reg[insn->src_reg] : (uint64_t)(int64_t)insn->imm;

		/* The kernel's verifier refuses non-zero reserved fields. */
		if ((BPF_CLASS(insn->code) == BPF_ALU || BPF_CLASS(insn->code) == BPF_ALU64) &&
		    (insn->off != 0 || (BPF_SRC(insn->code) == BPF_K && insn->src_reg != 0) ||
		     (BPF_SRC(insn->code) == BPF_X && insn->imm != 0)))
			return -2;

		switch (insn->code) {
		case BPF_LDX | BPF_MEM | BPF_W:
			*dst = *(const uint32_t *)(uintptr_t)(reg[insn->src_reg] + insn->off);
			break;
		case BPF_ALU | BPF_AND | BPF_K:
			*dst = (uint32_t)(*dst & src);
			break;
		case BPF_ALU | BPF_RSH | BPF_K:
			*dst = (uint32_t)*dst >> insn->imm;
			break;
		case BPF_ALU | BPF_MOV | BPF_X:
			*dst = (uint32_t)src;
			break;
		case BPF_ALU64 | BPF_MOV | BPF_K:
			*dst = src;
			break;
		case BPF_JMP | BPF_JNE | BPF_K:
		case BPF_JMP | BPF_JNE | BPF_X:
			if (*dst != src)
				pc += insn->off;
			break;
		case BPF_JMP | BPF_EXIT:
			return (int64_t)reg[0];
		default:
			return -1;
		}
	}
	return -1;
}

#define R BPF_DEVCG_ACC_READ
#define W BPF_DEVCG_ACC_WRITE
#define M BPF_DEVCG_ACC_MKNOD

void test_cgroup_devices(void)
{
	kc_error_t err = NULL;
	struct oci_device_cgroup spec_rules[2] = {
		{ .allow = false, .access = "rwm" },
		{ .allow = true, .type = "c", .has_major = true, .major = 1, .has_minor = true, .minor = 11,
		  .access = "ra" }, /* letters other than r, w, m are ignored, as runc does */
	};
	struct oci_device nodes[2] = {
		{ .type = "c", .path = "/dev/tty1", .major = 4, .minor = 1 },
		{ .type = "p", .path = "/dev/fifo" },
	};
	struct oci_resources resources = { .devices = spec_rules, .devices_len = 2 };
	struct oci_linux linux_ = { .resources = &resources, .devices = nodes, .devices_len = 2 };
	struct kc_device_rule *rules = NULL;
	void *program = NULL;
	size_t n = 0, count = 0;

	TAP_CALL_OK(kc_cgroup_device_rules(&linux_, &rules, &n, &err), err, "devices: rules from the spec");
	TAP_OK(n == 2 + 11, "devices: spec rules + runc's defaults, no rule for linux.devices (%zu)", n);
	TAP_CALL_OK(kc_cgroup_device_program(rules, n, &program, &count, &err), err,
		    "devices: program generated (%zu instructions)", count);
	if (program) {
		const struct bpf_insn *insns = program;

		TAP_OK(run_program(insns, count, 'c', 1, 3, R | W) == 1, "devices: /dev/null rw allowed (default)");
		TAP_OK(run_program(insns, count, 'c', 1, 11, R) == 1, "devices: c 1:11 r allowed by the spec");
		TAP_OK(run_program(insns, count, 'c', 1, 11, W) == 0, "devices: c 1:11 w denied (rule says r)");
		TAP_OK(run_program(insns, count, 'c', 1, 11, R | W) == 0,
		       "devices: c 1:11 rw denied (every bit must be allowed)");
		TAP_OK(run_program(insns, count, 'b', 8, 0, R) == 0, "devices: b 8:0 r denied (deny all)");
		TAP_OK(run_program(insns, count, 'b', 8, 0, M) == 1, "devices: mknod of any block node allowed");
		TAP_OK(run_program(insns, count, 'c', 4, 1, W) == 0,
		       "devices: a linux.devices node is denied when no rule allows it (as runc)");
		TAP_OK(run_program(insns, count, 'c', 136, 7, R | W) == 1, "devices: /dev/pts/N allowed");
		TAP_OK(run_program(insns, count, 'c', 10, 229, R) == 0, "devices: c 10:229 denied");
		TAP_OK(insns[count - 1].code == (BPF_JMP | BPF_EXIT), "devices: the program ends with exit");
	}
	free(program);
	free(rules);

	/* Last match wins, and an unconditional rule ends the program (the
	 * verifier refuses unreachable instructions). */
	{
		struct kc_device_rule custom[3] = {
			{ 'a', -1, -1, R | W | M, false },
			{ 'c', 1, -1, R | W | M, true },
			{ 'c', 1, 5, W, false },
		};
		struct kc_device_rule allow_all = { 'a', -1, -1, R | W | M, true };

		kc_cgroup_device_program(custom, 3, &program, &count, &err);
		TAP_OK(run_program(program, count, 'c', 1, 5, W) == 0 &&
		       run_program(program, count, 'c', 1, 5, R) == 1 &&
		       run_program(program, count, 'c', 2, 5, R) == 0,
		       "devices: the last matching rule decides");
		/* the first rule (deny everything) is unconditional: no epilogue */
		TAP_OK(((struct bpf_insn *)program)[count - 2].code == (BPF_ALU64 | BPF_MOV | BPF_K) &&
		       ((struct bpf_insn *)program)[count - 2].imm == 0, "devices: unconditional rule closes the program");
		free(program);
		kc_cgroup_device_program(&allow_all, 1, &program, &count, &err);
		TAP_OK(count == 8 && run_program(program, count, 'b', 7, 7, R | W | M) == 1,
		       "devices: allow-all alone is prologue + return 1 (%zu insns)", count);
		free(program);
		kc_cgroup_device_program(NULL, 0, &program, &count, &err);
		TAP_OK(run_program(program, count, 'c', 1, 3, R) == 0, "devices: no rules at all denies");
		free(program);
	}

	spec_rules[1].type = "x";
	TAP_CALL_FAILS(kc_cgroup_device_rules(&linux_, &rules, &n, &err), err,
		       "linux.resources.devices[1].type: \"x\"", "devices: a bad type names the rule");
	spec_rules[1].type = "c";
	spec_rules[1].access = "rwx";
	TAP_CALL_OK(kc_cgroup_device_rules(&linux_, &rules, &n, &err), err,
		    "devices: an access with other letters is taken (runc's \"rwa\")");
	TAP_OK(rules[1].access == (R | W), "devices: \"rwx\" is read and write");
	free(rules);
	rules = NULL;
}
