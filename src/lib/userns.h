/* linux.uidMappings / linux.gidMappings: a user namespace is mapped before
 * the container exists, since a user namespace can only be mapped while a
 * task is in it.  A helper child unshares it, the parent writes its maps
 * and opens /proc/<helper>/ns/user, the helper dies, and the fd goes to
 * container_create(..., CONTAINER_USER_NS_FD, fd). */
#ifndef KCRUN_USERNS_H
#define KCRUN_USERNS_H

#include "error.h"
#include "oci-spec/spec.h"

/* Returns an fd of a new user namespace mapped as linux.{uid,gid}Mappings. */
int kc_userns_create_mapped(const struct oci_linux *lx, kc_error_t *err);

#endif
