#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Kubernetes' path to kcrun: containerd's CRI plugin with a `kcrun` runtime
# handler (runtime_type io.containerd.runc.v2, BinaryName /usr/bin/kcrun:
# what a RuntimeClass with `handler: kcrun` selects on a node), driven as the
# kubelet drives it, through the CRI's gRPC API.  Debian 12 has no crictl:
# tests/helpers/cri-client is the project's own small client.  Debian guest
# only (vm/run --debian; the config is vm/build-debian's): a pod on a CNI
# bridge network, a container with a memory limit in it, exec, stop, remove,
# and proof that kcrun ran the pod's sandbox and its container.
#   vm/run --debian -- bats /usr/lib/kcrun/tests/bats/cri.bats

! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

load helpers
load engines

IMAGE=docker.io/library/busybox:latest
# vm/build-debian's sandbox_image: busybox sleeping, as registry.k8s.io/pause
# would (the guest has no registry)
PAUSE_IMAGE=localhost/kcrun-pause:1
HANDLER=kcrun
RT=kcrun
# the runc shim's root for the CRI's namespace, k8s.io
STATE=/run/containerd/runc/k8s.io
CGROUP_PARENT=/kcrun-cri-pods
# the subnet of vm/build-debian's CNI network for the CRI
SUBNET_PREFIX=10.89.77.

cri() {
	timeout 400 "$BATS_TEST_DIRNAME/../helpers/cri-client" "$@"
}

cri_up() {
	cri version >/dev/null 2>&1
}

setup_file() {
	command -v containerd >/dev/null || skip "no containerd here"
	command -v "$RT" >/dev/null || skip "no $RT here"
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	[ -r "$BUSYBOX_IMAGE_TAR" ] || skip "no image archive at $BUSYBOX_IMAGE_TAR"
	python3 -c 'import grpc' 2>/dev/null || skip "no python3-grpcio here"
	start_daemon containerd "$BATS_FILE_TMPDIR/containerd.log" containerd
	if ! wait_for 180 cri_up; then
		cat "$BATS_FILE_TMPDIR/containerd.log" >&2
		return 1
	fi
	docker_archive "$BUSYBOX_IMAGE_TAR" "$BATS_FILE_TMPDIR/busybox.tar" "$IMAGE"
	docker_archive "$BUSYBOX_IMAGE_TAR" "$BATS_FILE_TMPDIR/pause.tar" "$PAUSE_IMAGE" \
		'.config.Entrypoint = ["sleep", "2147483647"] | .config.Cmd = null'
	ctr -n k8s.io images import "$BATS_FILE_TMPDIR/busybox.tar" >/dev/null
	ctr -n k8s.io images import "$BATS_FILE_TMPDIR/pause.tar" >/dev/null
}

# Every pod a test left goes (its containers with it), then containerd.
teardown_file() {
	local pod
	if cri_up; then
		for pod in $(cri pods); do
			cri stopp "$pod" >/dev/null 2>&1
			cri rmp "$pod" >/dev/null 2>&1
		done
	fi
	stop_daemon containerd
	rmdir "/sys/fs/cgroup$CGROUP_PARENT" 2>/dev/null
	return 0
}

setup() {
	cri_up || skip "containerd's CRI is not serving"
	LOGS=$(mktemp -d "$BATS_TEST_TMPDIR/logs.XXXXXX")
}

# run_pod NAME: RunPodSandbox with the kcrun handler; the pod's id in POD.
run_pod() {
	POD_ARGS=("$1" "uid-$1" default "$CGROUP_PARENT" "$LOGS")
	POD=$(cri runp "${POD_ARGS[@]:0:3}" "$HANDLER" "$CGROUP_PARENT" "$LOGS")
	[ -n "$POD" ]
}

# create_container NAME LOG MEMORY CMD...: CreateContainer in POD.
create_container() {
	local name=$1 log=$2 memory=$3
	shift 3
	cri create "$POD" "$name" "$IMAGE" "$log" "$memory" "${POD_ARGS[@]}" -- "$@"
}

pid_in() {
	"$RT" --root "$STATE" state "$1" | jq -r .pid
}

netns_of() {
	readlink "/proc/$1/ns/net"
}

@test "CRI: Version names containerd and the CRI's v1 API" {
	run cri version
	[ "$status" -eq 0 ]
	[[ "$output" == "containerd "*" v1" ]]
}

@test "CRI: a pod on a CNI network and a container with a memory limit, exec, stop, remove: kcrun ran both" {
	run_pod kc-pod1
	# the sandbox is a kcrun container, a kernel object, under the shim's root
	held_by "$RT" "$STATE" "$POD"
	ip=$(cri podip "$POD")
	[[ "$ip" == "$SUBNET_PREFIX"* ]]

	CID=$(create_container kc-app app.log 67108864 sh -c 'echo started; exec sleep 100000')
	[ "$(cri state "$CID")" = CREATED ]
	cri start "$CID"
	[ "$(cri state "$CID")" = RUNNING ]
	held_by "$RT" "$STATE" "$CID"
	# its output reaches the CRI's log ("<time> stdout F started")
	wait_for 60 grep -q ' stdout F started$' "$LOGS/app.log"

	# in the pod: the sandbox's network namespace, its address, its hostname
	pid=$(pid_in "$CID")
	sandbox_pid=$(pid_in "$POD")
	[ "$(netns_of "$pid")" = "$(netns_of "$sandbox_pid")" ]
	run cri exec "$CID" 60 sh -c 'hostname; ip -4 -o addr show dev eth0'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = kc-pod1 ]
	[[ "${lines[1]}" == *" inet $ip/"* ]]
	# ExecSync's exit status is the command's
	run cri exec "$CID" 60 sh -c 'echo out; echo err >&2; exit 3'
	[ "$status" -eq 3 ]
	[[ "$output" == *out* ]]

	# the limit landed in the container's cgroup, under the pod's parent
	cg=$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	[ "$cg" = "$CGROUP_PARENT/$CID" ]
	[ "$(cat "/sys/fs/cgroup$cg/memory.max")" = 67108864 ]

	cri stop "$CID" 10
	[ "$(cri state "$CID")" = EXITED ]
	dead "$pid"
	cri rm "$CID"
	gone_from "$RT" "$STATE" "$CID"
	[ ! -e "/sys/fs/cgroup$cg" ]

	cri stopp "$POD"
	cri rmp "$POD"
	gone_from "$RT" "$STATE" "$POD"
	dead "$sandbox_pid"
	[ -z "$(cri pods)" ]
	[ ! -e "/sys/fs/cgroup$CGROUP_PARENT/$POD" ]
}

@test "CRI: a container whose command is missing fails to start with kcrun's error and leaves nothing" {
	run_pod kc-pod2
	CID=$(create_container kc-bad bad.log 0 no-such-command)
	run cri start "$CID"
	[ "$status" -ne 0 ]
	[[ "$output" == *"executable file not found"* ]]
	cri rm "$CID"
	gone_from "$RT" "$STATE" "$CID"
	# the pod is untouched
	held_by "$RT" "$STATE" "$POD"
	cri stopp "$POD"
	cri rmp "$POD"
	gone_from "$RT" "$STATE" "$POD"
}

@test "CRI with SystemdCgroup = true (kubeadm's default): the pod's slice as the kubelet names it, each container a scope with its limit" {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	local slice=kubepods-besteffort-podkc3.slice pid cg unit
	# the kubelet's systemd driver: the pod's cgroup parent is a slice
	POD_ARGS=(kc-pod3 uid-kc-pod3 default "$slice" "$LOGS")
	POD=$(cri runp kc-pod3 uid-kc-pod3 default kcrun-systemd "$slice" "$LOGS")
	held_by "$RT" "$STATE" "$POD"
	[ "$(systemctl show -p ActiveState --value "cri-containerd-$POD.scope")" = active ]
	CID=$(create_container kc-app3 app3.log 67108864 sleep 100000)
	cri start "$CID"
	held_by "$RT" "$STATE" "$CID"
	unit=cri-containerd-$CID.scope
	[ "$(systemctl show -p Slice --value "$unit")" = "$slice" ]
	[ "$(systemctl show -p MemoryMax --value "$unit")" = 67108864 ]
	pid=$(pid_in "$CID")
	cg=$(sed -n 's/^0:://p' "/proc/$pid/cgroup")
	[ "$cg" = "/kubepods.slice/kubepods-besteffort.slice/$slice/$unit" ]
	[ "$(cat "/sys/fs/cgroup$cg/memory.max")" = 67108864 ]
	cri stop "$CID" 10
	cri rm "$CID"
	gone_from "$RT" "$STATE" "$CID"
	wait_for 60 unit_unloaded "$unit"
	cri stopp "$POD"
	cri rmp "$POD"
	gone_from "$RT" "$STATE" "$POD"
	wait_for 60 unit_unloaded "cri-containerd-$POD.scope"
	systemctl stop kubepods.slice
}
