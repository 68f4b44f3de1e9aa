#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Two makes in one build directory (make check-lock). A first make holds
# the build directory's lock while it works; the test then starts others
# and checks that a second one refuses at once, naming the first, and
# changes nothing; that `make help` and make -p stay free; that a make the
# first one starts (a recursive make) neither waits nor refuses; that
# LOCK_WAIT waits, gives up naming the holder, or runs once the first has
# ended; that a killed make's leftover process keeps the lock, and is
# named; and that KBUILD_LOCK cannot name the same lock. KTAP.
#
# The first make builds `tools` in a build directory of its own, with a
# stand-in compiler that holds it until the test lets it go (and fails).
#
# usage: lock-test.sh TOP SCRATCH
set -u
top=${1:?usage: lock-test.sh TOP SCRATCH}
tmp=${2:?usage: lock-test.sh TOP SCRATCH}
rm -rf "$tmp" && mkdir -p "$tmp/b" || exit 2
tmp=$(cd "$tmp" && pwd)
b=$tmp/b
KTAP_BUF=$tmp/ktap
# shellcheck source=tools/tests/ktap.sh
. "$top/tools/tests/ktap.sh"

# the packages are there (make check's own tools need them too)
touch "$b/.deps-stamp"
# the compiler: first a make of the same build directory from inside
# (as a recipe's would be), then hold until released
cat >"$tmp/cc" <<EOF
#!/bin/sh
if [ ! -e "$tmp/nested.rc" ]; then
	timeout 60 make -C "$top" --no-print-directory BUILD="$b" -n tools \
		>"$tmp/nested.log" 2>&1
	echo \$? >"$tmp/nested.rc"
fi
: >"$tmp/held"
n=0
while [ ! -e "$tmp/release" ] && [ \$n -lt 1200 ]; do
	sleep 0.1
	n=\$((n + 1))
done
exit 1
EOF
chmod +x "$tmp/cc"
trap ': >"$tmp/release"' EXIT

# a make of the checkout as a user starts it
kmake() {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u KIT_LOCKED \
		make -C "$top" --no-print-directory BUILD="$b" "$@"
}

# start the first make; true once its compiler holds, false if it ended
held_or_gone() {
	[ -e "$tmp/held" ] || ! kill -0 "$holder" 2>/dev/null
}
hold() {
	rm -f "$tmp/held" "$tmp/release"
	kmake CC="$tmp/cc" tools >"$tmp/holder.log" 2>&1 &
	holder=$!
	wait_for 120 held_or_gone
	[ -e "$tmp/held" ]
}

# the result of a check: ok NAME, or bad NAME with why and the log
check() { # name why log
	if [ -z "$2" ]; then
		ok "$1"
	else
		bad "$1" "$2
$(sed 's/^/  /' "$3" 2>/dev/null)"
	fi
}

if ! hold; then
	bad "a make holds the build directory" "$(cat "$tmp/holder.log")"
	ktap_end
	exit 1
fi
ok "a make holds the build directory"
inner=$(sed -n 's/^pid \([0-9]*\) .*/\1/p' "$b/.make.lock")

find "$b" | sort >"$tmp/before"
kmake tools >"$tmp/out" 2>"$tmp/err"
rc=$? why=
[ $rc -eq 2 ] || why="exit status $rc, not 2"
[ ! -s "$tmp/out" ] || why="$why; it wrote on stdout"
[ "$(grep -c . "$tmp/err")" -eq 1 ] || why="$why; not one error line"
grep -q "$b is in use by pid $inner (make tools .*LOCK_WAIT=SECONDS waits" "$tmp/err" ||
	why="$why; the error does not name the first make (pid $inner)"
find "$b" | sort | cmp -s - "$tmp/before" || why="$why; the build directory changed"
check "a second make refuses at once, naming the first, and changes nothing" "${why#; }" "$tmp/err"

kmake help >"$tmp/out" 2>"$tmp/err"
rc=$?
check "make help is free of the lock" "$([ $rc -eq 0 ] || echo "exit status $rc")" "$tmp/err"
# tools/check-docs.sh reads make's database so, from a shell too
kmake -pRrq : >"$tmp/out" 2>"$tmp/err"
check "make -pRrq reads the whole Makefile beside it (check-docs.sh)" \
	"$(grep -q '^check-lock:' "$tmp/out" || echo "no target check-lock in the database")" \
	"$tmp/err"

rc=$(cat "$tmp/nested.rc" 2>/dev/null)
check "a make that the first one starts neither waits nor refuses" \
	"$([ "$rc" = 0 ] || echo "exit status ${rc:-none}")" "$tmp/nested.log"

start=$(date +%s)
kmake LOCK_WAIT=1 tools >"$tmp/out" 2>"$tmp/err"
rc=$? secs=$(($(date +%s) - start)) why=
[ $rc -eq 2 ] || why="exit status $rc, not 2"
[ $secs -le 30 ] || why="$why; it took $secs s"
grep -q "waiting for $b, in use by pid $inner" "$tmp/err" || why="$why; no waiting message"
grep -q "$b is still in use after 1 s by pid $inner" "$tmp/err" || why="$why; no message naming the holder"
check "LOCK_WAIT=1 waits a second, then gives up naming the first make" "${why#; }" "$tmp/err"

kmake LOCK_WAIT=120 -n tools >"$tmp/waiter.log" 2>&1 &
waiter=$!
sleep 2
if kill -0 $waiter 2>/dev/null; then
	ok "LOCK_WAIT=120: a second make waits while the first works"
else
	bad "LOCK_WAIT=120: a second make waits while the first works" "$(cat "$tmp/waiter.log")"
fi
: >"$tmp/release"
wait $holder
wait $waiter
rc=$?
check "LOCK_WAIT=120: it runs once the first has ended" \
	"$([ $rc -eq 0 ] || echo "exit status $rc")" "$tmp/waiter.log"

# SIGKILL the working make: its compiler, left running, keeps the lock
rm -f "$tmp/nested.rc"
if hold; then
	inner=$(sed -n 's/^pid \([0-9]*\) .*/\1/p' "$b/.make.lock")
	kill -KILL "$inner"
	wait $holder
	kmake tools >"$tmp/out" 2>"$tmp/err"
	rc=$? why=
	[ $rc -eq 2 ] || why="exit status $rc, not 2"
	grep -q "pid $inner (make tools.*which has exited, but a process it started holds the lock" \
		"$tmp/err" || why="$why; the error does not say so"
	check "a killed make's leftover process keeps the lock, and the error says so" \
		"${why#; }" "$tmp/err"
	: >"$tmp/release"
	free() { [ -z "$(sh "$top/tools/make-lock.sh" probe "$b/.make.lock" "$b")" ]; }
	wait_for 60 free
	kmake -n tools >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "the lock is free once the leftover process has ended" \
		"$([ $rc -eq 0 ] || echo "exit status $rc")" "$tmp/err"
else
	bad "a make holds the build directory again" "$(cat "$tmp/holder.log")"
fi

# SIGKILL a make while it boots: GNU parallel runs each boot job in a
# process group of its own, out of the kill's reach; the job must end with
# its runner (jobs/boot-job.sh), its QEMU with it, and free the lock. The
# make is make-lock.sh running run-jobs.sh as a recipe would, on a stand-in
# QEMU that never ends, and a stand-in triage.
f=$tmp/fake
mkdir -p "$f/bin"
printf '#!/bin/sh\nwhile :; do sleep 1; done\n' >"$f/bin/qemu-system-x86_64"
printf '#!/bin/sh\nexit 0\n' >"$f/triage"
chmod +x "$f/bin/qemu-system-x86_64" "$f/triage"
echo kernel >"$f/bzImage"
echo initramfs >"$f/initramfs"
printf 'lock\t%s\t%s\t%s\t-\tb\t-\tall\t-a tcg -t 300\n' "$f/out" "$f/bzImage" "$f/initramfs" \
	>"$f/jobs"
PATH=$f/bin:$PATH setsid sh "$top/tools/make-lock.sh" run "$b/.make.lock" 0 "$b" "make boot" \
	sh "$top/jobs/run-jobs.sh" -n lock -d "$f/run" -K "$top" -T "$f/triage" "$f/jobs" \
	>"$tmp/boot.log" 2>&1 </dev/null &
boot=$!
# the stand-in runs as "/bin/sh $f/bin/qemu-system-x86_64 ..." (its second
# or third word; awk's own "q=..." argument does not start with it)
fake_qemu() {
	ps -eo pid=,args= | awk -v q="$f/bin/qemu" '
		index($2, q) == 1 || index($3, q) == 1 { print $1 }'
}
qemu_runs() { [ -n "$(fake_qemu)" ]; }
qemu_gone() { [ -z "$(fake_qemu)" ]; }
lock_free() { [ -z "$(sh "$top/tools/make-lock.sh" probe "$b/.make.lock" "$b")" ]; }
if wait_for 60 qemu_runs; then
	kill -KILL -"$boot"
	wait "$boot"
	why=
	wait_for 10 qemu_gone || why="QEMU still runs 10 s after"
	wait_for 5 lock_free || why="${why:+$why; }the lock is still held"
	check "a make SIGKILLed during a boot leaves no QEMU and frees the lock" "$why" "$tmp/boot.log"
	sh "$top/tools/make-lock.sh" probe "$b/.make.lock" "$b" >&2
	# this test's own leftovers
	for q in $(fake_qemu); do kill -KILL "$q" 2>/dev/null; done
else
	kill -KILL -"$boot" 2>/dev/null
	bad "a make SIGKILLed during a boot leaves no QEMU and frees the lock" \
		"the stand-in QEMU never ran: $(tail -5 "$tmp/boot.log")"
fi
wait_for 30 lock_free

kmake KBUILD_LOCK="$b/.make.lock" tools >"$tmp/out" 2>"$tmp/err"
rc=$?
check "KBUILD_LOCK cannot be the build directory's lock (Kbuild would wait forever)" \
	"$([ $rc -eq 2 ] && grep -q "is the build directory's lock" "$tmp/err" ||
		echo "exit status $rc")" "$tmp/err"

kmake distclean >"$tmp/out" 2>"$tmp/err"
rc=$?
left=$(find "$b" -mindepth 1 -maxdepth 1 -printf '%f ')
check "make distclean empties the build directory but for its lock" \
	"$([ $rc -eq 0 ] && [ "$left" = ".make.lock " ] ||
		echo "exit status $rc; left: $left")" "$tmp/err"

ktap_end
