/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scope-exit cleanups (__attribute__((cleanup))) shared by src/lib modules:
 *   cleanup_close int fd = -1;      closes fd when >= 0
 *   cleanup_free char *p = NULL;    frees p
 *   cleanup_dir DIR *d = NULL;      closedir(d) when not NULL
 *   cleanup_file FILE *f = NULL;    fclose(f) when not NULL */
#ifndef KC_CLEANUP_H
#define KC_CLEANUP_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void close_fdp(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
#define cleanup_close __attribute__((cleanup(close_fdp)))

static inline void freep(void *ptr)
{
	free(*(void **)ptr);
}
#define cleanup_free __attribute__((cleanup(freep)))

static inline void closedirp(DIR **dir)
{
	if (*dir)
		closedir(*dir);
}
#define cleanup_dir __attribute__((cleanup(closedirp)))

static inline void fclosep(FILE **file)
{
	if (*file)
		fclose(*file);
}
#define cleanup_file __attribute__((cleanup(fclosep)))

#endif
