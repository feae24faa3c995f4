# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced inside the guest by bench/lifecycle and bench/profile: the bundles
# they run, the timing helpers and the create+start+delete loop both measure.
# Needs $N (the loop's length); bench_setup sets $work.

src=/var/lib/kcrun/bundles/busybox

elapsed_us() { echo $(( 10#${2/./} - 10#${1/./} )); }
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ms() { awk '{ printf "%.1f", $1 / 1000 }'; }

# bench_setup: bpffs mounted, and $work (a new directory under /run) with
# the busybox rootfs and three bundles: true (/bin/true), nonet (the same
# without a network namespace) and idle (`sleep 1000000`).
bench_setup() {
	# systemd mounts bpffs at /sys/fs/bpf on a host, and vm/guest-init in
	# the guest (an older guest image may lack it): kcrun pins its device
	# filter there (src/lib/bpf_cache.h).
	if [ "$(stat -f -c %T /sys/fs/bpf 2>/dev/null)" != bpf_fs ]; then
		mount -t bpf bpf /sys/fs/bpf 2>/dev/null && echo "# mounted bpffs at /sys/fs/bpf (as systemd does)"
	fi
	work=$(mktemp -d /run/bench.XXXXXX)
	export work
	cp -a "$src/rootfs" "$work/rootfs"
	mkdir -p "$work/true" "$work/nonet" "$work/idle"
	jq --arg r "$work/rootfs" '.root.path = $r | .process.terminal = false | .process.args = ["/bin/true"]' \
		"$src/config.json" > "$work/true/config.json"
	jq '.linux.namespaces |= map(select(.type != "network"))' "$work/true/config.json" > "$work/nonet/config.json"
	jq --arg r "$work/rootfs" '.root.path = $r | .process.terminal = false | .process.args = ["sleep", "1000000"]' \
		"$src/config.json" > "$work/idle/config.json"
	mkfifo "$work/nap"
}

# nap: 1 ms without a process (a `sleep` costs tens of ms under TCG) and
# without spinning (a busy loop takes the CPU from the container it waits
# for): a read that times out on a fifo nobody writes.
nap() {
	[ -n "${nap_fd:-}" ] || exec {nap_fd}<>"$work/nap"
	read -r -t 0.001 -u "$nap_fd" _
}

# wait_exit PID: until PID is gone or a zombie (pid 1 reaps orphans), at
# most 30 s (a failed start leaves init parked: say so and go on).
wait_exit() {
	local st rest t0=${EPOCHREALTIME/./}
	while read -r _ _ st rest 2>/dev/null < "/proc/$1/stat" && [ "$st" != Z ]; do
		if [ $(( ${EPOCHREALTIME/./} - t0 )) -gt 30000000 ]; then
			echo "# pid $1 did not exit within 30 s" >&2
			return 1
		fi
		nap
	done
}

# populate RT ROOT FROM TO: idle containers i<FROM>..i<TO>, 4 at a time.
populate() {
	seq "$3" "$4" | xargs -P 4 -I{} sh -c \
		'"$0" --root "$1" create --bundle "$2" "i$3" </dev/null >/dev/null 2>&1 &&
		 "$0" --root "$1" start "i$3" </dev/null >/dev/null 2>&1 || echo "# $0: idle container i$3 failed" >&2' \
		"$1" "$2" "$work/idle" {}
}

# csd RT ROOT TAG [BUNDLE]: N x create+start+wait+delete of BUNDLE
# ($work/true); prints the median (ms).  Each `create` alone goes to
# $work/create.RT.TAG (us, one a line).
csd() {
	local rt=$1 root=$2 bundle=${4:-$work/true} i t0 tc t1 pid
	rm -f "$work/create.$rt.$3"
	for i in $(seq "$N"); do
		t0=$EPOCHREALTIME
		"$rt" --root "$root" create --bundle "$bundle" --pid-file "$work/pid" "c$3-$i" </dev/null >/dev/null 2>&1 ||
			echo "# $rt create c$3-$i failed" >&2
		tc=$EPOCHREALTIME
		elapsed_us "$t0" "$tc" >> "$work/create.$rt.$3"
		pid=$(< "$work/pid")
		"$rt" --root "$root" start "c$3-$i" >/dev/null 2>&1
		wait_exit "$pid"
		"$rt" --root "$root" delete "c$3-$i" >/dev/null 2>&1 ||
			"$rt" --root "$root" delete --force "c$3-$i" >/dev/null 2>&1
		t1=$EPOCHREALTIME
		elapsed_us "$t0" "$t1"
	done | median | ms
}
