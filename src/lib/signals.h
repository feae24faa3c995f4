/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Signal names and numbers as `kcrun kill` takes them; the signal state a
 * container's process starts with. */
#ifndef KCRUN_SIGNALS_H
#define KCRUN_SIGNALS_H

/* signal name ("KILL", "SIGKILL", "sigterm", "RTMIN+3") or number (0 to
 * SIGRTMAX) -> number; -1 if unknown.  Names as runc takes them: any case,
 * with or without "SIG". */
int kc_parse_signal(const char *s);

/* Every signal's disposition back to SIG_DFL and an empty signal mask, as
 * runc and crun leave them for execve: a caller that ignores SIGPIPE
 * (conmon, a shell's `trap '' PIPE`) or kcrun's own forwarding must not
 * pass that on to the container's process.  For init and exec's process,
 * just before execve. */
void kc_signals_reset(void);

#endif
