#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A throw-away sshd on 127.0.0.1 for the fan-out test: its own config, host
# key and client key under DIR, a free port, never the host's ssh config or
# service.
#
# usage: test-sshd.sh start DIR   start it; prints the port
#        test-sshd.sh stop DIR    stop it (no-op if it is not running)
#
# DIR gets sshd_config, host_ed25519, id_ed25519 (the client key, in
# authorized_keys), known_hosts, ssh_config (Host intsan-loop), sshd.pid,
# port and sshd.log. Log in with: ssh -F DIR/ssh_config -p PORT root@127.0.0.1
# (or the user running this script). Every session starts in DIR/home, the
# host's "login directory" for the kit's relative paths, so that nothing is
# written to the real home directory.
set -u
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '8,9p' "$0" | sed 's/^# //' >&2; exit 2; }

stop() {
	[ -s "$dir/sshd.pid" ] || return 0
	pid=$(cat "$dir/sshd.pid")
	# only the sshd that this script started: its pid file, its config
	if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$dir/sshd_config"; then
		kill "$pid" 2>/dev/null
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	fi
	rm -f "$dir/sshd.pid"
}

case $cmd in
stop)
	stop
	exit 0
	;;
start) ;;
*)
	echo "test-sshd.sh: unknown command $cmd" >&2
	exit 2
	;;
esac

sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || { echo "test-sshd.sh: no sshd (Debian: openssh-server)" >&2; exit 1; }
mkdir -p "$dir/home" || exit 1
dir=$(cd "$dir" && pwd)
stop
user=$(id -un)
for k in host_ed25519 id_ed25519; do
	[ -s "$dir/$k" ] || ssh-keygen -q -t ed25519 -N '' -C "intsan-test-$k" -f "$dir/$k" || exit 1
done
cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
chmod 600 "$dir/authorized_keys"
# sshd's privilege separation directory (a runtime directory, created by the
# ssh service when there is one; sshd refuses to start without it)
[ -d /run/sshd ] || mkdir -m 0755 /run/sshd

# a free port: let sshd try; it exits at once when the port is taken
tries=0
while [ $tries -lt 20 ]; do
	tries=$((tries + 1))
	port=$((20000 + ($$ * 7 + tries * 997) % 40000))
	cat >"$dir/sshd_config" <<EOT
ListenAddress 127.0.0.1
Port $port
HostKey $dir/host_ed25519
PidFile $dir/sshd.pid
AuthorizedKeysFile $dir/authorized_keys
AllowUsers $user
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
MaxStartups 50:30:100
MaxSessions 50
LogLevel VERBOSE
ForceCommand cd $dir/home && eval "\$SSH_ORIGINAL_COMMAND"
EOT
	rm -f "$dir/sshd.pid"
	"$sshd" -f "$dir/sshd_config" -E "$dir/sshd.log" || continue
	i=0
	while [ ! -s "$dir/sshd.pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -s "$dir/sshd.pid" ] && kill -0 "$(cat "$dir/sshd.pid")" 2>/dev/null && break
	port=
done
[ -n "$port" ] || { echo "test-sshd.sh: sshd did not start; see $dir/sshd.log" >&2; exit 1; }
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$dir/host_ed25519.pub")" >"$dir/known_hosts"
cat >"$dir/ssh_config" <<EOT
Host 127.0.0.1 intsan-loop
	HostName 127.0.0.1
	User $user
	IdentityFile $dir/id_ed25519
	IdentitiesOnly yes
	UserKnownHostsFile $dir/known_hosts
	StrictHostKeyChecking yes
	BatchMode yes
	ConnectTimeout 10
	LogLevel ERROR
EOT
echo "$port" >"$dir/port"
echo "$port"
