/* SPDX-License-Identifier: GPL-2.0-or-later */
/* config.json -> struct oci_spec: the entry points, and the top-level
 * sections root, mounts, hooks, annotations.  `process` is in
 * oci_parse_process.c, `linux` in oci_parse_linux.c (its resources and seccomp in
 * their own files). */
#include "spec.h"
#include "json_tree.h"
#include "parse_ctx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HOSTNAME_MAX_LEN 64 /* HOST_NAME_MAX: sethostname(2) refuses more */

/* ---------- root, mounts, id mappings ---------- */

static int parse_root(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_root *root = dst;

	if (oci_get_string(ctx, obj, "path", true, OCI_PATH_MAX_LEN, &root->path) < 0 ||
	    oci_get_bool(ctx, obj, "readonly", false, NULL, &root->readonly) < 0)
		return -1;
	if (root->path[0] == '\0')
		return oci_ctx_fail(ctx, "path", "must not be empty");
	return 0;
}

int oci_parse_id_mapping(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_id_mapping *map = dst;

	if (oci_get_u32(ctx, obj, "containerID", true, NULL, &map->container_id) < 0 ||
	    oci_get_u32(ctx, obj, "hostID", true, NULL, &map->host_id) < 0 ||
	    oci_get_u32(ctx, obj, "size", true, NULL, &map->size) < 0)
		return -1;
	if (map->size == 0)
		return oci_ctx_fail(ctx, "size", "must be greater than 0");
	if ((uint64_t)map->container_id + map->size > (uint64_t)UINT32_MAX + 1)
		return oci_ctx_fail(ctx, NULL, "containerID %u + size %u is beyond 4294967296",
				    map->container_id, map->size);
	if ((uint64_t)map->host_id + map->size > (uint64_t)UINT32_MAX + 1)
		return oci_ctx_fail(ctx, NULL, "hostID %u + size %u is beyond 4294967296",
				    map->host_id, map->size);
	return 0;
}

/* runtime-spec 1.2: a relative destination is relative to the container's
 * root; the model keeps the absolute path it names ("dev" is "/dev"), as
 * runc 1.2 reads it.  An empty one names nothing. */
static int absolute_destination(struct parse_ctx *ctx, char **destination)
{
	char *absolute;

	if ((*destination)[0] == '/')
		return 0;
	if ((*destination)[0] == '\0')
		return oci_ctx_fail(ctx, "destination", "must not be empty");
	if (asprintf(&absolute, "/%s", *destination) < 0)
		return oci_ctx_fail(ctx, NULL, "out of memory");
	free(*destination);
	*destination = absolute;
	return 0;
}

static int parse_mount(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_mount *mount = dst;

	if (oci_get_string(ctx, obj, "destination", true, OCI_PATH_MAX_LEN,
			   &mount->destination) < 0 ||
	    absolute_destination(ctx, &mount->destination) < 0 ||
	    oci_get_string(ctx, obj, "type", false, 256, &mount->type) < 0 ||
	    oci_get_string(ctx, obj, "source", false, OCI_PATH_MAX_LEN, &mount->source) < 0 ||
	    oci_get_strv(ctx, obj, "options", OCI_MAX_STRING_LEN, &mount->options,
			 &mount->options_len) < 0 ||
	    oci_get_object_array(ctx, obj, "uidMappings", sizeof(struct oci_id_mapping),
				 oci_parse_id_mapping, (void **)&mount->uid_mappings,
				 &mount->uid_mappings_len) < 0 ||
	    oci_get_object_array(ctx, obj, "gidMappings", sizeof(struct oci_id_mapping),
				 oci_parse_id_mapping, (void **)&mount->gid_mappings,
				 &mount->gid_mappings_len) < 0)
		return -1;
	return 0;
}

/* ---------- hooks ---------- */

static int parse_hook(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_hook *hook = dst;
	int64_t timeout = 0;

	if (oci_get_string(ctx, obj, "path", true, OCI_PATH_MAX_LEN, &hook->path) < 0 ||
	    oci_check_absolute(ctx, "path", hook->path) < 0 ||
	    oci_get_strv(ctx, obj, "args", OCI_MAX_STRING_LEN, &hook->args, &hook->args_len) < 0 ||
	    oci_get_strv(ctx, obj, "env", OCI_MAX_STRING_LEN, &hook->env, &hook->env_len) < 0 ||
	    oci_get_int_range(ctx, obj, "timeout", false, INT32_MIN, INT32_MAX, &hook->has_timeout,
			      &timeout) < 0)
		return -1;
	hook->timeout = (int)timeout;
	if (hook->has_timeout && hook->timeout <= 0)
		return oci_ctx_fail(ctx, "timeout", "must be greater than 0, got %d",
				    hook->timeout);
	return 0;
}

#define GET_HOOKS(name, field)                                                    \
	oci_get_object_array(ctx, obj, name, sizeof(struct oci_hook), parse_hook, \
			     (void **)&hooks->field, &hooks->field##_len)

int oci_parse_hooks(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	struct oci_hooks *hooks = dst;

	if (GET_HOOKS("prestart", prestart) < 0 || GET_HOOKS("createRuntime", create_runtime) < 0 ||
	    GET_HOOKS("createContainer", create_container) < 0 ||
	    GET_HOOKS("startContainer", start_container) < 0 ||
	    GET_HOOKS("poststart", poststart) < 0 || GET_HOOKS("poststop", poststop) < 0)
		return -1;
	return 0;
}

/* ---------- the document ---------- */

static int parse_spec(struct parse_ctx *ctx, const struct json_value *obj, struct oci_spec *spec)
{
	if (obj->type != JSON_OBJECT)
		return oci_ctx_type_error(ctx, "an object", obj);
	if (oci_get_string(ctx, obj, "ociVersion", true, 256, &spec->oci_version) < 0)
		return -1;
	if (spec->oci_version[0] == '\0')
		return oci_ctx_fail(ctx, "ociVersion", "must not be empty");
	if (oci_get_object(ctx, obj, "process", false, sizeof(struct oci_process),
			   oci_parse_process, (void **)&spec->process) < 0 ||
	    oci_get_object(ctx, obj, "root", false, sizeof(struct oci_root), parse_root,
			   (void **)&spec->root) < 0 ||
	    oci_get_string(ctx, obj, "hostname", false, HOSTNAME_MAX_LEN, &spec->hostname) < 0 ||
	    oci_get_string(ctx, obj, "domainname", false, HOSTNAME_MAX_LEN,
			   &spec->domainname) < 0 ||
	    oci_get_object_array(ctx, obj, "mounts", sizeof(struct oci_mount), parse_mount,
				 (void **)&spec->mounts, &spec->mounts_len) < 0 ||
	    oci_get_object(ctx, obj, "hooks", false, sizeof(struct oci_hooks), oci_parse_hooks,
			   (void **)&spec->hooks) < 0 ||
	    oci_get_string_map(ctx, obj, "annotations", &spec->annotations) < 0 ||
	    oci_get_object(ctx, obj, "linux", false, sizeof(struct oci_linux), oci_parse_linux,
			   (void **)&spec->linux_) < 0)
		return -1;
	return 0;
}

static void set_errmsg(char **errmsg, char *msg)
{
	if (errmsg)
		*errmsg = msg ? msg : strdup("out of memory");
	else
		free(msg);
}

static int convert_spec(struct parse_ctx *ctx, const struct json_value *obj, void *dst)
{
	return parse_spec(ctx, obj, dst);
}

static void free_spec(void *spec)
{
	oci_spec_free(spec);
}

static int parse_named(const char *json, size_t len, const char *source, struct oci_spec **out,
		       char **errmsg)
{
	return oci_parse_document(json, len, source, sizeof(struct oci_spec), convert_spec,
				  free_spec, (void **)out, errmsg);
}

int oci_spec_parse_string(const char *json, size_t len, struct oci_spec **out, char **errmsg)
{
	return parse_named(json, len, "config.json", out, errmsg);
}

int oci_spec_parse_file(const char *path, struct oci_spec **out, char **errmsg)
{
	char *buf = NULL, *msg = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	ssize_t n;
	int fd, rc, saved;

	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail_errno;
	if (fstat(fd, &st) < 0)
		goto fail_close;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		if (asprintf(&msg, "%s: not a regular file", path) < 0)
			msg = NULL;
		close(fd);
		set_errmsg(errmsg, msg);
		return -1;
	}
	/* Read to EOF rather than trusting st_size; cap the total. */
	cap = st.st_size > 0 && st.st_size < OCI_MAX_CONFIG_SIZE ? (size_t)st.st_size + 1 : 4096;
	for (;;) {
		if (len == cap || buf == NULL) {
			char *nbuf;

			if (buf != NULL)
				cap *= 2;
			nbuf = realloc(buf, cap);
			if (nbuf == NULL)
				goto fail_close;
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail_close;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > OCI_MAX_CONFIG_SIZE)
			break; /* parse_named reports the size */
	}
	close(fd);
	rc = parse_named(buf, len, path, out, errmsg);
	free(buf);
	return rc;

fail_close:
	saved = errno;
	close(fd);
	free(buf);
	errno = saved;
fail_errno:
	if (asprintf(&msg, "%s: %s", path, strerror(errno)) < 0)
		msg = NULL;
	set_errmsg(errmsg, msg);
	return -1;
}
