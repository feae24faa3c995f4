/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mounts[].options: what the options of one entry say (oci-spec/names.c's
 * table), and the mount attributes they set on a detached tree. */
#ifndef KCRUN_MOUNT_OPTS_H
#define KCRUN_MOUNT_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "oci-spec/spec.h"

struct kc_mount_opts {
	bool bind, recursive;
	bool tmpcopyup; /* a tmpfs starts with a copy of what it covers (copyup.h) */
	/* attr_set/attr_clr: the top mount only (runc 1.1: rbind,ro leaves
	 * submounts as they are); attr_rset/attr_rclr: every mount of the
	 * tree (the r* options: rro, rnosuid, rdev, ratime...), which also
	 * count for the top mount, in the order the options come */
	uint64_t attr_set, attr_clr;
	uint64_t attr_rset, attr_rclr;
	uint64_t propagation;
	bool rec_propagation;
	/* filesystem options for fsconfig, "key" or "key=value" */
	const char **data;
	size_t data_len;
};

/* Reads mounts[index].options into *o (released by kc_mount_opts_release,
 * also on failure).  idmap and ridmap are refused: kcrun makes no
 * idmapped mounts, and a mount without its mapping would show the wrong
 * owners. */
int kc_mount_opts_parse(const struct oci_mount *m, size_t index, struct kc_mount_opts *o,
			kc_error_t *err);
void kc_mount_opts_release(struct kc_mount_opts *o);

/* mount_setattr of set/clr on the mount mfd (a detached tree, or one of the
 * caller's namespace) and, recursive, every mount below it; `what` names it
 * in the error.  Nothing to do when both are 0. */
int kc_mount_set_attrs(int mfd, const char *what, uint64_t set, uint64_t clr, bool recursive,
		       kc_error_t *err);

/* The attributes the options give a detached tree: the r* ones on every
 * mount of it, then the top mount's. */
int kc_mount_opts_apply(int mfd, const char *what, const struct kc_mount_opts *o,
			kc_error_t *err);

#endif
