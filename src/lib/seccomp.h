/* SPDX-License-Identifier: GPL-2.0-or-later */
/* linux.seccomp: a libseccomp filter built from the spec and loaded by init.
 *
 * Parent, before fork: kc_seccomp_build() turns linux.seccomp into a filter
 * context, so every spec error (unknown architecture or flag, bad argument
 * index, unsupported action) is reported by `kcrun create` with its JSON
 * path, before any process exists.  The context survives fork.
 *
 * Init, after fork: kc_seccomp_load() is the last thing before execve, as
 * late as the spec allows so the runtime's own syscalls are not filtered.
 * The filter is built with SCMP_FLTATR_CTL_NNP off (as runc does): no_new_privs
 * follows process.noNewPrivileges alone.  Loading a filter without
 * no_new_privs needs CAP_SYS_ADMIN, so when process.noNewPrivileges is false
 * init must load it before it drops its capabilities (runc's order: with
 * noNewPrivileges, load last; without it, load before the capset and make
 * sure the rest of the set-up survives the filter).
 *
 * Semantics follow runc 1.1: syscall names the running libseccomp does not
 * know are skipped; a rule whose action equals the default action is
 * skipped; SCMP_ACT_ERRNO/SCMP_ACT_TRACE without errnoRet use EPERM; several
 * conditions on the same argument index become separate rules (OR), else
 * they are ANDed in one rule.
 *
 * SCMP_ACT_NOTIFY (seccomp_notify.h): a filter with such rules needs
 * linux.seccomp.listenerPath; init loads it before it gives up
 * CAP_SYS_ADMIN whatever noNewPrivileges says (the listener must reach
 * kcrun before create returns, as runc does), and hands the listener fd to
 * kcrun, which sends it to listenerPath.
 * Not done: runc's ENOSYS stub for syscalls newer than the profile.
 *
 * This header has the name of libseccomp's: keep src/lib off the include
 * path (no -Isrc/lib), include it as "seccomp.h" from src/lib or as
 * "src/lib/seccomp.h", so <seccomp.h> below is libseccomp's.
 */
#ifndef KCRUN_SECCOMP_H
#define KCRUN_SECCOMP_H

#include <seccomp.h>
#ifndef SCMP_VER_MAJOR
#error "<seccomp.h> is not libseccomp's: src/lib must not be on the include path"
#endif

#include "error.h"
#include "oci-spec/spec.h"

/* Builds the filter for linux.seccomp into *out (release it with
 * kc_seccomp_release()).  Errors name the JSON path, e.g.
 * `linux.seccomp.flags[1]: unknown seccomp flag "X"`. */
int kc_seccomp_build(const struct oci_seccomp *seccomp, scmp_filter_ctx *out, kc_error_t *err);

/* Installs the filter in the calling process (init, just before exec). */
int kc_seccomp_load(scmp_filter_ctx ctx, kc_error_t *err);

/* Whether linux.seccomp has an SCMP_ACT_NOTIFY rule. */
bool kc_seccomp_notifies(const struct oci_seccomp *seccomp);

/* After kc_seccomp_load() of a filter with notify rules: its listener fd
 * (the filter's, not to be closed by the caller while the ctx lives). */
int kc_seccomp_listener_fd(scmp_filter_ctx ctx, kc_error_t *err);

/* NULL-safe. */
void kc_seccomp_release(scmp_filter_ctx ctx);

/* The libseccomp architecture token for an OCI name ("SCMP_ARCH_X86_64",
 * one of oci-spec's names), 0 if unknown to either.  Exposed for tests. */
uint32_t kc_seccomp_arch_from_name(const char *name);

#endif
