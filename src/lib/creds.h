/* SPDX-License-Identifier: GPL-2.0-or-later */
/* process.user and process.capabilities: the identity init takes on
 * before execve, in init's order (init.c):
 *   kc_creds_drop_bounding()     while init still has CAP_SETPCAP
 *   kc_creds_set_user()          a terminal on stdio to the uid (runc's
 *                                fixStdioPermissions), groups, gid, uid
 *                                (capabilities kept across the uid
 *                                change), umask
 *   kc_creds_set_capabilities()  effective, permitted, inheritable, then
 *                                ambient (runc ignores ambient ones that
 *                                are not also permitted and inheritable)
 * Capability names are oci-spec's (names.c); unknown names are ignored, as
 * runc does. */
#ifndef KCRUN_CREDS_H
#define KCRUN_CREDS_H

#include "error.h"
#include "oci-spec/spec.h"

int kc_creds_drop_bounding(const struct oci_process *p, kc_error_t *err);
int kc_creds_set_user(const struct oci_process *p, kc_error_t *err);
int kc_creds_set_capabilities(const struct oci_process *p, kc_error_t *err);

#endif
