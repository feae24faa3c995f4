/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The pinned BPF program cache: see bpf_cache.h. */
#include "bpf_cache.h"
#include "cleanup.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

static uint32_t rol32(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const uint8_t block[64])
{
	uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
		       (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
	for (; i < 80; i++)
		w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (i = 0; i < 80; i++) {
		uint32_t f, k, t;

		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5A827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ED9EBA1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8F1BBCDC;
		} else {
			f = b ^ c ^ d;
			k = 0xCA62C1D6;
		}
		t = rol32(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol32(b, 30);
		b = a;
		a = t;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

void kc_sha1(const void *data, size_t len, uint8_t digest[20])
{
	uint32_t h[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0 };
	const uint8_t *p = data;
	uint8_t block[64];
	uint64_t bits = (uint64_t)len * 8;
	size_t rest;
	int i;

	for (; len >= 64; len -= 64, p += 64)
		sha1_block(h, p);
	rest = len;
	memcpy(block, p, rest);
	block[rest++] = 0x80;
	if (rest > 56) {
		memset(block + rest, 0, 64 - rest);
		sha1_block(h, block);
		rest = 0;
	}
	memset(block + rest, 0, 56 - rest);
	for (i = 0; i < 8; i++)
		block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha1_block(h, block);
	for (i = 0; i < 20; i++)
		digest[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

void kc_bpf_prog_tag(const void *insns, size_t insn_count, uint8_t tag[8])
{
	uint8_t digest[20];

	kc_sha1(insns, insn_count * sizeof(struct bpf_insn), digest);
	memcpy(tag, digest, 8);
}

static int bpf_call(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* dir, when it is a bpffs directory only its owner (the caller's euid)
 * can reach; make asks for it to be made first. */
static int usable_dir(const char *dir, bool make)
{
	cleanup_close int fd = -1;
	struct statfs fs;
	struct stat st;

	if (make) {
		/* never a stray directory on something that is not bpffs */
		char parent[512];
		char *slash;

		if (snprintf(parent, sizeof(parent), "%s", dir) >= (int)sizeof(parent) ||
		    (slash = strrchr(parent, '/')) == NULL) {
			errno = ENAMETOOLONG;
			return -1;
		}
		*slash = '\0';
		if (statfs(parent[0] ? parent : "/", &fs) < 0)
			return -1;
		if ((unsigned long)fs.f_type != BPF_FS_MAGIC) {
			errno = ENOENT;
			return -1;
		}
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstatfs(fd, &fs) < 0 || fstat(fd, &st) < 0)
		return -1;
	if ((unsigned long)fs.f_type != BPF_FS_MAGIC || st.st_uid != geteuid() ||
	    (st.st_mode & 077) != 0) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

static int pin_path(char *path, size_t size, const char *dir, const char *prefix, const void *insns,
		    size_t insn_count)
{
	uint8_t tag[8];
	int len;

	kc_bpf_prog_tag(insns, insn_count, tag);
	len = snprintf(path, size, "%s/%s-%02x%02x%02x%02x%02x%02x%02x%02x", dir, prefix, tag[0], tag[1],
		       tag[2], tag[3], tag[4], tag[5], tag[6], tag[7]);
	if (len < 0 || (size_t)len >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Whether the program behind fd is (prog_type, insns): its type, the
 * kernel's tag, and its translated instructions compared in full. */
static bool same_program(int fd, uint32_t prog_type, const void *insns, size_t insn_count)
{
	size_t size = insn_count * sizeof(struct bpf_insn);
	cleanup_free void *xlated = malloc(size ? size : 1);
	struct bpf_prog_info info;
	union bpf_attr attr;
	uint8_t tag[8];

	if (xlated == NULL)
		return false;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = (uint32_t)size;
	info.xlated_prog_insns = (uintptr_t)xlated;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (bpf_call(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0)
		return false;
	kc_bpf_prog_tag(insns, insn_count, tag);
	return info.type == prog_type && memcmp(info.tag, tag, sizeof(tag)) == 0 &&
	       info.xlated_prog_len == size && info.xlated_prog_insns == (uintptr_t)xlated &&
	       memcmp(xlated, insns, size) == 0;
}

uint32_t kc_bpf_prog_id(int fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	return bpf_call(BPF_OBJ_GET_INFO_BY_FD, &attr) < 0 ? 0 : info.id;
}

int kc_bpf_cache_get(const char *dir, const char *prefix, uint32_t prog_type, const void *insns,
		     size_t insn_count)
{
	char path[512];
	union bpf_attr attr;
	int fd;

	if (usable_dir(dir, false) < 0 || pin_path(path, sizeof(path), dir, prefix, insns, insn_count) < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uintptr_t)path;
	fd = bpf_call(BPF_OBJ_GET, &attr);
	if (fd < 0)
		return -1;
	if (!same_program(fd, prog_type, insns, insn_count)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

int kc_bpf_cache_put(const char *dir, const char *prefix, int prog_fd, const void *insns,
		     size_t insn_count)
{
	char path[512];
	union bpf_attr attr;

	if (usable_dir(dir, true) < 0 || pin_path(path, sizeof(path), dir, prefix, insns, insn_count) < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.pathname = (uintptr_t)path;
	attr.bpf_fd = (uint32_t)prog_fd;
	if (bpf_call(BPF_OBJ_PIN, &attr) < 0 && errno != EEXIST)
		return -1;
	return 0;
}
