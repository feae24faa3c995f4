/* Signal names and numbers as `kcrun kill` takes them. */
#ifndef KCRUN_SIGNALS_H
#define KCRUN_SIGNALS_H

/* signal name ("KILL", "SIGKILL", "sigterm", "RTMIN+3") or number (0 to
 * SIGRTMAX) -> number; -1 if unknown.  Names as runc takes them: any case,
 * with or without "SIG". */
int kc_parse_signal(const char *s);

#endif
