/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of network.c, all inside a forked child that made its own
 * network namespaces: "host" (where a veth pair is created) and
 * "container" (what the stub kc_container_socket() opens sockets in).
 * The host's real network namespace is never touched. */
#include "tap.h"
#include "stub_kcontainer.h"
#include "src/lib/network.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

enum network_check {
	CHECK_SETUP_OK,
	CHECK_LO_UP,
	CHECK_RENAMED,
	CHECK_GONE_FROM_HOST,
	CHECK_ADDRESS_KEPT,
	CHECK_UP_AGAIN,
	CHECK_MISSING_DEVICE_ERROR,
	CHECK_BAD_NAME_ERROR,
	CHECK_PATH_NETNS_NOOP,
	CHECK_NO_NETNS_NOOP,
	CHECK__COUNT
};

static const char *const check_names[CHECK__COUNT] = {
	[CHECK_SETUP_OK] = "network: setup with a netDevice succeeds",
	[CHECK_LO_UP] = "network: lo is up in the container's netns",
	[CHECK_RENAMED] = "network: netDevice moved and renamed (kch0 -> eth7)",
	[CHECK_GONE_FROM_HOST] = "network: the device left the host netns",
	[CHECK_ADDRESS_KEPT] = "network: its permanent address is preserved",
	[CHECK_UP_AGAIN] = "network: it is up again, as it was on the host",
	[CHECK_MISSING_DEVICE_ERROR] = "network: a missing host device is an error naming it",
	[CHECK_BAD_NAME_ERROR] = "network: an invalid name is refused",
	[CHECK_PATH_NETNS_NOOP] = "network: a netns with a path is left alone",
	[CHECK_NO_NETNS_NOOP] = "network: no network namespace entry, nothing done",
};

static int link_flags(const char *ifname)
{
	struct ifreq req = { 0 };
	int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), flags = -1;

	snprintf(req.ifr_name, sizeof(req.ifr_name), "%s", ifname);
	if (sock >= 0 && ioctl(sock, SIOCGIFFLAGS, &req) == 0)
		flags = req.ifr_flags;
	if (sock >= 0)
		close(sock);
	return flags;
}

static bool has_ipv4(const char *ifname, const char *expected)
{
	char command[128];

	snprintf(command, sizeof(command), "ip -4 -o addr show dev %s | grep -q ' %s/24 '", ifname,
		 expected);
	return system(command) == 0;
}

/* A veth pair is only created where that cannot load a module into the
 * host kernel: no module support at all, or veth already loaded. */
static bool veth_without_module_load(void)
{
	return access("/proc/modules", F_OK) != 0 ||
	       system("grep -q '^veth ' /proc/modules") == 0;
}

static void run_checks(bool results[CHECK__COUNT])
{
	struct oci_namespace netns = { .type = OCI_NS_NETWORK };
	struct oci_net_device device = { .host_name = "kch0", .name = "eth7" };
	struct oci_linux linux_ = { .namespaces = &netns, .namespaces_len = 1,
				    .net_devices = &device, .net_devices_len = 1 };
	struct oci_spec spec = { .oci_version = "1.2.0", .linux_ = &linux_ };
	kc_error_t err = NULL;
	int host_netns, container_netns, rc;

	if (unshare(CLONE_NEWNET) < 0)
		return;
	host_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (unshare(CLONE_NEWNET) < 0)
		return;
	container_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (setns(host_netns, CLONE_NEWNET) < 0)
		return;
	if (!veth_without_module_load() ||
	    system("ip link add kch0 type veth peer name kch1 && ip addr add 10.99.0.1/24 dev kch0 && "
		   "ip link set kch0 up") != 0)
		printf("# could not create a veth pair\n");
	stub_container_netns_fd = container_netns;

	rc = kc_network_setup(3, &spec, &err);
	if (rc < 0)
		printf("# setup: %s\n", err->msg);
	kc_error_free(&err);
	results[CHECK_SETUP_OK] = rc == 0;
	results[CHECK_GONE_FROM_HOST] = if_nametoindex("kch0") == 0;

	device.host_name = "nonexistent0";
	rc = kc_network_setup(3, &spec, &err);
	results[CHECK_MISSING_DEVICE_ERROR] =
		rc < 0 && strstr(err->msg, "linux.netDevices.\"nonexistent0\": find the device on the host");
	if (err)
		printf("# %s\n", err->msg);
	kc_error_free(&err);
	device = (struct oci_net_device){ .host_name = "kch1", .name = "bad/name" };
	rc = kc_network_setup(3, &spec, &err);
	results[CHECK_BAD_NAME_ERROR] = rc < 0 && strstr(err->msg, "is not a valid interface name");
	kc_error_free(&err);

	stub_container_netns_fd = -1; /* any socket attempt would now fail */
	netns.path = "/proc/1/ns/net";
	results[CHECK_PATH_NETNS_NOOP] = kc_network_setup(3, &spec, &err) == 0;
	kc_error_free(&err);
	linux_.namespaces_len = 0;
	results[CHECK_NO_NETNS_NOOP] = kc_network_setup(3, &spec, &err) == 0;
	kc_error_free(&err);

	if (setns(container_netns, CLONE_NEWNET) < 0)
		return;
	results[CHECK_LO_UP] = link_flags("lo") >= 0 && (link_flags("lo") & IFF_UP);
	results[CHECK_RENAMED] = if_nametoindex("eth7") > 0 && if_nametoindex("kch0") == 0;
	results[CHECK_ADDRESS_KEPT] = has_ipv4("eth7", "10.99.0.1");
	results[CHECK_UP_AGAIN] = link_flags("eth7") >= 0 && (link_flags("eth7") & IFF_UP);
}

void test_network(void)
{
	bool results[CHECK__COUNT] = { false };
	int pipe_fds[2], status, i;
	pid_t child;

	if (geteuid() != 0 || system("command -v ip >/dev/null") != 0 || !veth_without_module_load()) {
		for (i = 0; i < CHECK__COUNT; i++)
			printf("ok %d - %s # SKIP needs root, iproute2 and veth without loading a module\n",
			       ++tap_count, check_names[i]);
		return;
	}
	if (pipe(pipe_fds) < 0) {
		TAP_OK(0, "network: pipe: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	child = fork();
	if (child == 0) {
		close(pipe_fds[0]);
		run_checks(results);
		if (write(pipe_fds[1], results, sizeof(results)) != sizeof(results))
			_exit(1);
		fflush(stdout);
		_exit(0);
	}
	close(pipe_fds[1]);
	if (read(pipe_fds[0], results, sizeof(results)) != sizeof(results))
		memset(results, 0, sizeof(results));
	close(pipe_fds[0]);
	waitpid(child, &status, 0);
	for (i = 0; i < CHECK__COUNT; i++)
		TAP_OK(results[i], "%s", check_names[i]);
}
