/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See mount_opts.h. */
#include "mount_opts.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <stdlib.h>
#include <string.h>

#include "kcontainer.h"

/* A MOUNT_ATTR_* flag set (or, clear, cleared) in the pair set, clr. */
static void set_flag(uint64_t *set, uint64_t *clr, uint64_t flag, bool clear)
{
	if (clear) {
		*set &= ~flag;
		*clr |= flag;
	} else {
		*set |= flag;
		*clr &= ~flag;
	}
}

/* An access-time mode: the modes are an enum inside MOUNT_ATTR__ATIME, so
 * mount_setattr wants all of MOUNT_ATTR__ATIME cleared to change it. */
static void set_atime(uint64_t *set, uint64_t *clr, uint64_t mode)
{
	*set = (*set & ~(uint64_t)MOUNT_ATTR__ATIME) | mode;
	*clr |= MOUNT_ATTR__ATIME;
}

int kc_mount_opts_parse(const struct oci_mount *m, size_t index, struct kc_mount_opts *o,
			kc_error_t *err)
{
	size_t i;

	memset(o, 0, sizeof(*o));
	o->data = calloc(m->options_len + 1, sizeof(char *));
	if (o->data == NULL)
		return kc_error_set(err, ENOMEM, "mount options");
	if (m->type && strcmp(m->type, "bind") == 0)
		o->bind = true;
	for (i = 0; i < m->options_len; i++) {
		const struct oci_mount_option *opt = oci_mount_option_find(m->options[i]);

		switch (opt ? opt->kind : OCI_MOUNT_OPT_DATA) {
		case OCI_MOUNT_OPT_BIND:
			o->bind = true;
			o->recursive |= opt->recursive;
			break;
		case OCI_MOUNT_OPT_ATTR:
			set_flag(&o->attr_set, &o->attr_clr, opt->value, opt->clear);
			if (opt->recursive)
				set_flag(&o->attr_rset, &o->attr_rclr, opt->value, opt->clear);
			break;
		case OCI_MOUNT_OPT_ATIME:
			set_atime(&o->attr_set, &o->attr_clr, opt->value);
			if (opt->recursive)
				set_atime(&o->attr_rset, &o->attr_rclr, opt->value);
			break;
		case OCI_MOUNT_OPT_PROPAGATION:
			o->propagation = opt->value;
			o->rec_propagation = opt->recursive;
			break;
		case OCI_MOUNT_OPT_IGNORED:
			break;
		case OCI_MOUNT_OPT_TMPCOPYUP:
			o->tmpcopyup = true;
			break;
		case OCI_MOUNT_OPT_IDMAP:
			kc_mount_opts_release(o);
			return kc_error_set(err, 0, "mounts[%zu].options[%zu]: \"%s\": idmapped mounts "
						    "are not supported by kcrun", index, i, m->options[i]);
		case OCI_MOUNT_OPT_DATA:
			o->data[o->data_len++] = m->options[i];
			break;
		}
	}
	return 0;
}

void kc_mount_opts_release(struct kc_mount_opts *o)
{
	free(o->data);
	o->data = NULL;
	o->data_len = 0;
}

int kc_mount_set_attrs(int mfd, const char *what, uint64_t set, uint64_t clr, bool recursive,
		       kc_error_t *err)
{
	struct kc_mount_attr attr = {.attr_set = set, .attr_clr = clr};

	if (set == 0 && clr == 0)
		return 0;
	if (kc_mount_setattr(mfd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &attr,
			     sizeof(attr)) < 0)
		return kc_error_set(err, errno, "mount_setattr `%s`", what);
	return 0;
}

int kc_mount_opts_apply(int mfd, const char *what, const struct kc_mount_opts *o,
			kc_error_t *err)
{
	if (kc_mount_set_attrs(mfd, what, o->attr_rset, o->attr_rclr, true, err) < 0)
		return -1;
	return kc_mount_set_attrs(mfd, what, o->attr_set, o->attr_clr, false, err);
}
