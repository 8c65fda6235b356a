#!/usr/bin/env bash
# The ssh transport against a throwaway sshd on a loopback port: its own
# config (-f), host key and authorized key in a temp folder, stopped and
# removed afterwards; the system's sshd configuration is never touched.
# Source and sink run "remotely" over ssh, the proxy here; a smoke workload
# must move verified bytes, an unreachable host and a zcbench of another
# version must be refused with a clear error.
set -u
ZCBENCH=$(readlink -f "${ZCBENCH:-bench/zcbench}")
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || { echo "skip: $SSHD missing (openssh-server; make deps)"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (sshd privilege separation)"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq missing (make deps)"; exit 77; }
dir=$(mktemp -d /tmp/zc-ssh.XXXXXX)
made_privsep=
sshd_pid=
cleanup() {
	[ -n "$sshd_pid" ] && kill "$sshd_pid" 2>/dev/null && wait "$sshd_pid" 2>/dev/null
	[ -n "$made_privsep" ] && rmdir /run/sshd 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
# Debian's sshd insists on its privilege separation folder (made by its service).
[ -d /run/sshd ] || { mkdir -p -m 0755 /run/sshd && made_privsep=1; }
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key" || exit 1
ssh-keygen -q -t ed25519 -N '' -f "$dir/id" || exit 1
cp "$dir/id.pub" "$dir/authorized_keys"
user=$(id -un)
for try in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 30000))
	cat >"$dir/sshd_config" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PidFile $dir/sshd.pid
AllowUsers $user
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
CFG
	"$SSHD" -D -e -f "$dir/sshd_config" 2>"$dir/sshd.log" &
	sshd_pid=$!
	echo "[127.0.0.1]:$port $(cat "$dir/host_key.pub")" >"$dir/known_hosts"
	for i in $(seq 50); do
		ssh -T -o BatchMode=yes -o LogLevel=ERROR -o UserKnownHostsFile="$dir/known_hosts" \
			-i "$dir/id" -p "$port" "$user@127.0.0.1" true 2>/dev/null && break 2
		kill -0 "$sshd_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$sshd_pid" 2>/dev/null; wait "$sshd_pid" 2>/dev/null; sshd_pid=
done
[ -n "$sshd_pid" ] || { echo "FAIL: throwaway sshd did not come up"; cat "$dir/sshd.log"; exit 1; }

hostfile() { # $1 port, $2 exe
	cat <<HOST
[host]
name = ssh-smoke
transport = ssh
[source]
ssh = $user@127.0.0.1
ssh_port = $1
ssh_identity = $dir/id
ssh_known_hosts = $dir/known_hosts
exe = $2
[sink]
ssh = $user@127.0.0.1
ssh_port = $1
ssh_identity = $dir/id
ssh_known_hosts = $dir/known_hosts
exe = $2
HOST
}
hostfile "$port" "$ZCBENCH" >"$dir/ssh.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$dir/ssh.ini" --out "$dir/out" \
	--only proxy-copy --only src-send >"$dir/run.log" 2>&1
rc=$?
f=$(ls "$dir"/out/*.json 2>/dev/null | head -1)
if [ $rc -ne 0 ] || [ -z "$f" ]; then echo "FAIL: ssh smoke run exit $rc"; cat "$dir/run.log"; exit 1; fi
ok=$(jq '[.runs[] | select(.status == "ok" and .verified and .summary.gbps.median > 0)] | length' "$f")
[ "$ok" = 2 ] || { echo "FAIL: expected 2 verified ok runs over ssh, got $ok"; cat "$dir/run.log"; exit 1; }
# cpu = auto on an ssh role: the role placed itself on its own host.
jq -e '.runs[1] | (.placement.source.placed_by | test("the role")) and .samples[0].roles.source.cpu >= 0
	and (.samples[0].roles.source.nics.out.name == "lo") and .summary.gbps_per_core.median > 0' "$f" >/dev/null ||
	{ echo "FAIL: remote source placement/NIC/per-core figures"; jq '.runs[1].placement' "$f"; exit 1; }
ver=$(jq -r '.host.roles.sink.remote_version' "$f")
[ "$ver" = "$("$ZCBENCH" --version)" ] || { echo "FAIL: remote_version '$ver'"; exit 1; }

# A remote role dies mid-run: the run fails and says which role, where.
"$ZCBENCH" run workloads/smoke.ini --host "$dir/ssh.ini" --out "$dir/die" --only src-send \
	--duration=4 >"$dir/die.log" 2>&1 &
run=$!
descendants() { local p; for p in $(pgrep -P "$1"); do echo "$p"; descendants "$p"; done; }
victim=
# Once the source runs too (it connects to the sink: under load that can take
# a while after the sink started), so the sink dies mid-run, not before.
for i in $(seq 200); do
	src=
	for p in $(descendants "$sshd_pid"); do
		{ tr '\0' '\n' <"/proc/$p/cmdline"; } 2>/dev/null | grep -qx sink && victim=$p
		{ tr '\0' '\n' <"/proc/$p/cmdline"; } 2>/dev/null | grep -qx source && src=$p
	done
	[ -n "$victim" ] && [ -n "$src" ] && break
	sleep 0.05
done
[ -n "$victim" ] || { echo "FAIL: remote sink never started"; kill $run; cat "$dir/die.log"; exit 1; }
sleep 1
kill -KILL "$victim"
wait $run
rc=$?
reason=$(jq -r '.runs[0].reason' "$dir"/die/*.json)
[ $rc -eq 1 ] && echo "$reason" | grep -q "sink: ssh to $user@127.0.0.1: .*remote role was killed" ||
	{ echo "FAIL: remote death: exit $rc, reason '$reason'"; cat "$dir/die.log"; exit 1; }

# Unreachable: a port nobody listens on.
hostfile 1 "$ZCBENCH" >"$dir/bad.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$dir/bad.ini" --out "$dir/out2" --only src-send \
	>"$dir/bad.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "cannot reach $user@127.0.0.1" "$dir/bad.log" ||
	{ echo "FAIL: unreachable host: exit $rc"; cat "$dir/bad.log"; exit 1; }
# Another program than this zcbench at the remote path.
hostfile "$port" /bin/echo >"$dir/ver.ini"
"$ZCBENCH" run workloads/smoke.ini --host "$dir/ver.ini" --out "$dir/out3" --only src-send \
	>"$dir/ver.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "build the same git sha" "$dir/ver.log" ||
	{ echo "FAIL: version mismatch not refused: exit $rc"; cat "$dir/ver.log"; exit 1; }
echo "ok: ssh smoke moved verified bytes; remote death, unreachable host, version mismatch reported"
