#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Self-test of the boot-test tooling, no kernel build needed:
#  - the initramfs builds, has the expected layout (with PERF,
#    PERF_SELFTESTS and BOOT_KMODS too: guest/kmods.sh picks the modules),
#    is reproducible and a second make has nothing to do;
#  - run-qemu.sh gives the right verdict and exit status for each kind of
#    boot, using fake-kernel.c (a multiboot stand-in that QEMU boots in
#    milliseconds), keeps the console log on a timeout, and leaves no QEMU
#    behind on a timeout or when it is itself killed;
#  - -a auto probes KVM within its time bound and caches the answer;
#  - report/u16-boundary.sh, report/verdict.sh and corpus/detect-table.sh
#    judge the real logs of kernels whose perf read_size limit moved
#    (tools/testdata);
#  - with KERNEL=path/to/bzImage (default: the kit's build, if present) a
#    real bare boot passes, a boot cut short by -t times out with its log
#    kept, and init times out a workload past kit.timeout.
#
# usage: sh selftest.sh [WORKDIR]      (KEEP=1 keeps WORKDIR)
# KERNEL=none skips the real-kernel checks (make check). Prints KTAP.
set -u

tests=$(cd "$(dirname "$0")" && pwd)
here=$(dirname "$tests")
top=$(dirname "$here")
work=${1:-$(mktemp -d /tmp/boot-selftest.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
kernel=${KERNEL:-$top/build/tiny/linux/arch/x86/boot/bzImage}
run=$here/host/run-qemu.sh
npass=0
nfail=0
echo "TAP version 13"

check() {
	if [ "$2" = "$3" ]; then
		npass=$((npass + 1))
		echo "ok $((npass + nfail)) - $1"
	else
		nfail=$((nfail + 1))
		echo "not ok $((npass + nfail)) - $1"
		echo "# got '$2', want '$3'"
	fi
}

cleanup() {
	[ "${KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT

# -- initramfs ------------------------------------------------------------
printf 'not really a module\n' >"$work/dummy.ko"
for o in a b; do
	make -s -C "$here" O="$work/$o" KMODS="$work/dummy.ko" >/dev/null 2>&1
done
check "initramfs builds" "$(test -s "$work/a/initramfs.cpio" && echo y)" y
check "initramfs is reproducible" \
	"$(cmp -s "$work/a/initramfs.cpio" "$work/b/initramfs.cpio" && echo y)" y
before=$(stat -c %Y.%s "$work/a/initramfs.cpio" "$work/a/bin/init")
make -s -C "$here" O="$work/a" KMODS="$work/dummy.ko" >"$work/make2.log" 2>&1
check "second make rebuilds nothing" "$(cat "$work/make2.log")$(stat -c %Y.%s \
	"$work/a/initramfs.cpio" "$work/a/bin/init")" "$before"
list=$(cpio -t --quiet <"$work/a/initramfs.cpio" | tr '\n' ' ')
for f in init bin/perf-cve-2023-6931 bin/perf-u16-2015 \
	bin/perf-read-format-sweep bin/perf-sampling bin/test-ubsan \
	lib/modules/dummy.ko dev/console; do
	case " $list" in
	*" $f "*) check "initramfs has /$f" y y ;;
	*) check "initramfs has /$f" n y ;;
	esac
done
# The modules init loads first (guest/modules.conf): kmods.sh takes the
# options set to m, in the table's order, and BOOT_KMODS packs them in
# /lib/modules/boot/
mkdir -p "$work/tree"
printf 'CONFIG_TUN=m\nCONFIG_BLK_DEV_LOOP=y\nCONFIG_IP_DCCP=m\n# CONFIG_IP_SCTP is not set\n' \
	>"$work/tree/.config"
check "kmods.sh: the options set to m, in order" \
	"$(sh "$here/guest/kmods.sh" "$work/tree" | tr '\n' ' ')" \
	"drivers/net/tun.ko net/dccp/dccp.ko net/dccp/dccp_ipv4.ko net/dccp/dccp_ipv6.ko "
sh "$here/guest/kmods.sh" "$work/nowhere" 2>/dev/null
check "kmods.sh: a tree without .config" $? 2
make -s -C "$here" O="$work/m" KMODS="$work/dummy.ko" BOOT_KMODS="$work/dummy.ko" \
	>/dev/null 2>&1
case " $(cpio -t --quiet <"$work/m/initramfs.cpio" | tr '\n' ' ')" in
*" lib/modules/boot/dummy.ko "*) check "initramfs has BOOT_KMODS in /lib/modules/boot" y y ;;
*) check "initramfs has BOOT_KMODS in /lib/modules/boot" n y ;;
esac
owners=$(cpio -tv --quiet <"$work/a/initramfs.cpio" |
	awk '$3 != "root" || $4 != "root"' | wc -l)
check "initramfs is owned by root" "$owners" 0
# With PERF and PERF_SELFTESTS (stand-ins here: init, twice): the programs
# outside /bin, executable, and a /bin symlink per perf item.
mkdir -p "$work/selftests"
cp "$work/a/bin/init" "$work/selftests/prog"
make -s -C "$here" O="$work/p" KMODS="$work/dummy.ko" PERF="$work/a/bin/init" \
	PERF_SELFTESTS="$work/selftests" >/dev/null 2>&1
list=$(cpio -tv --quiet <"$work/p/initramfs.cpio" |
	awk '{ $1 = substr($1, 1, 4); print $1, $9, $10, $11 }')
for f in "-rwx usr/bin/perf" "-rwx usr/libexec/kit/perf-items" \
	"-rwx usr/libexec/kit/perf_events/prog" \
	"lrwx bin/perftool-test -> ../usr/libexec/kit/perf-items" \
	"lrwx bin/kselftest-perf_events-prog -> ../usr/libexec/kit/perf-items" \
	"lrwx usr/bin/sleep -> ../libexec/kit/perf-items"; do
	case "$list" in
	*"$f"*) check "initramfs with perf has $f" y y ;;
	*) check "initramfs with perf has $f" n y ;;
	esac
done
# WORKLOADS=DIR: a dynamically linked program comes with its libraries and
# the loader, and runs first, as /bin/user-NAME; a link to a program is one
mkdir -p "$work/user"
printf '#include <stdio.h>\nint main(void) { puts("user workload ran"); return 0; }\n' \
	>"$work/user/hello.c"
gcc -O2 -o "$work/user/hello" "$work/user/hello.c"
rm "$work/user/hello.c"
ln -s hello "$work/user/hi"
make -s -C "$here" O="$work/u" KMODS="$work/dummy.ko" USER_WORKLOADS="$work/user" \
	>/dev/null 2>&1
list=$(cpio -t --quiet <"$work/u/initramfs.cpio" | tr '\n' ' ')
loader=$(ldd "$work/user/hello" | sed -n 's/^[[:space:]]*\(\/[^ ]*\) (.*/\1/p')
libc=$(ldd "$work/user/hello" | sed -n 's/.*libc\.so[^ ]* => \(\/[^ ]*\) .*/\1/p')
for f in bin/user-hello bin/user-hi "${loader#/}" "${libc#/}" etc/kit/workloads; do
	case " $list" in
	*" $f "*) check "initramfs with WORKLOADS= has /$f" y y ;;
	*) check "initramfs with WORKLOADS= has /$f" n y ;;
	esac
done
check "user workloads run first" "$(head -n 1 "$work/u/workloads.list")" user-hello

# items.c, on the host: each item one subtest, with its outcome
make -s -C "$here" O="$work/a" "$work/a/libexec/items" >/dev/null 2>&1
mkdir -p "$work/items.d"
printf '#!/bin/sh\nexit 4\n' >"$work/exit4"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$work/segv"
chmod +x "$work/exit4" "$work/segv"
cat >"$work/items.d/demo" <<EOT
# a comment
skip-status: 4
passes 10 /tmp /bin/true
fails 10 /tmp /bin/false
skips 10 /tmp $work/exit4
slow 1 /tmp /bin/sleep 30
crashes 10 /tmp $work/segv
excluded skip it would end the guest
expected 10 /tmp /bin/false
EOT
printf 'expected fails on purpose\n' >"$work/items.d/demo.xfail"
ln -sf "$work/a/libexec/items" "$work/demo"
out=$(KIT_ITEMS_DIR="$work/items.d" "$work/demo" 2>&1)
st=$?
for l in "1..7" "ok 1 passes # time=" "not ok 2 fails # exit status 1" \
	"ok 3 skips # SKIP exit status 4" "not ok 4 slow # TIMEOUT after 1 s" \
	"not ok 5 crashes # killed by signal 11" \
	"ok 6 excluded # SKIP it would end the guest" \
	"ok 7 expected # XFAIL exit status 1: fails on purpose" \
	"# Totals: pass:1 fail:3 xfail:1 skip:2"; do
	case "$out" in
	*"$l"*) check "items: $l" y y ;;
	*) check "items: $l" n y ;;
	esac
done
check "items: exit status with failures" "$st" 1

make -s -C "$here" O="$work/a" fake-kernel >/dev/null 2>&1
fake=$work/a/fake-kernel.elf
initrd=$work/a/initramfs.cpio

# -- verdicts ---------------------------------------------------------------
boot() { # name mode [run-qemu options]
	n=$1 m=$2
	shift 2
	"$run" -k "$fake" -i "$initrd" -o "$work/boots/$n" -a tcg \
		-x "selftest=$m" "$@" >/dev/null 2>&1
	echo $?
}
for c in pass:0 fail:1 noend:1 oops:2 panic:3; do
	m=${c%:*}
	st=$(boot "$m" "$m" -t 30)
	check "verdict of a $m boot" \
		"$(cat "$work/boots/$m/verdict" 2>/dev/null)" \
		"$(echo "$m" | sed 's/noend/fail/')"
	check "exit status of a $m boot" "$st" "${c#*:}"
done

# Start a hanging boot in the background: sets rpid (runner) and qpid (QEMU).
hang_bg() { # name timeout
	"$run" -k "$fake" -i "$initrd" -o "$work/boots/$1" -a tcg \
		-x selftest=hang -t "$2" >/dev/null 2>&1 &
	rpid=$!
	i=0
	while [ ! -s "$work/boots/$1/qemu.pid" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	qpid=$(cat "$work/boots/$1/qemu.pid" 2>/dev/null)
}

# timeout: the log is kept and QEMU is gone (8 s: on a loaded machine the
# fake kernel may take seconds to print its line)
hang_bg hang 8
wait $rpid
check "exit status of a hung boot" $? 4
check "verdict of a hung boot" "$(cat "$work/boots/hang/verdict")" timeout
check "log of a hung boot is kept" \
	"$(grep -c 'fake kernel: hanging' "$work/boots/hang/console.log")" 1
check "no QEMU left after a timeout" \
	"$(kill -0 "${qpid:-0}" 2>/dev/null && echo alive || echo gone)" gone

# the runner killed by a signal takes QEMU down with it
hang_bg killed 60
kill -TERM $rpid
wait $rpid
check "exit status of a runner killed by SIGTERM" $? 143
check "no QEMU left after SIGTERM" \
	"$(kill -0 "${qpid:-0}" 2>/dev/null && echo alive || echo gone)" gone

# -a auto: a bounded probe whose answer is cached
start=$(date +%s)
"$run" -k "$fake" -i "$initrd" -o "$work/boots/auto" -a auto \
	-c "$work/kvm-cache" >/dev/null 2>&1
check "-a auto boot" "$(cat "$work/boots/auto/verdict")" pass
check "-a auto caches tcg or kvm" \
	"$(grep -Ec '^(tcg|kvm)$' "$work/kvm-cache" 2>/dev/null)" 1
check "-a auto probe is time-bounded" \
	"$(test $(($(date +%s) - start)) -le 45 && echo y)" y
echo "# KVM probe said: $(cat "$work/kvm-cache" 2>/dev/null)"

# -- u16 boundary: u16-boundary.sh, verdict.sh, detect-table.sh -------------
# On the real logs of the kernels whose read_size limit moved (see
# tools/testdata/README.md), with their triage (the .expected files, which
# the triage corpus test checks against ubsan-triage), and with that triage
# altered: the sanitizer silent, or reporting another value.
td=$top/tools/testdata
mkboot() { # DIR LOG TSV RUNNER
	mkdir -p "$1"
	cp "$2" "$1/console.log"
	cp "$3" "$1/triage.tsv"
	echo "$4" >"$1/verdict"
}
v=$work/u16
mkboot "$v/64k" "$td/kit-read-size-64k.log" "$td/kit-read-size-64k.expected" fail
mkboot "$v/64k-silent" "$td/kit-read-size-64k.log" /dev/null fail
sed 's/value 65536 /value 65544 /; s/result 0$/result 8/' \
	"$td/kit-read-size-64k.expected" >"$work/other.tsv"
mkboot "$v/64k-other" "$td/kit-read-size-64k.log" "$work/other.tsv" fail
mkboot "$v/32k" "$td/kit-read-size-32k.log" "$td/kit-read-size-32k.expected" pass
u16() { # BOOT -> exit status of u16-boundary.sh
	sh "$top/report/u16-boundary.sh" "$v/$1/console.log" "$v/$1/triage.tsv" \
		>"$v/$1/u16.out" 2>&1
	echo $?
}
check "u16-boundary: 64k passed, value reported" "$(u16 64k)" 0
check "u16-boundary: 64k names 65536 truncated to 0" "$(grep -c \
	"core.c:1905:3 .*value 65536 from type 'int' to type 'u16'.*result 0\$" \
	"$v/64k/u16.out")" 1
check "u16-boundary: 64k, sanitizer silent" "$(u16 64k-silent)" 1
check "u16-boundary: 64k, another value reported" "$(u16 64k-other)" 1
check "u16-boundary: 32k, no group passed" "$(u16 32k)" 2
verdict() { # BOOT EXPECT -> PASS or FAIL
	sh "$top/report/verdict.sh" "$v/$1" "$2" >"$v/$1/verdict-$2.out" 2>&1
	sed -n "s/^verdict $1: \([A-Z]*\) .*/\1/p" "$v/$1/verdict-$2.out"
}
check "verdict: 64k caught" "$(verdict 64k caught)" PASS
check "verdict: 64k, sanitizer silent, not caught" \
	"$(verdict 64k-silent caught)" FAIL
check "verdict: 64k, another value, not caught" \
	"$(verdict 64k-other caught)" FAIL
verdict 32k fixed >/dev/null
check "verdict fixed: 32k limit is safe" \
	"$(grep -c '^  ok    no perf group passed the u16 boundary' \
	"$v/32k/verdict-fixed.out")" 1
verdict 64k fixed >/dev/null
check "verdict fixed: 64k limit fails" \
	"$(grep -c '^  FAIL  a perf group passed the u16 boundary' \
	"$v/64k/verdict-fixed.out")" 1
# detect-table.sh: the 64k row caught with its value, the 32k row clean,
# and REPORTED when its boot has a report from the file its patch touches.
d=$work/detect
mkboot "$d/boots/control" "$td/kit-read-size-32k.log" /dev/null pass
mkboot "$d/boots/perf-read-size-64k" "$td/kit-read-size-64k.log" \
	"$td/kit-read-size-64k.expected" fail
mkboot "$d/boots/perf-read-size-32k" "$td/kit-read-size-32k.log" \
	"$td/kit-read-size-32k.expected" pass
row() { # BUG -> result and reported columns
	awk -F'\t' -v b="$1" '$1 == b { print $5 " " $6 }' "$d/table.tsv"
}
sh "$top/corpus/detect-table.sh" "$top" 6.1 "$d" perf-read-size-64k \
	perf-read-size-32k >"$d/out" 2>&1
check "detect-table: 64k caught with its value" "$(row perf-read-size-64k)" \
	"caught kernel/events/core.c:1905:3 perf_event__header_size (65536 to 0)"
check "detect-table: 32k clean" "$(row perf-read-size-32k)" "clean -"
check "detect-table: clean rows out of the catch rate" \
	"$(grep -c '^caught 1 of 1 (100%)$' "$d/out")" 1
cp "$td/kit-read-size-64k.expected" "$d/boots/perf-read-size-32k/triage.tsv"
sh "$top/corpus/detect-table.sh" "$top" 6.1 "$d" perf-read-size-32k >/dev/null 2>&1
check "detect-table: 32k with a report from core.c" \
	"$(row perf-read-size-32k | cut -d' ' -f1)" REPORTED

# -- a real kernel, if there is one -----------------------------------------
if [ -r "$kernel" ]; then
	"$run" -k "$kernel" -i "$initrd" -o "$work/boots/real-none" -w none \
		-t 120 >/dev/null 2>&1
	check "real kernel: bare boot" \
		"$(cat "$work/boots/real-none/verdict")" pass
	bare=$(sed -n 's/^wall_s=\([0-9]*\).*/\1/p' \
		"$work/boots/real-none/boot.txt")
	# the sweep runs for well over 3 s, so this boot must time out
	"$run" -k "$kernel" -i "$initrd" -o "$work/boots/real-cut" \
		-w perf-read-format-sweep -t $((${bare:-10} + 3)) \
		>/dev/null 2>&1
	check "real kernel: cut-short boot times out" \
		"$(cat "$work/boots/real-cut/verdict")" timeout
	check "real kernel: its log is kept" \
		"$(grep -c 'Linux version' "$work/boots/real-cut/console.log")" 1
	# init kills a workload past kit.timeout and goes on with the next one
	"$run" -k "$kernel" -i "$initrd" -o "$work/boots/real-wto" \
		-w perf-read-format-sweep,perf-u16-2015 -x kit.timeout=2 \
		-t 120 >/dev/null 2>&1
	check "real kernel: init times a workload out" \
		"$(grep -c 'not ok 1 perf-read-format-sweep # TIMEOUT' \
		"$work/boots/real-wto/console.log")" 1
	check "real kernel: init runs the next workload" \
		"$(grep -c 'kit: end pass=1 fail=1' \
		"$work/boots/real-wto/console.log")" 1
	# a dynamically linked user workload loads its libraries in the guest
	"$run" -k "$kernel" -i "$work/u/initramfs.cpio" -o "$work/boots/real-user" \
		-w user-hello -t 120 >/dev/null 2>&1
	check "real kernel: a dynamically linked user workload runs" \
		"$(grep -c 'user-hello: user workload ran' \
		"$work/boots/real-user/console.log")" 1
else
	echo "# no kernel at $kernel: real-kernel checks skipped"
fi

echo "1..$((npass + nfail))"
echo "# $npass passed, $nfail failed"
[ $nfail = 0 ]
