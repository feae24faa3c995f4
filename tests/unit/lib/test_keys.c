/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of keys.c and keys_serve.c's argument handling: key serials,
 * KEYCTL_DESCRIBE's format (a description may hold ';'), how untrusted
 * strings are quoted for the service's log, --static, the checks of the
 * service's options, feature detection, and describe/read on a real key of
 * the host kernel (in this process's thread keyring, gone with it). */
#include "tap.h"
#include "src/lib/keys.h"
#include "src/lib/keys_serve.h"
#include "src/lib/state.h"
#include "src/cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdint.h>

static void test_serials(void)
{
	static const char *const bad[] = {"0", "-5", "12a", "", "4294967296", "2147483648", "0x",
					  "0x-1", " 7", "+7"};
	kc_key_serial_t k = 0;
	kc_error_t err = NULL;
	size_t i, refused = 0;

	TAP_CALL_OK(kc_keys_parse_serial("123456789", &k, &err), err, "serial: decimal");
	TAP_OK(k == 123456789, "serial: decimal value");
	TAP_CALL_OK(kc_keys_parse_serial("0x1f", &k, &err), err, "serial: hex");
	TAP_OK(k == 31, "serial: hex value");
	TAP_CALL_OK(kc_keys_parse_serial("2147483647", &k, &err), err, "serial: the largest");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (kc_keys_parse_serial(bad[i], &k, &err) < 0 && err &&
		    strstr(err->msg, "invalid key serial"))
			refused++;
		else
			printf("# accepted \"%s\"\n", bad[i]);
		kc_error_free(&err);
	}
	TAP_OK(refused == sizeof(bad) / sizeof(bad[0]),
	       "serial: zero, negative, junk, out of range and signs are refused");
}

static void test_describe_format(void)
{
	char ok[] = "user;0;65534;3f010000;kcrun:secret";
	char semi[] = "user;1000;1000;0b000000;a;b;c";
	char auth[] = ".request_key_auth;0;0;3f010000;1a2b3c";
	char three[] = "user;0;0";
	char badperm[] = "user;0;0;zz;desc";
	char longtype[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;0;0;0;d";
	char empty_desc[] = "keyring;0;0;3f000000;";
	struct kc_key_info i;

	TAP_OK(kc_keys_parse_describe(ok, &i) == 0 && strcmp(i.type, "user") == 0 && i.uid == 0 &&
	       i.gid == 65534 && i.perm == 0x3f010000 && strcmp(i.description, "kcrun:secret") == 0,
	       "describe: type, uid, gid, perm (hex), description");
	TAP_OK(kc_keys_parse_describe(semi, &i) == 0 && strcmp(i.description, "a;b;c") == 0 &&
	       i.uid == 1000 && i.perm == 0x0b000000,
	       "describe: a description holding ';' is kept whole");
	TAP_OK(kc_keys_parse_describe(auth, &i) == 0 && strcmp(i.type, ".request_key_auth") == 0 &&
	       strcmp(i.description, "1a2b3c") == 0,
	       "describe: an authorisation key names its target in hex");
	TAP_OK(kc_keys_parse_describe(three, &i) < 0, "describe: too few fields is malformed");
	TAP_OK(kc_keys_parse_describe(badperm, &i) < 0, "describe: a perm that is not hex is malformed");
	TAP_OK(kc_keys_parse_describe(longtype, &i) < 0, "describe: a type name too long is malformed");
	TAP_OK(kc_keys_parse_describe(empty_desc, &i) == 0 && i.description[0] == '\0',
	       "describe: an empty description");
}

static void test_escape(void)
{
	char out[64], small[16];
	char big[4096];

	TAP_OK(strcmp(kc_keys_escape("kcrun:greeting", 14, out, sizeof(out)), "kcrun:greeting") == 0,
	       "escape: printable ASCII as is");
	TAP_OK(strcmp(kc_keys_escape("a\nb\x1b[2J\"\\", 9, out, sizeof(out)),
		      "a\\x0ab\\x1b[2J\\\"\\\\") == 0,
	       "escape: newline, escape, quote and backslash are quoted");
	TAP_OK(strcmp(kc_keys_escape("\xff\x80", 2, out, sizeof(out)), "\\xff\\x80") == 0,
	       "escape: bytes above 0x7e are quoted");
	memset(big, 'A', sizeof(big));
	kc_keys_escape(big, sizeof(big), small, sizeof(small));
	TAP_OK(strlen(small) < sizeof(small) && strcmp(small + strlen(small) - 3, "...") == 0,
	       "escape: a long string is cut to the buffer, marked \"...\"");
	kc_keys_escape("\n\n\n\n\n\n", 6, small, sizeof(small));
	TAP_OK(strlen(small) < sizeof(small) && strncmp(small, "\\x0a\\x0a", 8) == 0,
	       "escape: a quoted byte is never cut in half");
}

static void test_statics(void)
{
	struct kc_keys_static s;
	kc_error_t err = NULL;
	struct kc_keys_serve_opts o = {0};
	struct kc_keys_static list[2];

	TAP_CALL_OK(kc_keys_static_parse("kcrun:greeting=hello", &s, &err), err, "static: parsed");
	TAP_OK(strcmp(s.description, "kcrun:greeting") == 0 && strcmp(s.value, "hello") == 0 &&
	       s.value_len == 5, "static: description and value");
	list[0] = s;
	free((char *)s.description);
	TAP_CALL_OK(kc_keys_static_parse("x=y=z", &s, &err), err, "static: a value holding '='");
	TAP_OK(strcmp(s.description, "x") == 0 && strcmp(s.value, "y=z") == 0,
	       "static: split at the first '='");
	free((char *)s.description);
	TAP_CALL_OK(kc_keys_static_parse("d=", &s, &err), err, "static: an empty value");
	TAP_OK(s.value_len == 0, "static: an empty value is empty");
	list[1] = s;
	TAP_CALL_FAILS(kc_keys_static_parse("=v", &s, &err), err, "DESCRIPTION=VALUE",
		       "static: an empty description is refused");
	TAP_CALL_FAILS(kc_keys_static_parse("novalue", &s, &err), err, "DESCRIPTION=VALUE",
		       "static: no '=' is refused");
	list[0].description = "kcrun:greeting";
	o.statics = list;
	o.n_statics = 2;
	TAP_OK(kc_keys_static_find(&o, "kcrun:greeting") == &list[0] &&
	       kc_keys_static_find(&o, "d") == &list[1] && kc_keys_static_find(&o, "kcrun:greet") == NULL &&
	       kc_keys_static_find(&o, "kcrun:greeting ") == NULL,
	       "static: found by the exact description only");
	free((char *)list[1].description);
}

static void test_serve_check(void)
{
	const char *user_dns[] = {"user", "dns_resolver"};
	const char *star_user[] = {"*", "user"};
	const char *twice[] = {"user", "user"};
	const char *keyring[] = {"keyring"};
	const char *dot[] = {".request_key_auth"};
	const char *star[] = {"*"};
	struct kc_keys_serve_opts base = {.id = "c1", .timeout = 10}, o;
	kc_error_t err = NULL;

	o = base;
	TAP_CALL_OK(kc_keys_serve_check(&o, &err), err, "serve: no type is every type");
	o = base;
	o.types = user_dns;
	o.n_types = 2;
	o.deny_other = true;
	o.max_pending = 4096;
	o.handler = "/bin/true";
	TAP_CALL_OK(kc_keys_serve_check(&o, &err), err, "serve: types, --deny-other, bounds, handler");
	o = base;
	o.types = star_user;
	o.n_types = 2;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "alone", "serve: \"*\" with another type");
	o = base;
	o.types = star;
	o.n_types = 1;
	o.deny_other = true;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "nothing is left",
		       "serve: \"*\" with --deny-other");
	o = base;
	o.deny_other = true;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "--type", "serve: --deny-other alone");
	o = base;
	o.types = twice;
	o.n_types = 2;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "twice", "serve: a type given twice");
	o = base;
	o.types = keyring;
	o.n_types = 1;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "invalid key type",
		       "serve: keyring is not a type to serve");
	o.types = dot;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "invalid key type",
		       "serve: nor a '.' type");
	o = base;
	o.max_pending = 4097;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "at most 4096", "serve: --max-pending bound");
	o = base;
	o.timeout = 0;
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "--timeout", "serve: a zero timeout");
	o = base;
	o.handler = "true";
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "absolute path",
		       "serve: a handler is an absolute path (no $PATH)");
	o.handler = "/nonexistent/handler";
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "no such file",
		       "serve: a missing handler");
	o.handler = "/etc/passwd";
	TAP_CALL_FAILS(kc_keys_serve_check(&o, &err), err, "permission denied",
		       "serve: a handler that is not executable");
}

static void test_host_keys(void)
{
	struct kc_keys_features f = {true, true};
	struct kc_key_info info;
	kc_error_t err = NULL;
	char *raw = NULL, *data = NULL;
	size_t len = 0;
	kc_key_serial_t k;
	long r;

	/* a kernel without the series: EOPNOTSUPP, never taken for EBADF */
	r = kc_keyctl(KC_KEYCTL_CONTAINER_KEYRING, (unsigned long)-1, 0, 0, 0);
	if (r < 0 && errno == EOPNOTSUPP) {
		kc_keys_probe(&f);
		TAP_OK(!f.container_keyring && !f.intercept,
		       "probe: a kernel without the ops has neither");
	} else {
		kc_keys_probe(&f);
		TAP_OK(f.container_keyring, "probe: this kernel has the container keyring");
	}
	k = kc_add_key("user", "kcrun-unit:described;with;semicolons", "payload", 7,
		       KC_KEY_SPEC_THREAD_KEYRING);
	if (k < 0) {
		TAP_OK(0, "add_key on the host: %s", strerror(errno));
		TAP_OK(0, "read on the host");
		return;
	}
	TAP_OK(kc_keys_describe(k, &raw, &info, &err) == 0 && strcmp(info.type, "user") == 0 &&
	       strcmp(info.description, "kcrun-unit:described;with;semicolons") == 0 &&
	       (info.perm & KC_KEY_POS_SEARCH),
	       "describe: a real key of the host kernel");
	kc_error_free(&err);
	free(raw);
	TAP_OK(kc_keys_read(k, &data, &len, &err) == 0 && len == 7 && memcmp(data, "payload", 7) == 0 &&
	       data[7] == '\0', "read: the whole payload, NUL-terminated");
	kc_error_free(&err);
	free(data);
	kc_keyctl(KC_KEYCTL_INVALIDATE, (unsigned long)k, 0, 0, 0);
}

/* state.json records the container keyring's serial ("keyring"); a
 * hostile value is no serial. */
static void test_state_keyring(void)
{
	struct kc_state st;
	kc_error_t err = NULL;

	TAP_OK(kc_state_parse("{\"pid\":1,\"keyring\":305419896}", "c1", &st, "t", &err) == 0 &&
	       st.keyring == 305419896, "state: the keyring's serial is read back");
	kc_state_free(&st);
	kc_error_free(&err);
	TAP_OK(kc_state_parse("{\"keyring\":-5}", "c1", &st, "t", &err) == 0 && st.keyring == 0 &&
	       (kc_state_free(&st), kc_state_parse("{\"keyring\":4294967296}", "c1", &st, "t",
						&err) == 0) && st.keyring == 0,
	       "state: a negative or out-of-range keyring is none");
	kc_state_free(&st);
	kc_error_free(&err);
}

/* `kcrun keys ...` (src/cli/keys.c): what is refused before any container
 * or kernel object is looked at, and a missing container. */
static int keys_cli(const char *root, const char **out, const char **err, ...)
{
	struct kc_global g = {.root = root, .log_format = "text"};
	char *argv[16];
	int argc = 0, rc;
	va_list ap;

	argv[argc++] = (char *)"keys";
	va_start(ap, err);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	capture_begin();
	rc = kc_cmd_keys(&g, argc, argv);
	capture_end(out, err);
	return rc;
}

static void test_keys_cli(void)
{
	char root[] = "/tmp/kcrun-keys-cli.XXXXXX";
	const char *out, *err;
	int rc;

	if (!mkdtemp(root)) {
		TAP_OK(0, "mkdtemp");
		return;
	}
	rc = keys_cli(root, &out, &err, "grant", "c1", "0", NULL);
	TAP_OK(rc == 1 && strstr(err, "invalid key serial \"0\""), "keys grant: serial 0 refused");
	rc = keys_cli(root, &out, &err, "grant", "c1", "12", "13", NULL);
	TAP_OK(rc == 1 && strstr(err, "\"keys grant\" requires exactly 2 argument(s)") &&
	       strstr(out, "Incorrect Usage"), "keys grant: a third argument is a usage error");
	rc = keys_cli(root, &out, &err, "frob", "c1", NULL);
	TAP_OK(rc == 1 && strstr(err, "unknown keys command \"frob\""), "keys: an unknown command");
	rc = keys_cli(root, &out, &err, "serve", "--static", "noequals", "c1", NULL);
	TAP_OK(rc == 1 && strstr(err, "DESCRIPTION=VALUE"), "keys serve: --static without '='");
	rc = keys_cli(root, &out, &err, "serve", "--type", "*", "--deny-other", "c1", NULL);
	TAP_OK(rc == 1 && strstr(err, "nothing is left to deny"), "keys serve: \"*\" with --deny-other");
	rc = keys_cli(root, &out, &err, "serve", "--max-pending", "-1", "c1", NULL);
	TAP_OK(rc == 1 && strstr(err, "positive numbers"), "keys serve: a negative --max-pending");
	rc = keys_cli(root, &out, &err, "serve", "--handler", "true", "c1", NULL);
	TAP_OK(rc == 1 && strstr(err, "absolute path"), "keys serve: a relative --handler");
	rc = keys_cli(root, &out, &err, "serve", "c1", "--type", "user", "--type", "user", NULL);
	TAP_OK(rc == 1 && strstr(err, "--type user given twice"),
	       "keys serve: flags after the id are read too");
	rc = keys_cli(root, &out, &err, "list", "nosuch", NULL);
	TAP_OK(rc == 1 && strstr(err, "container does not exist"), "keys list: a missing container");
	rc = keys_cli(root, &out, &err, "serve", "--help", NULL);
	TAP_OK(rc == 0 && strstr(out, "kcrun keys serve") && strstr(out, "--deny-other"),
	       "keys serve --help");
	rmdir(root);
}

void test_keys(void)
{
	test_keys_cli();
	test_state_keyring();
	test_serials();
	test_describe_format();
	test_escape();
	test_statics();
	test_serve_check();
	test_host_keys();
}
