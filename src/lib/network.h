/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container's network namespace, configured from outside with
 * rtnetlink through container_socket() (no setns into the container).
 *
 * Parent, during create, after container_create() and before init is
 * forked (the runtime engineer calls it once the container fd exists):
 *   kc_network_setup(cfd, spec)
 *     - only when linux.namespaces has a "network" entry without a path
 *       (a new netns); with a path, or without a network entry, it does
 *       nothing;
 *     - brings `lo` up in the container's netns;
 *     - linux.netDevices {"<host name>": {"name": "<name>"}}: moves each
 *       host device into the container's netns (RTM_NEWLINK with
 *       IFLA_NET_NS_FD on a socket in the runtime's netns; the netns fd
 *       comes from ioctl(SIOCGSKNS) on a container socket), renames it to
 *       `name` (absent: keeps its name), re-adds its permanent addresses
 *       (moving a device drops them; the spec says they are preserved) and
 *       brings it up again if it was up on the host.
 * The sockets come from kc_container_socket() only (kcontainer.h).
 * Nothing is undone on failure: when the container's netns dies the kernel
 * returns physical devices to the initial netns (virtual ones are deleted).
 *
 * Errors name the device: `linux.netDevices."eth-host": move into the
 * container's network namespace: <strerror>`.
 */
#ifndef KCRUN_NETWORK_H
#define KCRUN_NETWORK_H

#include "error.h"
#include "oci-spec/spec.h"

int kc_network_setup(int container_fd, const struct oci_spec *spec, kc_error_t *err);

#endif
