/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of procfs.c: runc's checkProcMount rules for mounts[] and the
 * check that a write meant for procfs lands in procfs (CVE-2019-16884). */
#include "tap.h"
#include "src/lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static void mount_ok(const char *dest, const char *type, bool bind, const char *source,
		     const char *why)
{
	kc_error_t err = NULL;

	TAP_CALL_OK(kc_procfs_check_mount(0, dest, type, bind, source, -1, &err), err,
		    "mount at %s (%s): accepted, %s", dest, type ? type : "bind", why);
}

static void mount_refused(const char *dest, const char *type, bool bind, const char *source,
			  const char *needle)
{
	kc_error_t err = NULL;

	TAP_CALL_FAILS(kc_procfs_check_mount(3, dest, type, bind, source, -1, &err), err, needle,
		       "mount at %s (%s): refused with \"%s\"", dest, type ? type : "bind", needle);
}

void test_procfs(void)
{
	kc_error_t err = NULL;
	char dir[] = "/tmp/kcrun-procfs.XXXXXX";
	int fd;

	mount_ok("/proc", "proc", false, "proc", "procfs itself");
	mount_refused("/proc/sys/net", "proc", false, "proc", "because it is inside /proc");
	mount_ok("/proc/.", "proc", false, "proc", "procfs itself, spelled oddly");
	mount_ok("/tmp", "tmpfs", false, "tmpfs", "outside /proc");
	mount_ok("/procfoo", "bind", true, "/tmp", "a name that only starts with proc");
	mount_ok("/proc/meminfo", "bind", true, "/tmp", "a file lxcfs emulates");
	mount_ok("/proc/./sys/../cpuinfo", "bind", true, "/tmp", "lxcfs file, spelled oddly");
	mount_ok("/proc", "bind", true, "/proc", "a bind of a procfs");
	mount_refused("/proc", "bind", true, "/tmp",
		      "mounts[3].destination: \"/proc\" cannot be mounted because it is not of type proc");
	mount_refused("//proc/.", "sysfs", false, "sysfs", "is not of type proc");
	mount_ok("/proc/acpi", "tmpfs", false, "tmpfs", "a tmpfs hides, it cannot fake (runc)");
	mount_refused("/dev/../proc", "bind", true, "/tmp", "is not of type proc");
	mount_refused("/proc/sys/kernel", "bind", true, "/tmp", "because it is inside /proc");
	mount_refused("proc/self/attr", "mqueue", false, "mqueue", "inside /proc");

	/* a destination that resolves (a symlink in the image) into a procfs */
	fd = open("/proc/self", O_PATH | O_DIRECTORY | O_CLOEXEC);
	TAP_CALL_FAILS(kc_procfs_check_mount(1, "/innocent", "bind", true, "/tmp", fd, &err), err,
		       "inside /proc", "a destination that resolves into procfs is inside /proc");
	if (fd >= 0)
		close(fd);

	fd = kc_procfs_open("/proc/self/comm", O_RDONLY);
	TAP_OK(fd >= 0, "kc_procfs_open opens a procfs file");
	if (fd >= 0)
		close(fd);
	if (mkdtemp(dir)) {
		char file[64];

		snprintf(file, sizeof(file), "%s/attr", dir);
		close(open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
		errno = 0;
		fd = kc_procfs_open(file, O_WRONLY);
		TAP_OK(fd < 0 && errno == EXDEV, "a file that is not on procfs is refused (EXDEV)");
		if (fd >= 0)
			close(fd);
		unlink(file);
		rmdir(dir);
	}
}
