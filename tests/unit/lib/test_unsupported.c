/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of unsupported.c: the fields kcrun does not apply are
 * refused, each with its JSON path; a config without them passes. */
#include "tap.h"
#include "src/lib/unsupported.h"

void test_unsupported(void)
{
	char *bind_opts[] = { "rbind", "rro", "rnosuid" };
	char *idmap_opts[] = { "bind", "idmap" };
	struct oci_id_mapping map = { .container_id = 0, .host_id = 100000, .size = 65536 };
	struct oci_mount mounts[2] = {
		{ .destination = "/proc", .type = "proc", .source = "proc" },
		{ .destination = "/data", .type = "bind", .source = "/srv",
		  .options = bind_opts, .options_len = 3 },
	};
	struct oci_intel_rdt rdt = { 0 };
	struct oci_linux linux_ = { 0 };
	struct oci_spec spec = { .mounts = mounts, .mounts_len = 2, .linux_ = &linux_ };
	kc_error_t err = NULL;

	TAP_CALL_OK(kc_refuse_unsupported(&spec, &err), err,
		    "unsupported: a config with rro/rnosuid binds and no intelRdt passes");

	mounts[1].uid_mappings = &map;
	mounts[1].uid_mappings_len = 1;
	TAP_CALL_FAILS(kc_refuse_unsupported(&spec, &err), err,
		       "mounts[1].uidMappings: idmapped mounts are not supported by kcrun",
		       "unsupported: mounts[1].uidMappings refused with its path");
	mounts[1].uid_mappings_len = 0;
	mounts[1].gid_mappings = &map;
	mounts[1].gid_mappings_len = 1;
	TAP_CALL_FAILS(kc_refuse_unsupported(&spec, &err), err,
		       "mounts[1].gidMappings: idmapped mounts are not supported by kcrun",
		       "unsupported: mounts[1].gidMappings refused with its path");
	mounts[1].gid_mappings_len = 0;

	mounts[1].options = idmap_opts;
	mounts[1].options_len = 2;
	TAP_CALL_FAILS(kc_refuse_unsupported(&spec, &err), err,
		       "mounts[1].options[1]: \"idmap\": idmapped mounts are not supported by kcrun",
		       "unsupported: the idmap option refused, naming mounts[1].options[1]");
	mounts[1].options = bind_opts;
	mounts[1].options_len = 3;

	linux_.intel_rdt = &rdt;
	TAP_CALL_FAILS(kc_refuse_unsupported(&spec, &err), err,
		       "linux.intelRdt: Intel RDT is not supported by kcrun",
		       "unsupported: linux.intelRdt refused, even empty");
}
