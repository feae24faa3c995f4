/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal: re-format compact JSON (as yajl_gen writes it) the way Go's
 * encoding/json does, so our output is byte-identical to runc's:
 *  - json.MarshalIndent layout: "key": value, one element per line, empty
 *    {} and [] kept on one line;
 *  - Go's string escaping (Go 1.19, which Debian's runc 1.1.5 is built with):
 *    \" \\ \n \r \t, other control characters and < > & as \u00xx,
 *    U+2028/U+2029 escaped, invalid UTF-8 replaced by \ufffd.
 */
#ifndef OCI_SPEC_JSON_FORMAT_H
#define OCI_SPEC_JSON_FORMAT_H

#include <stddef.h>

/* indent NULL gives compact output (json.Marshal).  A trailing newline is
 * appended when `newline` is non-zero (json.Encoder.Encode).  Returns 0 and a
 * malloc'ed string, or -1 with errno set (EINVAL for malformed input). */
int oci_json_format_go(const char *json, size_t len, const char *indent, int newline, char **out);

#endif
