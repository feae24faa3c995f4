// SPDX-License-Identifier: GPL-2.0-or-later
/* The systemd cgroup driver's bus half (systemd_scope.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "log.h"
#include "systemd_scope.h"

void kc_systemd_scope_release(struct kc_systemd_scope *scope)
{
	if (scope->holder_fd >= 0)
		close(scope->holder_fd);
	scope->holder_fd = -1;
	if (scope->holder > 0) {
		int status;

		while (waitpid(scope->holder, &status, 0) < 0 && errno == EINTR)
			;
	}
	scope->holder = 0;
	free(scope->cgroup);
	scope->cgroup = NULL;
}

#ifdef KC_HAVE_SYSTEMD

#include <systemd/sd-bus.h>

/* sd-bus objects released at scope end (sd-bus.h defines the *p helpers) */
#define sd_cleanup(release) __attribute__((cleanup(release)))

#define SYSTEMD_DEST "org.freedesktop.systemd1"
#define SYSTEMD_PATH "/org/freedesktop/systemd1"
#define SYSTEMD_MANAGER "org.freedesktop.systemd1.Manager"
/* TCG guests and loaded hosts: a job of a transient scope takes
 * milliseconds, systemd's own default for a call is 25 s */
#define JOB_TIMEOUT_USEC (120ULL * 1000 * 1000)

bool kc_systemd_built(void)
{
	return true;
}

int kc_systemd_require(kc_error_t *err)
{
	(void)err;
	return 0;
}

static const char *manager_name(bool user)
{
	return user ? "the user's systemd manager" : "systemd";
}

/* systemd's own socket: a direct connection to PID 1, no bus daemon in
 * between (systemctl's way as root; the socket is root's). */
static int open_private(sd_bus **bus)
{
	int rc = sd_bus_new(bus);

	if (rc >= 0)
		rc = sd_bus_set_address(*bus, "unix:path=/run/systemd/private");
	if (rc >= 0)
		rc = sd_bus_start(*bus);
	if (rc < 0)
		*bus = sd_bus_flush_close_unref(*bus);
	return rc;
}

/* Root: systemd's own socket, the system bus if that fails (systemd in
 * a container whose /run is not its own); the user's bus rootless.  A call
 * through the bus daemon is two hops (bench/systemd-scope measured the
 * direct socket 4-6 % cheaper per scope). */
static int bus_open(bool user, sd_bus **bus, kc_error_t *err)
{
	int rc;

	*bus = NULL;
	if (user) {
		rc = sd_bus_open_user(bus);
		if (rc < 0)
			return kc_error_set(err, -rc, "connect to the user's systemd manager (is "
					    "XDG_RUNTIME_DIR set and a user session running?)");
		return 0;
	}
	if (geteuid() == 0) {
		rc = open_private(bus);
		if (rc >= 0)
			return 0;
		kc_log_debug("/run/systemd/private: %s; trying the system bus", strerror(-rc));
	}
	rc = sd_bus_open_system(bus);
	if (rc < 0) {
		*bus = sd_bus_flush_close_unref(*bus);
		return kc_error_set(err, -rc, "connect to systemd (no /run/systemd/private, no "
				    "system bus): is systemd running as PID 1?");
	}
	return 0;
}

static int bus_fail(kc_error_t *err, int rc, const sd_bus_error *error, const char *what,
		    const char *unit, bool user)
{
	if (error && sd_bus_error_is_set(error))
		return kc_error_set(err, 0, "%s %s through %s: %s", what, unit, manager_name(user),
				    error->message ? error->message : error->name);
	return kc_error_set(err, rc < 0 ? -rc : EIO, "%s %s through %s", what, unit, manager_name(user));
}

/* JobRemoved(u id, o job, s unit, s result) for our unit. */
struct job_wait {
	const char *unit;
	bool done;
	char result[64];
};

static int on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	struct job_wait *wait = userdata;
	const char *job, *unit, *result;
	uint32_t id;

	(void)error;
	if (sd_bus_message_read(m, "uoss", &id, &job, &unit, &result) < 0)
		return 0;
	if (strcmp(unit, wait->unit) == 0) {
		wait->done = true;
		snprintf(wait->result, sizeof(wait->result), "%s", result);
	}
	return 0;
}

/* Listens for JobRemoved from before the call that makes the job: the
 * signal can come before the call's reply is read. */
static int watch_jobs(sd_bus *bus, struct job_wait *wait, sd_bus_slot **slot, kc_error_t *err)
{
	int rc = sd_bus_match_signal(bus, slot, NULL, SYSTEMD_PATH, SYSTEMD_MANAGER, "JobRemoved",
				     on_job_removed, wait);

	if (rc < 0)
		return kc_error_set(err, -rc, "listen for systemd's JobRemoved");
	/* on a bus, the manager sends its signals only once someone
	 * subscribed; on its own socket, always */
	if (sd_bus_is_bus_client(bus) <= 0)
		return 0;
	rc = sd_bus_call_method(bus, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER, "Subscribe",
				NULL, NULL, "");
	if (rc < 0)
		kc_log_debug("systemd Subscribe: %s", strerror(-rc));
	return 0;
}

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Until our JobRemoved came, or JOB_TIMEOUT_USEC of the clock passed
 * (the other signals a busy manager sends do not shorten it). */
static int wait_job(sd_bus *bus, struct job_wait *wait, const char *what, bool user,
		    kc_error_t *err)
{
	uint64_t deadline = now_usec() + JOB_TIMEOUT_USEC;

	while (!wait->done) {
		uint64_t now;
		int rc = sd_bus_process(bus, NULL);

		if (rc < 0)
			return kc_error_set(err, -rc, "%s %s: waiting for its job", what, wait->unit);
		if (rc > 0)
			continue;
		now = now_usec();
		if (now >= deadline)
			return kc_error_set(err, ETIMEDOUT, "%s %s: %s did not finish its job",
					    what, wait->unit, manager_name(user));
		rc = sd_bus_wait(bus, deadline - now);
		if (rc < 0 && rc != -EINTR)
			return kc_error_set(err, -rc, "%s %s: waiting for its job", what, wait->unit);
	}
	return 0;
}

static int append_prop(sd_bus_message *m, const struct kc_unit_prop *prop)
{
	switch (prop->type) {
	case KC_PROP_STRING:
		return sd_bus_message_append(m, "(sv)", prop->name, "s", prop->value.s);
	case KC_PROP_BOOL:
		return sd_bus_message_append(m, "(sv)", prop->name, "b", (int)prop->value.b);
	case KC_PROP_INT32:
		return sd_bus_message_append(m, "(sv)", prop->name, "i", (int32_t)prop->value.i);
	case KC_PROP_UINT32:
		return sd_bus_message_append(m, "(sv)", prop->name, "u", (uint32_t)prop->value.u);
	case KC_PROP_INT64:
		return sd_bus_message_append(m, "(sv)", prop->name, "x", prop->value.i);
	case KC_PROP_UINT64:
		return sd_bus_message_append(m, "(sv)", prop->name, "t", prop->value.u);
	case KC_PROP_DOUBLE:
		return sd_bus_message_append(m, "(sv)", prop->name, "d", prop->value.d);
	}
	return -EINVAL;
}

static int append_props(sd_bus_message *m, const struct kc_unit_props *props)
{
	size_t i;
	int rc;

	for (i = 0; i < props->len; i++) {
		rc = append_prop(m, &props->props[i]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* StartTransientUnit(s name, s mode, a(sv) props, a(sa(sv)) aux). */
static int start_transient(sd_bus *bus, const struct kc_systemd_unit *unit,
			   const struct kc_unit_props *props, pid_t holder, sd_bus_error *error)
{
	sd_cleanup(sd_bus_message_unrefp) sd_bus_message *m = NULL;
	sd_cleanup(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	int rc;

	rc = sd_bus_message_new_method_call(bus, &m, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER,
					    "StartTransientUnit");
	if (rc >= 0)
		rc = sd_bus_message_append(m, "ss", unit->name, "fail");
	if (rc >= 0)
		rc = sd_bus_message_open_container(m, 'a', "(sv)");
	if (rc >= 0)
		rc = append_props(m, props);
	if (rc >= 0)
		rc = sd_bus_message_append(m, "(sv)", "PIDs", "au", 1, (uint32_t)holder);
	if (rc >= 0)
		rc = sd_bus_message_close_container(m);
	if (rc >= 0)
		rc = sd_bus_message_append(m, "a(sa(sv))", 0);
	if (rc >= 0)
		rc = sd_bus_call(bus, m, JOB_TIMEOUT_USEC, error, &reply);
	return rc;
}

static int reset_failed(sd_bus *bus, const char *name)
{
	return sd_bus_call_method(bus, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER, "ResetFailedUnit",
				  NULL, NULL, "s", name);
}

/* The unit's ControlGroup property, under the cgroup root. */
static int unit_cgroup(sd_bus *bus, const char *name, bool user, char **dir, kc_error_t *err)
{
	sd_cleanup(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
	sd_cleanup(sd_bus_message_unrefp) sd_bus_message *reply = NULL;
	const char *object;
	char *group = NULL;
	int rc;

	rc = sd_bus_call_method(bus, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER, "GetUnit", &error,
				&reply, "s", name);
	if (rc >= 0)
		rc = sd_bus_message_read(reply, "o", &object);
	if (rc >= 0)
		rc = sd_bus_get_property_string(bus, SYSTEMD_DEST, object, "org.freedesktop.systemd1.Scope",
						"ControlGroup", &error, &group);
	if (rc < 0)
		return bus_fail(err, rc, &error, "read the cgroup of", name, user);
	if (group[0] != '/' || strstr(group, "/../")) {
		kc_error_set(err, EINVAL, "%s says the cgroup of %s is \"%s\"", manager_name(user), name,
			     group);
		free(group);
		return -1;
	}
	rc = asprintf(dir, "%s%s", kc_cgroup_root, group);
	free(group);
	return rc < 0 ? kc_error_set(err, ENOMEM, "cgroup of %s", name) : 0;
}

/* A child that only waits for holder_fd's other end to close. */
static int spawn_holder(struct kc_systemd_scope *scope, kc_error_t *err)
{
	pid_t parent = getpid();
	int ends[2];

	if (pipe2(ends, O_CLOEXEC) < 0)
		return kc_error_set(err, errno, "systemd scope holder: pipe");
	scope->holder = fork();
	if (scope->holder < 0) {
		close(ends[0]);
		close(ends[1]);
		scope->holder = 0;
		return kc_error_set(err, errno, "systemd scope holder: fork");
	}
	if (scope->holder == 0) {
		char byte;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		/* nothing of kcrun's stays open in it but its end of the pipe */
		if (ends[0] > 0)
			close_range(0, (unsigned int)ends[0] - 1, 0);
		close_range((unsigned int)ends[0] + 1, ~0U, 0);
		while (read(ends[0], &byte, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(ends[0]);
	scope->holder_fd = ends[1];
	return 0;
}

int kc_systemd_scope_start(const struct kc_systemd_unit *unit, const struct kc_unit_props *props,
			   bool user, struct kc_systemd_scope *scope, kc_error_t *err)
{
	sd_cleanup(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
	sd_cleanup(sd_bus_slot_unrefp) sd_bus_slot *slot = NULL;
	struct job_wait wait = {.unit = unit->name};
	int attempt, rc = 0;

	scope->holder = 0;
	scope->holder_fd = -1;
	scope->cgroup = NULL;
	if (bus_open(user, &bus, err) < 0 || watch_jobs(bus, &wait, &slot, err) < 0)
		return -1;
	kc_trace("systemd: connected");
	if (spawn_holder(scope, err) < 0)
		return -1;
	for (attempt = 0; attempt < 2; attempt++) {
		sd_cleanup(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;

		rc = start_transient(bus, unit, props, scope->holder, &error);
		if (rc >= 0)
			break;
		/* a scope of that name left failed by an earlier container:
		 * reset it, once; an active one stays an error */
		if (attempt == 0 && sd_bus_error_has_name(&error, "org.freedesktop.systemd1.UnitExists") &&
		    reset_failed(bus, unit->name) >= 0)
			continue;
		bus_fail(err, rc, &error, "start the scope", unit->name, user);
		goto fail;
	}
	kc_trace("systemd: scope asked for");
	if (wait_job(bus, &wait, "start the scope", user, err) < 0)
		goto fail;
	kc_trace("systemd: scope started");
	if (strcmp(wait.result, "done") != 0) {
		kc_error_set(err, 0, "start the scope %s through %s: its job ended \"%s\"", unit->name,
			     manager_name(user), wait.result);
		goto fail;
	}
	if (unit_cgroup(bus, unit->name, user, &scope->cgroup, err) < 0)
		goto fail;
	return 0;
fail:
	kc_systemd_scope_release(scope);
	if (rc >= 0) {
		kc_error_t ignored = NULL;

		kc_systemd_unit_stop(unit->name, user, &ignored);
		kc_error_free(&ignored);
	}
	return -1;
}

int kc_systemd_unit_stop(const char *name, bool user, kc_error_t *err)
{
	sd_cleanup(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
	sd_cleanup(sd_bus_slot_unrefp) sd_bus_slot *slot = NULL;
	sd_cleanup(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
	struct job_wait wait = {.unit = name};
	int rc;

	if (bus_open(user, &bus, err) < 0 || watch_jobs(bus, &wait, &slot, err) < 0)
		return -1;
	kc_trace("systemd: connected");
	rc = sd_bus_call_method(bus, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER, "StopUnit", &error,
				NULL, "ss", name, "replace");
	if (rc < 0) {
		if (sd_bus_error_has_name(&error, "org.freedesktop.systemd1.NoSuchUnit"))
			return 0;
		return bus_fail(err, rc, &error, "stop", name, user);
	}
	kc_trace("systemd: stop asked for");
	if (wait_job(bus, &wait, "stop", user, err) < 0)
		return -1;
	kc_trace("systemd: stopped");
	/* a scope that failed (a process killed by OOM, say) stays loaded
	 * until reset; its name must be free for the next container */
	rc = reset_failed(bus, name);
	if (rc < 0)
		kc_log_debug("ResetFailedUnit %s: %s", name, strerror(-rc));
	return 0;
}

int kc_systemd_unit_set(const char *name, bool user, const struct kc_unit_props *props,
			kc_error_t *err)
{
	sd_cleanup(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
	sd_cleanup(sd_bus_message_unrefp) sd_bus_message *m = NULL;
	sd_cleanup(sd_bus_error_free) sd_bus_error error = SD_BUS_ERROR_NULL;
	int rc;

	if (props->len == 0)
		return 0;
	if (bus_open(user, &bus, err) < 0)
		return -1;
	rc = sd_bus_message_new_method_call(bus, &m, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER,
					    "SetUnitProperties");
	if (rc >= 0)
		rc = sd_bus_message_append(m, "sb", name, 1);
	if (rc >= 0)
		rc = sd_bus_message_open_container(m, 'a', "(sv)");
	if (rc >= 0)
		rc = append_props(m, props);
	if (rc >= 0)
		rc = sd_bus_message_close_container(m);
	if (rc >= 0)
		rc = sd_bus_call(bus, m, JOB_TIMEOUT_USEC, &error, NULL);
	if (rc < 0)
		return bus_fail(err, rc, &error, "set the properties of", name, user);
	return 0;
}

int kc_systemd_unit_forget(const char *name, bool user, kc_error_t *err)
{
	sd_cleanup(sd_bus_flush_close_unrefp) sd_bus *bus = NULL;
	int rc;

	if (bus_open(user, &bus, err) < 0)
		return -1;
	/* no reply awaited: sent when the connection is flushed and closed */
	rc = sd_bus_call_method_async(bus, NULL, SYSTEMD_DEST, SYSTEMD_PATH, SYSTEMD_MANAGER,
				      "ResetFailedUnit", NULL, NULL, "s", name);
	if (rc < 0)
		return kc_error_set(err, -rc, "reset %s through %s", name, manager_name(user));
	return 0;
}

#else /* !KC_HAVE_SYSTEMD */

static int not_built(kc_error_t *err)
{
	return kc_error_set(err, 0, "this kcrun was built without the systemd cgroup driver "
			    "(no libsystemd: the static build); use --cgroup-manager cgroupfs, or "
			    "the distribution's package");
}

bool kc_systemd_built(void)
{
	return false;
}

int kc_systemd_require(kc_error_t *err)
{
	return not_built(err);
}

int kc_systemd_scope_start(const struct kc_systemd_unit *unit, const struct kc_unit_props *props,
			   bool user, struct kc_systemd_scope *scope, kc_error_t *err)
{
	(void)unit;
	(void)props;
	(void)user;
	scope->holder = 0;
	scope->holder_fd = -1;
	scope->cgroup = NULL;
	return not_built(err);
}

int kc_systemd_unit_forget(const char *name, bool user, kc_error_t *err)
{
	(void)name;
	(void)user;
	return not_built(err);
}

int kc_systemd_unit_stop(const char *name, bool user, kc_error_t *err)
{
	(void)name;
	(void)user;
	return not_built(err);
}

int kc_systemd_unit_set(const char *name, bool user, const struct kc_unit_props *props,
			kc_error_t *err)
{
	(void)name;
	(void)user;
	(void)props;
	return not_built(err);
}

#endif
