/* SPDX-License-Identifier: GPL-2.0-or-later */
/* See unsupported.h. */
#include "unsupported.h"

#include "mount_opts.h"

static int refuse_idmapped_mounts(const struct oci_spec *spec, kc_error_t *err)
{
	size_t i;

	for (i = 0; i < spec->mounts_len; i++) {
		const struct oci_mount *m = &spec->mounts[i];
		struct kc_mount_opts o;

		if (m->uid_mappings_len)
			return kc_error_set(err, 0, "mounts[%zu].uidMappings: idmapped mounts are "
						    "not supported by kcrun", i);
		if (m->gid_mappings_len)
			return kc_error_set(err, 0, "mounts[%zu].gidMappings: idmapped mounts are "
						    "not supported by kcrun", i);
		/* the idmap and ridmap options */
		if (kc_mount_opts_parse(m, i, &o, err) < 0)
			return -1;
		kc_mount_opts_release(&o);
	}
	return 0;
}

int kc_refuse_unsupported(const struct oci_spec *spec, kc_error_t *err)
{
	if (refuse_idmapped_mounts(spec, err) < 0)
		return -1;
	if (spec->linux_ && spec->linux_->intel_rdt)
		return kc_error_set(err, 0, "linux.intelRdt: Intel RDT is not supported by kcrun "
					    "(no resctrl support)");
	return 0;
}
