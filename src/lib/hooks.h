/* SPDX-License-Identifier: GPL-2.0-or-later */
/* OCI hooks (config.json "hooks"): run one phase's hooks in order.
 *
 * Each hook is fork+exec'd with args (args[0] is argv[0]; no args means
 * argv = { path }) and exactly the env given (none given: empty env).  The
 * container state JSON (runtime-spec state, compact, what
 * oci_state_to_hook_json() makes) is written to its stdin, then stdin is
 * closed.  Its stdout goes to the runtime's stderr (so `create`'s stdout
 * stays clean for podman/conmon), its stderr is the runtime's.  With a
 * timeout the hook is SIGKILLed when it expires.
 *
 * Phase names are the JSON names; what a failure means (runtime-spec):
 *   prestart, createRuntime, createContainer, startContainer
 *       a failure aborts: the hooks after it do not run, the caller stops
 *       creating/starting, tears the container down and reports the error;
 *   poststart, poststop
 *       every hook runs even if one fails; the caller logs the returned
 *       error as a warning and carries on.
 * kc_hooks_phase_aborts() tells which kind a phase is.
 *
 * Where each phase runs (the runtime engineer calls these):
 *   prestart, createRuntime  parent, during create, after the container
 *       object, its namespaces and mounts exist, before init is released;
 *       runtime namespaces, path resolved in the runtime's mount ns.
 *   createContainer  in the container's namespaces, path resolved in the
 *       RUNTIME's mount ns: the parent opens the binaries before fork
 *       (kc_hooks_open_executables) and init runs them from those fds
 *       (kc_hooks_run_fds: execveat(fd, "", AT_EMPTY_PATH)), after
 *       clone3(CLONE_INTO_CONTAINER) and before waiting on the exec fifo.  A
 *       `#!` script run from an fd needs /proc mounted in the container
 *       (the kernel hands the interpreter /dev/fd/N).
 *   startContainer  init, after the exec fifo is opened and before
 *       execve of process.args; path resolved in the container:
 *       kc_hooks_run() from init.
 *   poststart  parent of `start`, after the fifo released init.
 *   poststop   `delete`, after the container's processes are gone and
 *       before its state directory is removed.
 */
#ifndef KCRUN_HOOKS_H
#define KCRUN_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "oci-spec/spec.h"

/* True for the phases whose failure aborts the lifecycle (see above). */
bool kc_hooks_phase_aborts(const char *phase_name);

/* Runs hooks[0..n) of phase_name with state_json on stdin.  Errors:
 *   "<phase> hook #<i>: timed out after <t>s (<path>)"
 *   "<phase> hook #<i>: <path> exited with status <s>"
 *   "<phase> hook #<i>: <path> killed by signal <s>"
 *   "<phase> hook #<i>: exec <path>: <strerror>"
 * (i counts from 0, as runc's messages do.)  For aborting phases it stops
 * at the first failure; otherwise it runs them all and returns the first
 * failure. */
int kc_hooks_run(const struct oci_hook *hooks, size_t n, const char *state_json,
		 const char *phase_name, kc_error_t *err);

/* Parent, before fork: opens every hook's path as a handle nobody can
 * write through (exec_handle.h: a read-only detached bind mount of the file,
 * or a sealed memfd copy) into a malloc'ed array *fds.  They are
 * close-on-exec: each hook's child keeps its own handle only, for a `#!`
 * script's interpreter, so a hook (and what it runs from the image) holds
 * no handle on another hook's host file. */
int kc_hooks_open_executables(const struct oci_hook *hooks, size_t n, int **fds,
			      kc_error_t *err);
void kc_hooks_close_executables(int *fds, size_t n);

/* Like kc_hooks_run(), executing fds[i] instead of resolving hooks[i].path. */
int kc_hooks_run_fds(const struct oci_hook *hooks, const int *fds, size_t n,
		     const char *state_json, const char *phase_name, kc_error_t *err);

#endif
