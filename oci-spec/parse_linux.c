/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.json `linux` -> struct oci_linux (resources and seccomp have their
 * own files). */
#include "spec.h"
#include "parse_ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define IFNAMSIZ_ 16	    /* IFNAMSIZ from <net/if.h>, including the NUL */
#define MAX_ID_MAPPINGS 340 /* the kernel's limit on uid_map/gid_map lines */

static int parse_namespace(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_namespace *ns = dst;
	char *type = NULL;
	int rc;

	if (oci_get_string(ctx, obj, "type", true, 64, &type) < 0)
		return -1;
	rc = oci_namespace_type_from_name(type, &ns->type);
	if (rc < 0)
		oci_ctx_fail(ctx, "type", "unknown namespace \"%s\"", type);
	free(type);
	if (rc < 0)
		return -1;
	if (oci_get_string(ctx, obj, "path", false, OCI_PATH_MAX_LEN, &ns->path) < 0)
		return -1;
	if (ns->path && oci_check_absolute(ctx, "path", ns->path) < 0)
		return -1;
	return 0;
}

static int check_namespaces(struct parse_ctx *ctx, const struct oci_linux *linux_)
{
	size_t seen[OCI_NS__COUNT];
	size_t i, mark;
	int rc;

	for (i = 0; i < OCI_NS__COUNT; i++)
		seen[i] = (size_t)-1;
	for (i = 0; i < linux_->namespaces_len; i++) {
		enum oci_namespace_type type = linux_->namespaces[i].type;

		if (seen[type] == (size_t)-1) {
			seen[type] = i;
			continue;
		}
		mark = oci_ctx_enter_key(ctx, "namespaces");
		if (mark == (size_t)-1)
			return -1;
		if (oci_ctx_enter_index(ctx, i) == (size_t)-1)
			return -1;
		rc = oci_ctx_fail(ctx, "type",
				  "duplicate namespace \"%s\" (also in namespaces[%zu])",
				  oci_namespace_type_name(type), seen[type]);
		oci_ctx_leave(ctx, mark);
		return rc;
	}
	return 0;
}

static bool ranges_overlap(uint32_t a, uint32_t b, uint32_t size_a, uint32_t size_b)
{
	return (uint64_t)a < (uint64_t)b + size_b && (uint64_t)b < (uint64_t)a + size_a;
}

/* The kernel refuses uid_map/gid_map with overlapping ranges on either side. */
static int check_id_mappings(struct parse_ctx *ctx, const char *key,
			     const struct oci_id_mapping *maps, size_t len)
{
	size_t i, j, mark;
	int rc = 0;

	if (len > MAX_ID_MAPPINGS)
		return oci_ctx_fail(ctx, key, "more than %d mappings", MAX_ID_MAPPINGS);
	for (i = 1; i < len; i++) {
		for (j = 0; j < i; j++) {
			const char *side;

			if (ranges_overlap(maps[i].container_id, maps[j].container_id, maps[i].size,
					   maps[j].size))
				side = "containerID";
			else if (ranges_overlap(maps[i].host_id, maps[j].host_id, maps[i].size,
						maps[j].size))
				side = "hostID";
			else
				continue;
			mark = oci_ctx_enter_key(ctx, key);
			if (mark == (size_t)-1 || oci_ctx_enter_index(ctx, i) == (size_t)-1)
				return -1;
			rc = oci_ctx_fail(ctx, NULL, "%s range overlaps %s[%zu]", side, key, j);
			oci_ctx_leave(ctx, mark);
			return rc;
		}
	}
	return rc;
}

static int parse_device(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_device *dev = dst;
	bool need_numbers;

	if (oci_get_string(ctx, obj, "type", true, 8, &dev->type) < 0)
		return -1;
	if (strcmp(dev->type, "c") != 0 && strcmp(dev->type, "b") != 0 &&
	    strcmp(dev->type, "u") != 0 && strcmp(dev->type, "p") != 0)
		return oci_ctx_fail(ctx, "type",
				    "unknown device type \"%s\" (expected c, b, u or p)",
				    dev->type);
	need_numbers = strcmp(dev->type, "p") != 0;
	if (oci_get_string(ctx, obj, "path", true, OCI_PATH_MAX_LEN, &dev->path) < 0 ||
	    oci_check_absolute(ctx, "path", dev->path) < 0 ||
	    oci_get_i64(ctx, obj, "major", need_numbers, NULL, &dev->major) < 0 ||
	    oci_get_i64(ctx, obj, "minor", need_numbers, NULL, &dev->minor) < 0 ||
	    oci_get_u32(ctx, obj, "fileMode", false, &dev->has_file_mode, &dev->file_mode) < 0 ||
	    oci_get_u32(ctx, obj, "uid", false, &dev->has_uid, &dev->uid) < 0 ||
	    oci_get_u32(ctx, obj, "gid", false, &dev->has_gid, &dev->gid) < 0)
		return -1;
	/* Podman sends the file type bits too (S_IFCHR | 0666): runc drops them. */
	if (dev->has_file_mode && (dev->file_mode & ~(uint32_t)(S_IFMT | 07777)) != 0)
		return oci_ctx_fail(ctx, "fileMode", "%u has bits beyond 0177777", dev->file_mode);
	return 0;
}

static int parse_intel_rdt(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_intel_rdt *rdt = dst;

	if (oci_get_string(ctx, obj, "closID", false, 4096, &rdt->clos_id) < 0 ||
	    oci_get_string(ctx, obj, "l3CacheSchema", false, 4096, &rdt->l3_cache_schema) < 0 ||
	    oci_get_string(ctx, obj, "memBwSchema", false, 4096, &rdt->mem_bw_schema) < 0 ||
	    oci_get_bool(ctx, obj, "enableCMT", false, NULL, &rdt->enable_cmt) < 0 ||
	    oci_get_bool(ctx, obj, "enableMBM", false, NULL, &rdt->enable_mbm) < 0)
		return -1;
	return 0;
}

static int parse_personality(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_personality *personality = dst;
	char *domain = NULL;
	int rc = 0;

	if (oci_get_string(ctx, obj, "domain", true, 64, &domain) < 0)
		return -1;
	if (strcmp(domain, "LINUX") == 0)
		personality->domain = OCI_PERSONALITY_LINUX;
	else if (strcmp(domain, "LINUX32") == 0)
		personality->domain = OCI_PERSONALITY_LINUX32;
	else
		rc = oci_ctx_fail(ctx, "domain", "unknown personality domain \"%s\"", domain);
	free(domain);
	if (rc < 0)
		return -1;
	return oci_get_strv(ctx, obj, "flags", 256, &personality->flags, &personality->flags_len);
}

static int parse_time_offset(struct parse_ctx *ctx, const char *key, const struct json_value *obj,
			     void *dst)
{
	struct oci_time_offset *offset = dst;

	offset->clock = strdup(key);
	if (offset->clock == NULL)
		return oci_ctx_fail(ctx, NULL, "out of memory");
	if (strcmp(key, "monotonic") != 0 && strcmp(key, "boottime") != 0)
		return oci_ctx_fail(ctx, NULL, "unknown clock (expected monotonic or boottime)");
	if (oci_get_i64(ctx, obj, "secs", false, NULL, &offset->secs) < 0 ||
	    oci_get_u32(ctx, obj, "nanosecs", false, NULL, &offset->nanosecs) < 0)
		return -1;
	if (offset->nanosecs >= 1000000000u)
		return oci_ctx_fail(ctx, "nanosecs", "%u is out of range (0..999999999)",
				    offset->nanosecs);
	return 0;
}

static int check_ifname(struct parse_ctx *ctx, const char *key, const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len >= IFNAMSIZ_)
		return oci_ctx_fail(ctx, key, "network device name \"%s\" must be 1 to %d bytes",
				    name, IFNAMSIZ_ - 1);
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strpbrk(name, "/: \t\n\r\v\f"))
		return oci_ctx_fail(ctx, key, "invalid network device name \"%s\"", name);
	return 0;
}

static int parse_net_device(struct parse_ctx *ctx, const char *key, const struct json_value *obj,
			    void *dst)
{
	struct oci_net_device *dev = dst;

	dev->host_name = strdup(key);
	if (dev->host_name == NULL)
		return oci_ctx_fail(ctx, NULL, "out of memory");
	if (check_ifname(ctx, NULL, key) < 0 ||
	    oci_get_string(ctx, obj, "name", false, 64, &dev->name) < 0)
		return -1;
	if (dev->name && check_ifname(ctx, "name", dev->name) < 0)
		return -1;
	return 0;
}

static const char *const propagation_modes[] = {
	"shared", "slave", "private", "unbindable", "rshared", "rslave", "rprivate", "runbindable",
};

int oci_parse_linux(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_linux *linux_ = dst;
	size_t i;

	if (oci_get_object_array(ctx, obj, "namespaces", sizeof(struct oci_namespace),
				 parse_namespace, (void **)&linux_->namespaces,
				 &linux_->namespaces_len) < 0 ||
	    check_namespaces(ctx, linux_) < 0)
		return -1;

	if (oci_get_object_array(ctx, obj, "uidMappings", sizeof(struct oci_id_mapping),
				 oci_parse_id_mapping, (void **)&linux_->uid_mappings,
				 &linux_->uid_mappings_len) < 0 ||
	    check_id_mappings(ctx, "uidMappings", linux_->uid_mappings,
			      linux_->uid_mappings_len) < 0 ||
	    oci_get_object_array(ctx, obj, "gidMappings", sizeof(struct oci_id_mapping),
				 oci_parse_id_mapping, (void **)&linux_->gid_mappings,
				 &linux_->gid_mappings_len) < 0 ||
	    check_id_mappings(ctx, "gidMappings", linux_->gid_mappings,
			      linux_->gid_mappings_len) < 0)
		return -1;

	if (oci_get_object_array(ctx, obj, "devices", sizeof(struct oci_device), parse_device,
				 (void **)&linux_->devices, &linux_->devices_len) < 0 ||
	    oci_get_string(ctx, obj, "cgroupsPath", false, OCI_PATH_MAX_LEN,
			   &linux_->cgroups_path) < 0 ||
	    oci_get_object(ctx, obj, "resources", false, sizeof(struct oci_resources),
			   oci_parse_resources, (void **)&linux_->resources) < 0)
		return -1;

	if (oci_get_string(ctx, obj, "rootfsPropagation", false, 64,
			   &linux_->rootfs_propagation) < 0)
		return -1;
	if (linux_->rootfs_propagation) {
		for (i = 0; i < sizeof(propagation_modes) / sizeof(propagation_modes[0]); i++)
			if (strcmp(linux_->rootfs_propagation, propagation_modes[i]) == 0)
				break;
		if (i == sizeof(propagation_modes) / sizeof(propagation_modes[0]))
			return oci_ctx_fail(ctx, "rootfsPropagation",
					    "unknown propagation mode \"%s\"",
					    linux_->rootfs_propagation);
	}

	if (oci_get_object(ctx, obj, "seccomp", false, sizeof(struct oci_seccomp),
			   oci_parse_seccomp, (void **)&linux_->seccomp) < 0 ||
	    oci_get_string_map(ctx, obj, "sysctl", &linux_->sysctl) < 0 ||
	    oci_get_strv(ctx, obj, "maskedPaths", OCI_PATH_MAX_LEN, &linux_->masked_paths,
			 &linux_->masked_paths_len) < 0 ||
	    oci_get_strv(ctx, obj, "readonlyPaths", OCI_PATH_MAX_LEN, &linux_->readonly_paths,
			 &linux_->readonly_paths_len) < 0 ||
	    oci_get_string(ctx, obj, "mountLabel", false, 4096, &linux_->mount_label) < 0 ||
	    oci_get_object(ctx, obj, "intelRdt", false, sizeof(struct oci_intel_rdt),
			   parse_intel_rdt, (void **)&linux_->intel_rdt) < 0 ||
	    oci_get_object(ctx, obj, "personality", false, sizeof(struct oci_personality),
			   parse_personality, (void **)&linux_->personality) < 0 ||
	    oci_get_object_map(ctx, obj, "timeOffsets", sizeof(struct oci_time_offset),
			       parse_time_offset, (void **)&linux_->time_offsets,
			       &linux_->time_offsets_len) < 0 ||
	    oci_get_object_map(ctx, obj, "netDevices", sizeof(struct oci_net_device),
			       parse_net_device, (void **)&linux_->net_devices,
			       &linux_->net_devices_len) < 0)
		return -1;
	return 0;
}
