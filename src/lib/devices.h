/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device nodes and /dev links of the container, made through the container
 * fd as dirfd: the default devices (null zero full random urandom tty) when
 * /dev is a fresh mount, linux.devices, and the /dev/fd, /dev/std*,
 * /dev/ptmx symlinks. */
#ifndef KCRUN_DEVICES_H
#define KCRUN_DEVICES_H

#include <stdbool.h>

#include "error.h"
#include "oci-spec/spec.h"

/* dev_is_tmpfs: /dev was mounted by mounts[] (default devices + links);
 * userns: the container has its own user namespace, where device nodes
 * of its filesystems cannot be opened: bind the host's nodes instead. */
int kc_devices_setup(int cfd, const struct oci_spec *spec, bool dev_is_tmpfs, bool userns,
		     kc_error_t *err);

#endif
