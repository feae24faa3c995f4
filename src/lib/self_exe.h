/* kcrun's own binary, as the processes it puts into a container see it.
 *
 * Until it execs process.args, a container's init (and the child of
 * `kcrun exec`) runs kcrun's image: /proc/PID/exe is kcrun.  A process of
 * the container that keeps an fd of it could reopen it for writing once no
 * kcrun runs any more and overwrite the host's runtime (runc's
 * CVE-2019-5736).  So create and exec first re-execute kcrun from a
 * binary that cannot be written: a read-only detached bind mount of the
 * same file (no copy), or, where that is refused, a sealed memfd copy.
 *
 * run decides once it has read the config (container.c): its init is
 * seen by no other process before it execs process.args when it has a pid
 * namespace of its own and no createContainer or startContainer hooks
 * (state.json, which exec needs, is written only after that execve), and
 * then kcrun runs its own binary without the re-exec (measured under TCG:
 * about 4-6 ms of a 50-60 ms `run`). */
#ifndef KCRUN_SELF_EXE_H
#define KCRUN_SELF_EXE_H

#include <stdbool.h>

#include "error.h"
#include "oci-spec/spec.h"

/* main's argv, saved for kc_self_exe_protect(); called first thing, it
 * also recognises (and forgets) the mark of a re-executed kcrun. */
void kc_self_exe_init(char **argv);

/* Returns 0 when the running binary is unwritable (cheap after the first
 * time); otherwise execs it from an unwritable copy with the argv and the
 * environment of kc_self_exe_init (and so does not return), or returns -1
 * with *err set. */
int kc_self_exe_protect(kc_error_t *err);

/* run: whether no process but init (and the host's) can see init before
 * it execs process.args: a pid namespace of its own (not joined, not the
 * host's) and no createContainer or startContainer hooks (they run in
 * the container beside it).  The caller must then write state.json only
 * once init has exec'd (kc_init_wait_exec), so that exec cannot join it
 * earlier; otherwise it calls kc_self_exe_protect(). */
bool kc_self_exe_run_unseen(const struct oci_spec *spec);

#endif
