# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the container engines' suites in the Debian guest
# (docker.bats, containerd.bats, engine-network.bats): a daemon started and
# stopped by the suite, the busybox image in the format each engine loads,
# and the proof that the runtime under test (kcrun, unless told otherwise)
# is the one that ran a container.

BUSYBOX_IMAGE_TAR=${BUSYBOX_IMAGE_TAR:-/var/lib/kcrun/images/busybox.tar}
BUSYBOX_BIN=${BUSYBOX_BIN:-/usr/lib/kcrun/busybox}

# start_daemon NAME LOG CMD...: start a daemon in the background (fd 3,
# bats' own, closed so bats does not wait for it); its pid goes to
# $BATS_FILE_TMPDIR/NAME.pid.
start_daemon() {
	local name=$1 log=$2
	shift 2
	"$@" > "$log" 2>&1 3>&- &
	echo $! > "$BATS_FILE_TMPDIR/$name.pid"
}

# stop_daemon NAME: TERM the daemon and wait (bounded) for it to be gone.
stop_daemon() {
	local pid
	pid=$(cat "$BATS_FILE_TMPDIR/$1.pid" 2>/dev/null) || return 0
	kill -TERM "$pid" 2>/dev/null || return 0
	wait_for 60 dead "$pid" || kill -KILL "$pid" 2>/dev/null
	rm -f "$BATS_FILE_TMPDIR/$1.pid"
}

# docker_archive IN OUT TAG [JQ]: the oci-archive IN (images/build, skopeo)
# as a `docker save` archive OUT: Docker 20.10 loads only those (a
# manifest.json naming the config and the layers), containerd imports both.
# The blobs keep their OCI paths; Docker and containerd decompress the gzip
# layers.  JQ, if given, rewrites the image's config (its Entrypoint, say):
# the archive names the config by path, the importer digests it.
docker_archive() {
	local in=$1 out=$2 tag=$3 edit=${4:-} dir manifest config layers
	dir=$(mktemp -d "${BATS_FILE_TMPDIR:-/tmp}/oci.XXXXXX")
	tar -xf "$in" -C "$dir"
	manifest=$(jq -r '.manifests[0].digest | sub("^sha256:"; "")' "$dir/index.json")
	config=$(jq -r '.config.digest | sub("^sha256:"; "blobs/sha256/")' "$dir/blobs/sha256/$manifest")
	if [ -n "$edit" ]; then
		jq -c "$edit" "$dir/$config" > "$dir/config.json"
		rm -f "$dir/$config"
		config=config.json
	fi
	layers=$(jq -c '[.layers[].digest | sub("^sha256:"; "blobs/sha256/")]' "$dir/blobs/sha256/$manifest")
	jq -n --arg c "$config" --argjson l "$layers" --arg t "$tag" \
		'[{Config: $c, RepoTags: [$t], Layers: $l}]' > "$dir/manifest.json"
	rm -f "$dir/index.json" "$dir/oci-layout" "$dir/blobs/sha256/$manifest"
	tar -cf "$out" -C "$dir" manifest.json blobs $([ -z "$edit" ] || echo config.json)
	rm -rf "$dir"
}

# in_proc_containers ID: the kernel holds a container object named ID
# (only the patched kernel has them: runc and crun never make one).
in_proc_containers() {
	awk 'NR > 1 { print $1 }' /proc/containers 2>/dev/null | grep -qx "$1"
}

# held_by RUNTIME ROOT ID: ID is a container of RUNTIME under its --root
# ROOT (the engine's state root), and for kcrun a kernel container object.
held_by() {
	local rt=$1 root=$2 id=$3
	if ! "$rt" --root "$root" list -q 2>/dev/null | grep -qx "$id"; then
		echo "$rt --root $root list has no $id:" >&2
		"$rt" --root "$root" list >&2
		return 1
	fi
	if [ "$(basename "$rt")" = kcrun ] && ! in_proc_containers "$id"; then
		echo "no kernel container $id in /proc/containers:" >&2
		cat /proc/containers >&2
		return 1
	fi
	if [ "$(basename "$rt")" != kcrun ] && in_proc_containers "$id"; then
		echo "$id is a kernel container object, but $rt should have run it" >&2
		return 1
	fi
}

# unit_unloaded UNIT: systemd no longer has the unit (a scope of the
# systemd cgroup driver): its name is free.  A stopped transient unit goes
# at systemd's next garbage collection: wait_for it.
unit_unloaded() {
	[ "$(systemctl show -p LoadState --value "$1")" = not-found ]
}

# gone_from RUNTIME ROOT ID: no state and no kernel object of ID left.
gone_from() {
	local rt=$1 root=$2 id=$3
	[ ! -e "$root/$id" ] || { echo "state dir $root/$id left behind" >&2; return 1; }
	! in_proc_containers "$id" || { echo "kernel container $id left behind" >&2; return 1; }
}

# A gated container: the engine runs `sh -c "$GATE_SH" gate CMD...` with
# $GATE mounted on /gate; the container says it is up, then waits for the
# test before it runs CMD.  While it waits, the test checks who holds it.
GATE_SH='touch /gate/up; while [ ! -e /gate/go ]; do sleep 0.1; done; exec "$@"'

new_gate() {
	GATE=$(mktemp -d "$BATS_TEST_TMPDIR/gate.XXXXXX")
	chmod 1777 "$GATE"
}

# up_or_gone PID: the gated container is up, or its engine's command PID
# ended (a container that failed to start never will be).
up_or_gone() {
	[ -e "$GATE/up" ] || ! kill -0 "$1" 2>/dev/null
}

# gated CHECK CMD...: run CMD (an engine's foreground run of a gated
# container) in the background; once the container is up, run CHECK (a
# command: the proof of who runs it), open the gate and wait for CMD.
# Leaves $status and $output as bats' run does; a failed CHECK fails.
gated() {
	local check=$1 pid checked=0
	shift
	"$@" > "$BATS_TEST_TMPDIR/gated.out" 2>&1 3>&- &
	pid=$!
	wait_for 180 up_or_gone "$pid"
	if [ -e "$GATE/up" ]; then
		eval "$check" || checked=1
	else
		echo "the gated container never came up" >&2
		checked=1
	fi
	touch "$GATE/go"
	wait "$pid" && status=0 || status=$?
	output=$(cat "$BATS_TEST_TMPDIR/gated.out")
	echo "$output"
	return $checked
}

# tty_run CMD...: CMD under a pseudo-terminal (script(1) of util-linux),
# its exit status kept (-e), the terminal's \r removed.  script's stdin is a
# FIFO that stays open and silent: at the EOF of /dev/null script would send
# a byte that the engine passes on to the container's terminal.
tty_run() {
	local cmd fifo fd rc
	printf -v cmd '%q ' "$@"
	fifo=$(mktemp -u "$BATS_TEST_TMPDIR/tty.XXXXXX")
	mkfifo "$fifo"
	exec {fd}<>"$fifo"
	script -qefc "$cmd" /dev/null < "$fifo" | tr -d '\r'
	rc=${PIPESTATUS[0]}
	exec {fd}>&-
	rm -f "$fifo"
	return "$rc"
}

# http_get URL: the body, with busybox wget (the guest has no curl);
# busybox 1.35's wget -T crashes (SIGSEGV), timeout(1) bounds it instead.
http_get() {
	timeout 10 "$BUSYBOX_BIN" wget -q -O - "$1"
}

# answers URL TEXT: URL serves exactly TEXT.
answers() {
	[ "$(http_get "$1" 2>/dev/null)" = "$2" ]
}

# The server of the network tests: busybox httpd on PORT serving TEXT.
# httpd_cmd PORT TEXT: a command line for sh -c.
httpd_cmd() {
	echo "mkdir -p /www && echo $2 > /www/index.html && exec httpd -f -p $1 -h /www"
}
