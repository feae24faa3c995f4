/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpf-query: what bpftool would say about device filters, for
 * tests/bats/devices-cache.bats (the guest has no bpftool).
 *   bpf-query cgroup DIR   one line per BPF_CGROUP_DEVICE program attached
 *                          to the cgroup DIR: "<prog id> <tag>"
 *   bpf-query pin PATH     the same line for the program pinned at PATH
 * The tag is the kernel's (bpf_prog_info.tag, 16 hex digits).  Exits 1 on
 * any error, with the reason on stderr. */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int bpf_call(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int print_prog(int fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	int i;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (bpf_call(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0) {
		perror("bpf-query: BPF_OBJ_GET_INFO_BY_FD");
		return -1;
	}
	printf("%u ", info.id);
	for (i = 0; i < BPF_TAG_SIZE; i++)
		printf("%02x", info.tag[i]);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	union bpf_attr attr;
	uint32_t ids[64], i;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: bpf-query cgroup DIR | bpf-query pin PATH\n");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	if (strcmp(argv[1], "pin") == 0) {
		attr.pathname = (uintptr_t)argv[2];
		fd = bpf_call(BPF_OBJ_GET, &attr);
		if (fd < 0) {
			fprintf(stderr, "bpf-query: BPF_OBJ_GET %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
		return print_prog(fd) < 0;
	}
	fd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "bpf-query: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	attr.query.target_fd = (uint32_t)fd;
	attr.query.attach_type = BPF_CGROUP_DEVICE;
	attr.query.prog_ids = (uintptr_t)ids;
	attr.query.prog_cnt = 64;
	if (bpf_call(BPF_PROG_QUERY, &attr) < 0) {
		fprintf(stderr, "bpf-query: BPF_PROG_QUERY %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < attr.query.prog_cnt && i < 64; i++) {
		union bpf_attr get;
		int prog_fd;

		memset(&get, 0, sizeof(get));
		get.prog_id = ids[i];
		prog_fd = bpf_call(BPF_PROG_GET_FD_BY_ID, &get);
		if (prog_fd < 0 || print_prog(prog_fd) < 0) {
			fprintf(stderr, "bpf-query: program %u: %s\n", ids[i], strerror(errno));
			return 1;
		}
		close(prog_fd);
	}
	return 0;
}
