/* Signal names and numbers as `kcrun kill` takes them. */
#ifndef KCRUN_SIGNALS_H
#define KCRUN_SIGNALS_H

/* signal name ("KILL", "SIGKILL") or number -> number; -1 if unknown. */
int kc_parse_signal(const char *s);

#endif
