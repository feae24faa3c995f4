#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# podman --runtime kcrun, in the Debian guest (vm/run --debian); skipped
# where podman or the busybox image archive is missing:
#   vm/run --debian --share DIR -- env BUSYBOX_IMAGE_TAR=/mnt/share/busybox.tar \
#       bats /usr/lib/kcrun/tests/bats/podman.bats
# (DIR holding $KCRUN_CACHE/images/busybox.tar).  PODMAN_RUNTIME=crun (or
# runc) runs the same tests against another runtime.

# `run -127` needs bats 1.5 (Debian 12 has 1.8): no BW02 warnings
! type bats_require_minimum_version >/dev/null 2>&1 || bats_require_minimum_version 1.5.0

load helpers
load engines

IMAGE=localhost/busybox:latest
RT=${PODMAN_RUNTIME:-kcrun}

setup() {
	command -v podman >/dev/null || skip "no podman here"
	command -v "$RT" >/dev/null || skip "no $RT here"
	[ -e /proc/containers ] || skip "no container objects in this kernel"
	if ! podman image exists "$IMAGE"; then
		tar=${BUSYBOX_IMAGE_TAR:-/mnt/share/busybox.tar}
		[ -r "$tar" ] || skip "no image archive at $tar"
		podman load -q -i "$tar" >/dev/null
	fi
}

# Containers of a failed test (all are named kc-*) go, so that the next run
# (or the same file against another runtime) can reuse the names.
teardown() {
	podman ps -aq --filter name='^kc-' | xargs -r podman rm -f -t 0 >/dev/null 2>&1 || true
}

pd() {
	timeout 120 podman --runtime "$RT" "$@"
}

# holds NAME: the runtime under test holds podman's container NAME (podman
# gives a runtime the root /run/<its name>), and for kcrun the kernel has
# its container object: the proof that podman ran RT, not its default.
holds() {
	held_by "$RT" "/run/$RT" "$(podman inspect -f '{{.Id}}' "$1")"
}

# gone NAME-ID: podman's container of that id left no state and no object.
gone() {
	gone_from "$RT" "/run/$RT" "$1"
}

# logs_are NAME TEXT: podman logs NAME prints exactly TEXT.
logs_are() {
	[ "$(podman logs "$1" 2>&1)" = "$2" ]
}

@test "podman run --rm prints the output and exits 0" {
	new_gate
	gated 'holds kc-rm' pd run --rm --network none --name kc-rm -v "$GATE:/gate" "$IMAGE" \
		sh -c "$GATE_SH" gate echo hi-from-podman
	[ "$status" -eq 0 ]
	[[ "$output" == *hi-from-podman* ]]
	run podman inspect kc-rm
	[ "$status" -ne 0 ]
}

@test "podman run: exit status and a missing command (127)" {
	run pd run --rm --network none "$IMAGE" sh -c 'exit 5'
	[ "$status" -eq 5 ]
	run -127 pd run --rm --network none "$IMAGE" no-such-command
	[ "$status" -eq 127 ]
	# runc: `executable file not found in $PATH`; crun: `executable file
	# \`no-such-command\` not found in $PATH`
	[[ "$output" == *"executable file"*"not found in \$PATH"* ]]
}

@test "podman run -d, exec, pause/unpause, top, rm -f" {
	pd run -d --name kc-p1 --network none "$IMAGE" sleep 100
	holds kc-p1
	run pd exec kc-p1 echo exec-ok
	[ "$output" = exec-ok ]
	pd pause kc-p1
	[ "$(podman inspect -f '{{.State.Status}}' kc-p1)" = paused ]
	pd unpause kc-p1
	run pd top kc-p1
	[[ "$output" == *"sleep 100"* ]]
	id=$(podman inspect -f '{{.Id}}' kc-p1)
	[ -n "$id" ]
	pd rm -f -t 0 kc-p1
	gone "$id"
}

@test "podman run -t (console socket) and exec -t" {
	run pd run -t --rm --network none "$IMAGE" sh -c 'tty'
	[ "$status" -eq 0 ]
	[[ "$output" == */dev/pts/* ]]
	pd run -d --name kc-xt --network none "$IMAGE" sleep 100
	run pd exec -t kc-xt tty
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == /dev/pts/* ]]
	run pd exec kc-xt tty
	[ "$status" -ne 0 ]
	[[ "$output" == *"not a tty"* ]]
	pd rm -f -t 0 kc-xt
}

@test "podman run --user and --memory" {
	new_gate
	gated 'holds kc-u' pd run --rm --network none --user 1000 --name kc-u -v "$GATE:/gate" \
		"$IMAGE" sh -c "$GATE_SH" gate id -u
	[ "$status" -eq 0 ]
	[[ "$output" == *1000* ]]
	run pd run --rm --network none --memory 64m "$IMAGE" cat /sys/fs/cgroup/memory.max
	[[ "$output" == *67108864* ]]
}

# Modelled on podman's test/system/*.bats: what podman shows of the runtime.

@test "podman run: exit codes 0, 1, 32, 125, 126 (a directory) and 127" {
	run pd run --rm "$IMAGE" true
	[ "$status" -eq 0 ]
	run pd run --rm "$IMAGE" false
	[ "$status" -eq 1 ]
	run pd run --rm "$IMAGE" sh -c 'exit 32'
	[ "$status" -eq 32 ]
	run pd run --rm --no-such-flag "$IMAGE" true
	[ "$status" -eq 125 ]
	run -127 pd run --rm "$IMAGE" /no/such/command
	[ "$status" -eq 127 ]
	[[ "$output" == *"/no/such/command"*[Nn]"o such file or directory"* ]]
	run pd run --rm "$IMAGE" /etc
	[ "$status" -eq 126 ]
	[[ "$output" == *"permission denied"* || "$output" == *"Permission denied"* ]]
	run pd run --rm "$IMAGE" /etc/passwd
	[ "$status" -eq 126 ]
}

@test "podman exec: exit codes 3, 126 and 127; exec into a created one refused" {
	pd run -d --name kc-ex "$IMAGE" sleep 100
	holds kc-ex
	run pd exec kc-ex sh -c 'exit 3'
	[ "$status" -eq 3 ]
	run pd exec kc-ex /etc
	[ "$status" -eq 126 ]
	run -127 pd exec kc-ex /no/such
	[ "$status" -eq 127 ]
	run -127 pd exec kc-ex nosuchcmd
	[ "$status" -eq 127 ]
	run pd exec -u 1000:1001 -w /tmp -e KCX=y kc-ex sh -c 'echo $(id -u):$(id -g) $(pwd) $KCX'
	[ "$output" = "1000:1001 /tmp y" ]
	run sh -c "echo piped | podman --runtime $RT exec -i kc-ex cat"
	[ "$output" = piped ]
	pd rm -f -t 0 kc-ex
	pd create --name kc-ex2 "$IMAGE" true
	run pd exec kc-ex2 true
	[ "$status" -eq 255 ]
	[[ "$output" == *"can only create exec sessions on running containers"* ]]
	pd rm kc-ex2
}

@test "podman run --user, --workdir, --env, --hostname, stdin with -i" {
	run pd run --rm --user 1000:1001 "$IMAGE" id
	[[ "$output" == "uid=1000(1000) gid=1001(1001)"* ]]
	run pd run --rm --workdir /tmp "$IMAGE" pwd
	[ "$output" = /tmp ]
	run pd run --rm --workdir /newdir/sub "$IMAGE" pwd
	[ "$status" -eq 126 ]
	[[ "$output" == *"does not exist"* ]]
	run pd run --rm --env FOO=bar --env 'A=b c' "$IMAGE" sh -c 'echo "$FOO/$A/$container"'
	[ "$output" = "bar/b c/podman" ]
	run pd run --rm --hostname kchost "$IMAGE" sh -c 'hostname; cat /etc/hostname'
	[ "$output" = "$(printf 'kchost\nkchost')" ]
	run sh -c "printf 'a\nb\n' | podman --runtime $RT run --rm -i $IMAGE wc -l"
	[ "$output" = 2 ]
}

@test "podman run --read-only: / refuses writes, /tmp /var/tmp /run /dev/shm take them" {
	run pd run --rm --read-only "$IMAGE" sh -c 'touch /x 2>&1; echo rc=$?'
	[[ "$output" == *"Read-only file system"*"rc=1"* ]]
	run pd run --rm --read-only "$IMAGE" sh -c \
		'touch /tmp/x /var/tmp/x /run/x /dev/shm/x && echo writable'
	[ "$status" -eq 0 ]
	[ "$output" = writable ]
	# without the tmpfs mounts, /tmp is read-only too (and /etc/hosts,
	# missing from the image, still gets its mount point)
	run pd run --rm --read-only --read-only-tmpfs=false "$IMAGE" sh -c 'touch /tmp/x 2>&1; echo rc=$?'
	[ "$status" -eq 0 ]
	[[ "$output" == *"rc=1" ]]
	mkdir -p /tmp/kc-rovol
	run pd run --rm --read-only -v /tmp/kc-rovol:/data "$IMAGE" touch /data/ok
	[ "$status" -eq 0 ]
	[ -e /tmp/kc-rovol/ok ]
	rm -rf /tmp/kc-rovol
}

@test "podman run --tmpfs and -v (bind rw/ro, named volume)" {
	run pd run --rm --tmpfs /mnt/t:size=1m,mode=1777 "$IMAGE" sh -c \
		'grep " /mnt/t " /proc/mounts | cut -d" " -f3; stat -c %a /mnt/t'
	[ "$output" = "$(printf 'tmpfs\n1777')" ]
	mkdir -p /tmp/kc-hv && echo hostfile > /tmp/kc-hv/f
	run pd run --rm -v /tmp/kc-hv:/data "$IMAGE" sh -c 'cat /data/f; echo w > /data/g'
	[ "$output" = hostfile ]
	[ "$(cat /tmp/kc-hv/g)" = w ]
	run pd run --rm -v /tmp/kc-hv:/data:ro "$IMAGE" sh -c 'touch /data/h 2>&1; echo rc=$?'
	[[ "$output" == *"rc=1" ]]
	rm -rf /tmp/kc-hv
	pd volume create kc-vol
	pd run --rm -v kc-vol:/vol "$IMAGE" sh -c 'echo x > /vol/x'
	run pd run --rm -v kc-vol:/vol "$IMAGE" cat /vol/x
	[ "$output" = x ]
	pd volume rm kc-vol
}

@test "podman run --cap-add/--cap-drop, --privileged, no-new-privileges" {
	run pd run --rm --cap-drop all "$IMAGE" grep CapEff /proc/self/status
	[[ "$output" == *0000000000000000 ]]
	run pd run --rm --cap-drop all --cap-add NET_BIND_SERVICE "$IMAGE" grep CapEff /proc/self/status
	[[ "$output" == *0000000000000400 ]]
	run pd run --rm --cap-drop CHOWN "$IMAGE" sh -c 'chown 1 /etc/passwd 2>&1; echo rc=$?'
	[[ "$output" == *"rc=1" ]]
	run pd run --rm --cap-add SYS_ADMIN "$IMAGE" grep CapEff /proc/self/status
	[[ "$output" == *00000000802405fb ]]
	# --privileged: every capability, no seccomp, the host's devices
	run pd run --rm --privileged "$IMAGE" sh -c \
		'grep -E "CapEff|Seccomp:" /proc/self/status; ls /dev | wc -l'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(grep CapBnd /proc/self/status | sed 's/CapBnd/CapEff/')" ]
	# no filter: Seccomp 0 (a glob *Seccomp:*0* took any later zero)
	[ "${lines[1]}" = "$(printf 'Seccomp:\t0')" ]
	[ "${lines[2]}" -gt 50 ]
	run pd run --rm --privileged --read-only "$IMAGE" sh -c 'touch /x 2>&1; echo rc=$?'
	[[ "$output" == *"rc=1" ]]
	run pd run --rm "$IMAGE" grep NoNewPrivs /proc/self/status
	[[ "$output" == *0 ]]
	run pd run --rm --security-opt no-new-privileges "$IMAGE" grep NoNewPrivs /proc/self/status
	[[ "$output" == *1 ]]
}

@test "podman run --device (podman's fileMode carries S_IFCHR), the /dev links" {
	run pd run --rm --device /dev/null:/dev/mynull "$IMAGE" sh -c \
		'stat -c "%F %t,%T %a" /dev/mynull; echo x > /dev/mynull && echo written'
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'character special file 1,3 666\nwritten')" ]
	run pd run --rm "$IMAGE" sh -c \
		'for l in fd stdin stdout stderr ptmx; do readlink /dev/$l; done'
	[ "$(echo $output)" = "/proc/self/fd /proc/self/fd/0 /proc/self/fd/1 /proc/self/fd/2 pts/ptmx" ]
}

@test "podman run --pids-limit, --memory, --cpus, --ulimit" {
	run pd run --rm --pids-limit 10 "$IMAGE" cat /sys/fs/cgroup/pids.max
	[ "$output" = 10 ]
	run pd run --rm --pids-limit -1 "$IMAGE" cat /sys/fs/cgroup/pids.max
	[ "$output" = max ]
	run pd run --rm --memory 64m --memory-swap 128m "$IMAGE" \
		cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory.swap.max
	[ "$output" = "$(printf '67108864\n67108864')" ]
	run pd run --rm --cpus 0.5 "$IMAGE" cat /sys/fs/cgroup/cpu.max
	[ "$output" = "50000 100000" ]
	run pd run --rm --cpu-shares 512 "$IMAGE" cat /sys/fs/cgroup/cpu.weight
	[ "$output" = 20 ]
	run pd run --rm --ulimit nofile=100:200 --ulimit nproc=50:60 "$IMAGE" sh -c \
		'echo $(ulimit -n) $(ulimit -Hn) $(ulimit -u) $(ulimit -Hu)'
	[ "$output" = "100 200 50 60" ]
}

@test "podman run --init, --network none and host" {
	run pd run --rm --init "$IMAGE" sh -c 'cat /proc/1/cmdline | tr "\0" " "'
	[[ "$output" == "/run/podman-init -- sh -c"* ]]
	pd run -d --init --name kc-init "$IMAGE" sleep 100
	pd stop -t 5 kc-init
	[ "$(podman inspect -f '{{.State.ExitCode}}' kc-init)" = 143 ]
	pd rm kc-init
	# the host has more than lo (dummy0), or "only lo" proves nothing
	[ "$(grep -c : /proc/net/dev)" -gt 1 ]
	run pd run --rm --network none "$IMAGE" sh -c 'grep -c : /proc/net/dev'
	[ "$output" = 1 ]
	run pd run --rm --network host "$IMAGE" sh -c 'grep -c : /proc/net/dev'
	[ "$output" = "$(grep -c : /proc/net/dev)" ]
}

@test "podman stop (SIGTERM, then SIGKILL; --stop-signal), kill -s, wait, logs" {
	pd run -d --name kc-st "$IMAGE" sleep 100
	pd stop -t 1 kc-st
	[ "$(podman inspect -f '{{.State.Status}} {{.State.ExitCode}}' kc-st)" = "exited 137" ]
	pd rm kc-st
	# each signal waits for the trap to be set ("ready" in the logs)
	pd run -d --name kc-tr "$IMAGE" sh -c \
		'trap "echo got-term; exit 3" TERM; echo ready; while :; do sleep 0.2; done'
	wait_for 60 logs_are kc-tr ready
	pd stop -t 10 kc-tr
	[ "$(podman inspect -f '{{.State.ExitCode}}' kc-tr)" = 3 ]
	run pd logs kc-tr
	[ "$output" = "$(printf 'ready\ngot-term')" ]
	pd rm kc-tr
	pd run -d --stop-signal USR1 --name kc-ss "$IMAGE" sh -c \
		'trap "exit 4" USR1; echo ready; while :; do sleep 0.2; done'
	wait_for 60 logs_are kc-ss ready
	pd stop kc-ss
	[ "$(podman inspect -f '{{.State.ExitCode}}' kc-ss)" = 4 ]
	pd rm kc-ss
	pd run -d --name kc-k "$IMAGE" sh -c \
		'trap "echo got-hup" HUP; echo ready; while :; do sleep 0.2; done'
	wait_for 60 logs_are kc-k ready
	pd kill -s HUP kc-k
	wait_for 60 logs_are kc-k "$(printf 'ready\ngot-hup')"
	pd kill kc-k
	run pd wait kc-k
	[ "$output" = 137 ]
	run pd logs kc-k
	[ "$output" = "$(printf 'ready\ngot-hup')" ]
	pd rm kc-k
	pd run -d --name kc-w "$IMAGE" sh -c 'sleep 1; exit 7'
	run pd wait kc-w
	[ "$output" = 7 ]
	pd rm kc-w
}

@test "podman rm, ps, inspect, pause of a running container" {
	pd run -d --name kc-r "$IMAGE" sleep 100
	id=$(podman inspect -f '{{.Id}}' kc-r)
	[ -d /run/"$RT"/"$id" ]
	run pd ps --format '{{.Names}} {{.Command}}' --filter name=kc-r
	[ "$output" = "kc-r sleep 100" ]
	run podman inspect -f '{{.State.Status}} {{.State.Running}} {{.OCIRuntime}}' kc-r
	[ "$output" = "running true $RT" ]
	[ "$(podman inspect -f '{{.State.Pid}}' kc-r)" -gt 1 ]
	run pd rm kc-r
	[ "$status" -eq 2 ]
	pd pause kc-r
	run pd exec kc-r true
	[ "$status" -ne 0 ]
	pd rm -f -t 0 kc-r
	[ ! -e /run/"$RT"/"$id" ]
	run pd rm kc-r
	[ "$status" -eq 1 ]
}

@test "podman top, stats --no-stream, restart, container cleanup" {
	pd run -d --name kc-t "$IMAGE" sh -c 'echo boot; sleep 100; echo never'
	run pd top kc-t user pid args
	[[ "${lines[1]}" == "root"*" 1 "*"sh -c echo boot; sleep 100; echo never"* ]]
	run pd stats --no-stream --format '{{.Name}} {{.PIDs}}' kc-t
	[ "$status" -eq 0 ]
	[ "$output" = "kc-t 2" ]
	pd restart -t 1 kc-t
	[ "$(podman inspect -f '{{.State.Status}}' kc-t)" = running ]
	# the second "boot" is written by the restarted process, some time later
	wait_for 60 logs_are kc-t "$(printf 'boot\nboot')"
	pd rm -f -t 0 kc-t
	pd run --name kc-c "$IMAGE" true
	pd container cleanup kc-c
	[ "$(podman inspect -f '{{.State.Status}}' kc-c)" = exited ]
	pd container cleanup --rm kc-c
	run podman container exists kc-c
	[ "$status" -eq 1 ]
}

@test "podman run -it and exec -it (a pty), attach" {
	command -v script >/dev/null || skip "no script(1)"
	run script -qec "podman --runtime $RT run -it --rm $IMAGE sh -c 'tty; exit 4'" /dev/null
	[ "$status" -eq 4 ]
	[[ "$output" == */dev/pts/0* ]]
	# the output comes only after a line from attach's stdin: attach
	# cannot miss it (a sleep 5 head start could)
	pd run -d -i --name kc-a "$IMAGE" sh -c 'read line; echo "attached-out $line"; exit 3'
	run sh -c "echo go | podman --runtime $RT attach kc-a"
	[[ "$output" == *"attached-out go"* ]]
	[ "$(podman inspect -f '{{.State.ExitCode}}' kc-a)" = 3 ]
	pd run -d --name kc-it "$IMAGE" sleep 100
	run script -qec "podman --runtime $RT exec -it kc-it sh -c 'tty; exit 5'" /dev/null
	[ "$status" -eq 5 ]
	[[ "$output" == */dev/pts/* ]]
	pd rm -f -t 0 kc-it kc-a
}

# podman 4.3's "podman kill - test signal handling in containers": the
# runtime's callers may ignore SIGPIPE; the process must start with every
# signal at its default (a shell cannot trap a signal that was ignored when
# it started).
@test "podman kill -s 13 reaches a trap: no signal ignored or blocked is inherited" {
	pd run -d --name kc-sig --network none "$IMAGE" \
		sh -c 'trap "echo got-13" 13; echo ready; while :; do sleep 0.2; done'
	for _ in $(seq 100); do [[ "$(podman logs kc-sig 2>&1)" == *ready* ]] && break; sleep 0.2; done
	pd kill -s 13 kc-sig
	for _ in $(seq 100); do [[ "$(podman logs kc-sig 2>&1)" == *got-13* ]] && break; sleep 0.2; done
	podman logs kc-sig
	[[ "$(podman logs kc-sig 2>&1)" == *got-13* ]]
	pd rm -f -t 0 kc-sig
}

# podman 4.3's "podman run --timeout - basic test": conmon kills the
# process after 10 s and podman reports 255 (exit code -1), read back
# through the runtime.
@test "podman run --timeout: exit status 255 and State.ExitCode -1 after conmon's kill" {
	t0=$SECONDS
	run pd run --name kc-to --network none --timeout 10 "$IMAGE" sleep 60
	t1=$SECONDS
	echo "$output"
	[ "$status" -eq 255 ]
	[ $((t1 - t0)) -ge 8 ]
	[ $((t1 - t0)) -le 40 ]
	run podman inspect --format '{{.State.Status}} {{.State.ExitCode}}' kc-to
	echo "$output"
	[[ "$output" == "exited -1" || "$output" == "stopped -1" ]]
	pd rm kc-to
}

@test "podman on a systemd host: its default cgroup manager is systemd, and the runtime puts the container in libpod-<id>.scope with its limit" {
	[ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] || skip "systemd is not PID 1 here"
	[ "$(podman info -f '{{.Host.CgroupManager}}')" = systemd ]
	pd run -d --network none --memory 64m --name kc-psd "$IMAGE" sleep 1000
	holds kc-psd
	local id unit
	id=$(podman inspect -f '{{.Id}}' kc-psd)
	unit=libpod-$id.scope
	[ "$(systemctl show -p ActiveState --value "$unit")" = active ]
	[ "$(systemctl show -p MemoryMax --value "$unit")" = 67108864 ]
	[ "$(cat "/sys/fs/cgroup/machine.slice/$unit/memory.max")" = 67108864 ]
	pd rm -f -t 0 kc-psd
	wait_for 60 unit_unloaded "$unit"
	gone "$id"
}
