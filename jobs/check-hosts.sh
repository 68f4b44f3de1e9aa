#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# HOSTS=FILE (GNU parallel's --sshloginfile, jobs/README.md), checked
# before anything runs. A line is empty, a comment (# in its first
# column), or [@GROUPS/][N/]LOGIN: N the jobs at once there (1 or more),
# LOGIN ":" (this machine), [user@]host, or an ssh command line whose last
# word is [user@]host. Prints the first bad line ("FILE:LINE: 'TEXT': why")
# on stderr and exits 2; prints nothing and exits 0 when FILE is good.
#
# usage: check-hosts.sh FILE
set -u
hosts=${1:?usage: check-hosts.sh FILE}
if [ ! -f "$hosts" ] || [ ! -r "$hosts" ]; then
	echo "$hosts: cannot read the hosts file" >&2
	exit 2
fi
awk -v name="$hosts" '
function bad(why,   text) {
	text = $0
	gsub(/\r/, "\\r", text)
	printf "%s:%d: \047%s\047: %s\n", name, FNR, text, why >"/dev/stderr"
	failed = 1
	exit 2
}
$0 == "" || /^#/ { next }
/\r/ { bad("a carriage return (DOS line ends)") }
{
	login = $0
	sub(/^@[^\/]*\//, "", login)
	if (match(login, /^[^\/ \t]*\//)) {
		if (substr(login, 1, RLENGTH - 1) !~ /^[1-9][0-9]*$/)
			bad("N/ must be a number of jobs, 1 or more")
		login = substr(login, RLENGTH + 1)
	}
	if (login == ":")
		next
	n = split(login, w, /[ \t]+/)
	if (n == 0 || w[n] !~ /^([A-Za-z0-9._-]+@)?([A-Za-z0-9_][A-Za-z0-9._-]*|\[[0-9A-Fa-f:.]+\])$/)
		bad("not a login: N/[user@]host, N/ssh OPTIONS [user@]host or N/:")
}
END { exit failed ? 2 : 0 }' "$hosts"
