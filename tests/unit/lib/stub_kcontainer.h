/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See stub_kcontainer.c. */
#ifndef KCRUN_TEST_STUB_KCONTAINER_H
#define KCRUN_TEST_STUB_KCONTAINER_H

#include "src/lib/kcontainer.h"

/* The netns kc_container_socket() creates sockets in (-1: fail, EBADF). */
extern int stub_container_netns_fd;

#endif
