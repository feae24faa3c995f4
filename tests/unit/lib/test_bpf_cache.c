/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the pinned BPF program cache (src/lib/bpf_cache.c): the
 * SHA-1 behind the pin names (the kernel's program tag) against known
 * answers, and a directory that is not bpffs never used or made.  The
 * pinning itself needs bpffs and is tested in the guest
 * (tests/bats/devices-cache.bats). */
#include "tap.h"
#include "src/lib/bpf_cache.h"
#include "src/lib/cgroup_devices.h"

#include <errno.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static int hex_equals(const uint8_t *bytes, size_t len, const char *hex)
{
	char buf[64];
	size_t i;

	for (i = 0; i < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", bytes[i]);
	return strcmp(buf, hex) == 0;
}

void test_bpf_cache(void)
{
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	kc_error_t err = NULL;
	struct kc_device_rule *rules = NULL;
	struct oci_device_cgroup deny_all = { .allow = false, .access = "rwm" };
	struct oci_resources resources = { .devices = &deny_all, .devices_len = 1 };
	struct oci_linux linux_ = { .resources = &resources };
	void *program = NULL;
	size_t n = 0, count = 0;
	char *million = malloc(1000000);
	char dir[] = "/tmp/kc-bpf-cache.XXXXXX", sub[64];
	uint8_t digest[20], tag[8];
	struct stat st;

	kc_sha1("", 0, digest);
	TAP_OK(hex_equals(digest, 20, "da39a3ee5e6b4b0d3255bfef95601890afd80709"), "bpf cache: SHA-1 of \"\"");
	kc_sha1("abc", 3, digest);
	TAP_OK(hex_equals(digest, 20, "a9993e364706816aba3e25717850c26c9cd0d89d"), "bpf cache: SHA-1 of \"abc\"");
	kc_sha1(two_blocks, strlen(two_blocks), digest);
	TAP_OK(hex_equals(digest, 20, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
	       "bpf cache: SHA-1 of 56 bytes (the length goes into a second block)");
	if (million)
		memset(million, 'a', 1000000);
	if (million)
		kc_sha1(million, 1000000, digest);
	TAP_OK(million && hex_equals(digest, 20, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"),
	       "bpf cache: SHA-1 of a million 'a's");
	free(million);

	/* The tag the guest kernel reported for the busybox bundle's filter
	 * (deny all, then runc's defaults): tests/bats/devices-cache.bats
	 * compares kcrun's pin name with the kernel's tag on every run. */
	TAP_CALL_OK(kc_cgroup_device_rules(&linux_, &rules, &n, &err) < 0 ? -1 :
		    kc_cgroup_device_program(rules, n, &program, &count, &err), err,
		    "bpf cache: the default device filter");
	if (program)
		kc_bpf_prog_tag(program, count, tag);
	TAP_OK(program && hex_equals(tag, 8, "7e5a38378ef6dc7c"),
	       "bpf cache: its tag is the kernel's (bpf_prog_calc_tag)");

	/* Not bpffs: nothing is looked up, pinned or made. */
	if (mkdtemp(dir) == NULL) {
		TAP_OK(0, "bpf cache: a tmpfs directory is not used (mkdtemp: %s)", strerror(errno));
		TAP_OK(0, "bpf cache: nothing is made outside bpffs");
	} else {
		int fd;

		chmod(dir, 0700);
		errno = 0;
		fd = program ? kc_bpf_cache_get(dir, "devices", BPF_PROG_TYPE_CGROUP_DEVICE, program, count) : 0;
		TAP_OK(fd == -1 && errno == ENOENT, "bpf cache: a directory that is not bpffs is not used (%d, %s)",
		       fd, strerror(errno));
		snprintf(sub, sizeof(sub), "%s/kcrun", dir);
		fd = program ? kc_bpf_cache_put(sub, "devices", 0, program, count) : 0;
		TAP_OK(fd == -1 && stat(sub, &st) < 0 && errno == ENOENT,
		       "bpf cache: no pin directory is made outside bpffs");
		rmdir(sub);
		rmdir(dir);
	}
	free(program);
	free(rules);
}
