/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The keys of a container (docs/kernel-api.md, "Keys"): the kernel-made
 * container keyring whose links are the grants, and the keyctl wrappers
 * kcrun uses for it.
 *
 *   kc_keys_probe()     what the running kernel supports (`features`)
 *   kc_keys_grant()     link a key into the container keyring
 *   kc_keys_revoke()    unlink it ("not granted" when it was not there)
 *   kc_keys_list()      the keys linked in it, described
 *   kc_keys_add()       a new key that lives in the container keyring alone
 *
 * Every key or keyring kcrun makes is possessor-only (no user, group or
 * other rights): a container without a user namespace has the same uid as
 * the manager, so user rights would be its rights too.  kcrun possesses a
 * container keyring through its own thread keyring (KEYCTL_CONTAINER_KEYRING
 * links it there), which dies with the kcrun process.
 *
 * The request-key service (`kcrun keys serve`) is keys_serve.h. */
#ifndef KCRUN_KEYS_H
#define KCRUN_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "oci-spec/spec.h"

typedef int32_t kc_key_serial_t;

/* The series' keyctl operations (patches 0040, 0041). */
#define KC_KEYCTL_CONTAINER_KEYRING   33
#define KC_KEYCTL_CONTAINER_INTERCEPT 34

/* keyctl(2) operations and special keyrings of 6.1 (<linux/keyctl.h>). */
#define KC_KEYCTL_GET_KEYRING_ID      0
#define KC_KEYCTL_JOIN_SESSION        1
#define KC_KEYCTL_REVOKE              3
#define KC_KEYCTL_DESCRIBE            6
#define KC_KEYCTL_CLEAR               7
#define KC_KEYCTL_LINK                8
#define KC_KEYCTL_UNLINK              9
#define KC_KEYCTL_SETPERM             5
#define KC_KEYCTL_READ                11
#define KC_KEYCTL_INSTANTIATE         12
#define KC_KEYCTL_ASSUME_AUTHORITY    16
#define KC_KEYCTL_REJECT              19
#define KC_KEYCTL_INVALIDATE          21
#define KC_KEYCTL_WATCH_KEY           32

#define KC_KEY_SPEC_THREAD_KEYRING    (-1)
#define KC_KEY_SPEC_PROCESS_KEYRING   (-2)
#define KC_KEY_SPEC_SESSION_KEYRING   (-3)
#define KC_KEY_SPEC_REQUESTOR_KEYRING (-8)

#define KC_KEY_POS_VIEW   0x01000000u
#define KC_KEY_POS_READ   0x02000000u
#define KC_KEY_POS_WRITE  0x04000000u
#define KC_KEY_POS_SEARCH 0x08000000u
#define KC_KEY_POS_LINK   0x10000000u
#define KC_KEY_POS_ALL    0x3f000000u

/* add_key(2)'s payload limit. */
#define KC_KEY_PAYLOAD_MAX (1024 * 1024 - 1)

/* Raw system calls: what they return, -1 with errno on failure. */
long kc_keyctl(int op, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5);
kc_key_serial_t kc_add_key(const char *type, const char *description, const void *payload,
			   size_t len, kc_key_serial_t ring);

struct kc_keys_features {
	bool container_keyring;  /* KEYCTL_CONTAINER_KEYRING */
	bool intercept;          /* KEYCTL_CONTAINER_INTERCEPT */
};
/* Feature detection: each op on fd -1 fails with EBADF when the kernel has
 * it, EOPNOTSUPP otherwise. */
void kc_keys_probe(struct kc_keys_features *f);

/* A key serial on the command line: a positive decimal or 0x-hex number. */
int kc_keys_parse_serial(const char *s, kc_key_serial_t *serial, kc_error_t *err);

/* KEYCTL_DESCRIBE's "type;uid;gid;perm;description" (the description may
 * hold ';').  parse returns -1 on a malformed string; description points
 * into buf. */
struct kc_key_info {
	char type[64];
	unsigned int uid, gid;
	uint32_t perm;
	const char *description;
};
int kc_keys_parse_describe(char *buf, struct kc_key_info *info);
/* describe fills *buf (malloc'ed, to free) and info, pointing into it. */
int kc_keys_describe(kc_key_serial_t key, char **buf, struct kc_key_info *info,
		     kc_error_t *err);
/* KEYCTL_READ, whole (malloc'ed, NUL-terminated beyond len). */
int kc_keys_read(kc_key_serial_t key, char **data, size_t *len, kc_error_t *err);

/* Quotes untrusted bytes for one line of output: printable ASCII as is
 * (backslash and '"' escaped), anything else as \xNN; at most max_out
 * bytes of output then "...".  Returns out. */
char *kc_keys_escape(const char *s, size_t len, char *out, size_t max_out);

/* The serial of container id's keyring, linked into dest when dest != 0
 * (KC_KEY_SPEC_THREAD_KEYRING: kcrun possesses it until it exits).  cfd is
 * an open container fd. */
int kc_keys_container_keyring(int cfd, const char *id, kc_key_serial_t dest,
			      kc_key_serial_t *ckr, kc_error_t *err);

/* Grants key to the container: refused unless the key grants search to
 * its possessor (the container would never find it); its user, group and
 * other rights are removed first unless keep_perms (a container of the
 * same uid would have them), and *stripped says so. */
int kc_keys_grant(int cfd, const char *id, kc_key_serial_t key, bool keep_perms,
		  bool *stripped, kc_error_t *err);
/* "key N is not granted to ID" (ENOENT) when it is not linked there. */
int kc_keys_revoke(int cfd, const char *id, kc_key_serial_t key, kc_error_t *err);

struct kc_key_entry {
	kc_key_serial_t serial;
	char *raw;                /* the describe buffer; NULL: not viewable */
	struct kc_key_info info;
};
int kc_keys_list(int cfd, const char *id, struct kc_key_entry **entries, size_t *n,
		 kc_error_t *err);
void kc_keys_list_free(struct kc_key_entry *entries, size_t n);

/* A new key of type/description with payload, possessor-only, linked in
 * the container keyring and nowhere else: it lives as long as the
 * container (or until revoked).  A key of the same type and description
 * already granted is replaced. */
int kc_keys_add(int cfd, const char *id, const char *type, const char *description,
		const void *payload, size_t len, kc_key_serial_t *serial, kc_error_t *err);

/* The annotation through which whoever runs `create` (a manager, podman's
 * --annotation) grants keys it possesses at create time: serials separated
 * by commas, each granted as `kcrun keys grant` would. */
#define KC_KEYS_GRANT_ANNOTATION "org.kcrun.keys.grant"

/* At create, once the container object exists: *keyring gets its keyring's
 * serial (0 on a kernel without container keyrings), and the keys the
 * annotation names are granted (an error when the kernel has no keyrings or
 * a key cannot be granted: create fails). */
int kc_keys_at_create(int cfd, const char *id, const struct oci_map *annotations,
		      kc_key_serial_t *keyring, kc_error_t *err);

#endif
