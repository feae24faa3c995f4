/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The container keyring: grants, revocations, the list, keys made for a
 * container (see keys.h). */
#include "keys.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"

long kc_keyctl(int op, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5)
{
	return syscall(SYS_keyctl, op, arg2, arg3, arg4, arg5);
}

kc_key_serial_t kc_add_key(const char *type, const char *description, const void *payload,
			   size_t len, kc_key_serial_t ring)
{
	return (kc_key_serial_t)syscall(SYS_add_key, type, description, payload, len, ring);
}

static bool op_present(int op)
{
	return kc_keyctl(op, (unsigned long)-1, 0, 0, 0) < 0 && errno == EBADF;
}

void kc_keys_probe(struct kc_keys_features *f)
{
	f->container_keyring = op_present(KC_KEYCTL_CONTAINER_KEYRING);
	f->intercept = op_present(KC_KEYCTL_CONTAINER_INTERCEPT);
}

int kc_keys_parse_serial(const char *s, kc_key_serial_t *serial, kc_error_t *err)
{
	unsigned long long v;
	char *end;

	if (s[0] == '\0' || !isdigit((unsigned char)s[0]))
		return kc_error_set(err, 0, "invalid key serial \"%s\"", s);
	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		v = strtoull(s + 2, &end, 16);
	else
		v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || end == s || v == 0 || v > INT32_MAX ||
	    ((s[1] == 'x' || s[1] == 'X') && s[2] == '\0'))
		return kc_error_set(err, 0, "invalid key serial \"%s\"", s);
	*serial = (kc_key_serial_t)v;
	return 0;
}

int kc_keys_parse_describe(char *buf, struct kc_key_info *info)
{
	char *field[4], *p = buf, *end;
	unsigned long v[3];
	size_t i;

	for (i = 0; i < 4; i++) {
		field[i] = p;
		p = strchr(p, ';');
		if (p == NULL)
			return -1;
		*p++ = '\0';
	}
	if (field[0][0] == '\0' || strlen(field[0]) >= sizeof(info->type))
		return -1;
	for (i = 0; i < 3; i++) {
		int base = i == 2 ? 16 : 10;

		if (!isxdigit((unsigned char)field[i + 1][0]))
			return -1;
		errno = 0;
		v[i] = strtoul(field[i + 1], &end, base);
		if (errno || *end != '\0' || v[i] > UINT32_MAX)
			return -1;
	}
	strcpy(info->type, field[0]);
	info->uid = (unsigned int)v[0];
	info->gid = (unsigned int)v[1];
	info->perm = (uint32_t)v[2];
	info->description = p;
	return 0;
}

/* A keyctl op that copies a variable amount of data out (describe, read):
 * asks for the size, then retries until the buffer holds it all. */
static long keyctl_fetch(int op, kc_key_serial_t key, char **data, size_t *len)
{
	size_t cap = 256;
	char *buf = NULL;
	long n;

	for (;;) {
		char *bigger = realloc(buf, cap + 1);

		if (bigger == NULL) {
			free(buf);
			errno = ENOMEM;
			return -1;
		}
		buf = bigger;
		n = kc_keyctl(op, (unsigned long)key, (unsigned long)buf, cap, 0);
		if (n < 0) {
			free(buf);
			return -1;
		}
		if ((size_t)n <= cap)
			break;
		cap = (size_t)n;
	}
	buf[n] = '\0';
	*data = buf;
	if (len)
		*len = (size_t)n;
	return n;
}

int kc_keys_describe(kc_key_serial_t key, char **buf, struct kc_key_info *info,
		     kc_error_t *err)
{
	size_t len;

	if (keyctl_fetch(KC_KEYCTL_DESCRIBE, key, buf, &len) < 0)
		return kc_error_set(err, errno, "describe key %" PRId32, key);
	/* the kernel counts the terminating NUL */
	if (kc_keys_parse_describe(*buf, info) < 0) {
		free(*buf);
		*buf = NULL;
		return kc_error_set(err, EINVAL, "describe key %" PRId32 ": unexpected answer", key);
	}
	return 0;
}

int kc_keys_read(kc_key_serial_t key, char **data, size_t *len, kc_error_t *err)
{
	if (keyctl_fetch(KC_KEYCTL_READ, key, data, len) < 0)
		return kc_error_set(err, errno, "read key %" PRId32, key);
	return 0;
}

char *kc_keys_escape(const char *s, size_t len, char *out, size_t max_out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	if (max_out < 8) {
		if (max_out)
			out[0] = '\0';
		return out;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char enc[4];
		size_t n;

		if (c == '\\' || c == '"') {
			enc[0] = '\\';
			enc[1] = (char)c;
			n = 2;
		} else if (c >= 0x20 && c < 0x7f) {
			enc[0] = (char)c;
			n = 1;
		} else {
			enc[0] = '\\';
			enc[1] = 'x';
			enc[2] = hex[c >> 4];
			enc[3] = hex[c & 15];
			n = 4;
		}
		if (o + n + 4 > max_out) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		memcpy(out + o, enc, n);
		o += n;
	}
	out[o] = '\0';
	return out;
}

int kc_keys_container_keyring(int cfd, const char *id, kc_key_serial_t dest,
			      kc_key_serial_t *ckr, kc_error_t *err)
{
	long r = kc_keyctl(KC_KEYCTL_CONTAINER_KEYRING, (unsigned long)cfd,
			   (unsigned long)(long)dest, 0, 0);

	if (r >= 0) {
		*ckr = (kc_key_serial_t)r;
		return 0;
	}
	switch (errno) {
	case EOPNOTSUPP:
		return kc_error_set(err, 0, "this kernel has no container keyrings");
	case ENOKEY:
		return kc_error_set(err, 0, "container %s is not running: its keyring is gone", id);
	case EPERM:
		return kc_error_set(err, EPERM, "the keyring of container %s", id);
	default:
		return kc_error_set(err, errno, "the keyring of container %s", id);
	}
}

int kc_keys_grant(int cfd, const char *id, kc_key_serial_t key, bool keep_perms,
		  bool *stripped, kc_error_t *err)
{
	cleanup_free char *desc = NULL;
	struct kc_key_info info;
	kc_key_serial_t ckr;

	*stripped = false;
	if (kc_keys_describe(key, &desc, &info, err) < 0) {
		if ((*err)->errnum == EACCES)
			kc_error_wrap(err, "kcrun does not possess key %" PRId32 " (a key in its "
				      "caller's keyrings, granting its possessor view and search)", key);
		return -1;
	}
	if (!(info.perm & KC_KEY_POS_SEARCH))
		return kc_error_set(err, 0,
				    "key %" PRId32 " does not grant search to its possessor "
				    "(perm %08" PRIx32 "): a container could not find it",
				    key, info.perm);
	if (strcmp(info.type, "keyring") == 0)
		return kc_error_set(err, 0, "key %" PRId32 " is a keyring: only keys can be granted",
				    key);
	if (kc_keys_container_keyring(cfd, id, KC_KEY_SPEC_THREAD_KEYRING, &ckr, err) < 0)
		return -1;
	if (!keep_perms && (info.perm & ~KC_KEY_POS_ALL) != 0) {
		if (kc_keyctl(KC_KEYCTL_SETPERM, (unsigned long)key, info.perm & KC_KEY_POS_ALL, 0,
			      0) < 0)
			return kc_error_set(err, errno,
					    "remove the user, group and other rights of key %" PRId32
					    " (--keep-perms keeps them)",
					    key);
		*stripped = true;
	}
	if (kc_keyctl(KC_KEYCTL_LINK, (unsigned long)key, (unsigned long)ckr, 0, 0) < 0)
		return kc_error_set(err, errno, "grant key %" PRId32 " to %s", key, id);
	return 0;
}

int kc_keys_revoke(int cfd, const char *id, kc_key_serial_t key, kc_error_t *err)
{
	kc_key_serial_t ckr;

	if (kc_keys_container_keyring(cfd, id, KC_KEY_SPEC_THREAD_KEYRING, &ckr, err) < 0)
		return -1;
	if (kc_keyctl(KC_KEYCTL_UNLINK, (unsigned long)key, (unsigned long)ckr, 0, 0) == 0)
		return 0;
	if (errno == ENOENT)
		return kc_error_set(err, ENOENT, "key %" PRId32 " is not granted to %s", key, id);
	return kc_error_set(err, errno, "revoke key %" PRId32 " from %s", key, id);
}

void kc_keys_list_free(struct kc_key_entry *entries, size_t n)
{
	size_t i;

	for (i = 0; entries && i < n; i++)
		free(entries[i].raw);
	free(entries);
}

int kc_keys_list(int cfd, const char *id, struct kc_key_entry **entries, size_t *n,
		 kc_error_t *err)
{
	cleanup_free char *data = NULL;
	struct kc_key_entry *e;
	kc_key_serial_t ckr;
	size_t len, i, count;

	*entries = NULL;
	*n = 0;
	if (kc_keys_container_keyring(cfd, id, KC_KEY_SPEC_THREAD_KEYRING, &ckr, err) < 0)
		return -1;
	if (kc_keys_read(ckr, &data, &len, err) < 0)
		return -1;
	count = len / sizeof(kc_key_serial_t);
	e = calloc(count ? count : 1, sizeof(*e));
	if (e == NULL)
		return kc_error_set(err, ENOMEM, "list the keys of %s", id);
	for (i = 0; i < count; i++) {
		kc_error_t ignored = NULL;

		memcpy(&e[i].serial, data + i * sizeof(kc_key_serial_t), sizeof(kc_key_serial_t));
		/* a key without possessor view is listed by its serial alone */
		if (kc_keys_describe(e[i].serial, &e[i].raw, &e[i].info, &ignored) < 0) {
			kc_error_free(&ignored);
			e[i].raw = NULL;
		}
	}
	*entries = e;
	*n = count;
	return 0;
}

int kc_keys_at_create(int cfd, const char *id, const struct oci_map *annotations,
		      kc_key_serial_t *keyring, kc_error_t *err)
{
	const char *grants = oci_map_get(annotations, KC_KEYS_GRANT_ANNOTATION);
	cleanup_free char *list = NULL;
	char *serial, *save = NULL;
	long r;

	*keyring = 0;
	r = kc_keyctl(KC_KEYCTL_CONTAINER_KEYRING, (unsigned long)cfd, 0, 0, 0);
	if (r > 0)
		*keyring = (kc_key_serial_t)r;
	if (grants == NULL)
		return 0;
	if (r < 0 && kc_keys_container_keyring(cfd, id, 0, keyring, err) < 0)
		return kc_error_wrap(err, "annotation %s", KC_KEYS_GRANT_ANNOTATION);
	list = strdup(grants);
	if (list == NULL)
		return kc_error_set(err, ENOMEM, "annotation %s", KC_KEYS_GRANT_ANNOTATION);
	for (serial = strtok_r(list, ",", &save); serial; serial = strtok_r(NULL, ",", &save)) {
		kc_key_serial_t key;
		bool stripped;

		if (kc_keys_parse_serial(serial, &key, err) < 0 ||
		    kc_keys_grant(cfd, id, key, false, &stripped, err) < 0)
			return kc_error_wrap(err, "annotation %s", KC_KEYS_GRANT_ANNOTATION);
	}
	return 0;
}

int kc_keys_add(int cfd, const char *id, const char *type, const char *description,
		const void *payload, size_t len, kc_key_serial_t *serial, kc_error_t *err)
{
	cleanup_free char *desc = NULL;
	struct kc_key_info info;
	kc_key_serial_t key, ckr;

	if (len > KC_KEY_PAYLOAD_MAX)
		return kc_error_set(err, 0, "a key's payload is at most %d bytes", KC_KEY_PAYLOAD_MAX);
	if (kc_keys_container_keyring(cfd, id, KC_KEY_SPEC_THREAD_KEYRING, &ckr, err) < 0)
		return -1;
	/* Made in kcrun's own thread keyring (which dies with kcrun), made
	 * possessor-only there, then moved to the container keyring: at no
	 * time does anyone but kcrun have a right to it. */
	key = kc_add_key(type, description, payload, len, KC_KEY_SPEC_THREAD_KEYRING);
	if (key < 0)
		return kc_error_set(err, errno, "add_key %s \"%s\"", type, description);
	if (kc_keys_describe(key, &desc, &info, err) < 0)
		goto err_key;
	if (kc_keyctl(KC_KEYCTL_SETPERM, (unsigned long)key, info.perm & KC_KEY_POS_ALL, 0, 0) < 0) {
		kc_error_set(err, errno, "make key %" PRId32 " possessor-only", key);
		goto err_key;
	}
	if (!(info.perm & KC_KEY_POS_SEARCH)) {
		kc_error_set(err, 0, "keys of type %s cannot be searched for: not granted", type);
		goto err_key;
	}
	if (kc_keyctl(KC_KEYCTL_LINK, (unsigned long)key, (unsigned long)ckr, 0, 0) < 0) {
		kc_error_set(err, errno, "grant key %" PRId32 " to %s", key, id);
		goto err_key;
	}
	if (kc_keyctl(KC_KEYCTL_UNLINK, (unsigned long)key, KC_KEY_SPEC_THREAD_KEYRING, 0, 0) < 0) {
		kc_error_set(err, errno, "unlink key %" PRId32 " from kcrun's thread keyring", key);
		goto err_key;
	}
	*serial = key;
	return 0;

err_key:
	kc_keyctl(KC_KEYCTL_INVALIDATE, (unsigned long)key, 0, 0, 0);
	return -1;
}
