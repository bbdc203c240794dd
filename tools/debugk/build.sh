#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build.sh [--dir|--release|--image|--verify CONFIG] - fairdie's debug
# kernel.
#
# Builds, once, a kernel from Debian's linux-source-6.1 with KASAN, lockdep,
# kmemleak, UBSAN, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS and fault injection:
# tinyconfig, with tools/debugk/debug.config merged on top by the kernel's
# own scripts/kconfig/merge_config.sh.  The result is cached in
# .build/debugk/kernel, with a key (a hash of the fragment, the source
# package version and the compiler) in its .fairdie-built: only the first
# run pays; a new fragment or source version rebuilds from scratch.
# The tree is left ready to build out-of-tree modules against (it is the
# module's KDIR) and to boot (arch/x86/boot/bzImage).
#
# Without an option, builds if needed and prints the build directory.
#   --dir      print the build directory, build nothing
#   --key      print the key of the build that would be used
#   --release  build if needed, print the kernel release
#   --image    build if needed, print the bzImage's path
#   --verify CONFIG
#              check that every line of the fragment is in CONFIG
#
# Environment: DEBUGK_JOBS (default: the number of CPUs), DEBUGK_NICE
# (default 10), DEBUGK_BUILD_DIR (default REPO/.build/debugk).
set -eu

# The body is one { } block, read whole before any of it runs: editing
# this file cannot upset a build under way.
{
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
frag=$here/debug.config
tarball=/usr/src/linux-source-6.1.tar.xz
build=${DEBUGK_BUILD_DIR:-$top/.build/debugk}
jobs=${DEBUGK_JOBS:-$(nproc)}
nice=${DEBUGK_NICE:-10}

die() {
	echo "debugk: $*" >&2
	exit 1
}

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed: run 'make deps'"
[ -f "$tarball" ] || die "no $tarball: run 'make deps'"
# What the build depends on.  LAYOUT changes when this script starts
# building differently.
LAYOUT=1
key=$( {
	echo "layout $LAYOUT"
	cat "$frag"
	echo "$srcver"
	gcc --version | head -n 1
} | sha256sum | cut -c 1-16)
src=$build/src-$srcver
out=$build/kernel

# verify CONFIG: every line of the fragment must have made it into CONFIG:
# Kconfig silently drops a symbol whose dependencies are not met.
verify() {
	bad=0
	while read -r line; do
		case $line in
		CONFIG_*=*) want=$line; sym=${line%%=*} ;;
		'# CONFIG_'*' is not set') sym=${line#\# }; sym=${sym%% *}; want= ;;
		*) continue ;;
		esac
		have=$(grep -E "^($sym=|# $sym is not set)" "$1" || true)
		if [ -n "$want" ]; then
			[ "$have" = "$want" ] && continue
		else
			case $have in '' | "# $sym is not set") continue ;; esac
		fi
		echo "debugk: $frag asks for '${want:-# $sym is not set}', got '${have:-nothing}'" >&2
		bad=1
	done <"$frag"
	return $bad
}

case ${1:-} in
--dir) echo "$out"; exit 0 ;;
--key) echo "$key"; exit 0 ;;
--verify) verify "$2"; exit ;;
'' | --release | --image) ;;
*) die "usage: build.sh [--dir|--key|--release|--image|--verify CONFIG]" ;;
esac

report() {
	case ${1:-} in
	--release) cat "$out/include/config/kernel.release" ;;
	--image) echo "$out/arch/x86/boot/bzImage" ;;
	*) echo "$out" ;;
	esac
}

built() {
	[ "$(cat "$out/.fairdie-built" 2>/dev/null)" = "$key" ]
}

if built; then
	report "${1:-}"
	exit 0
fi

mkdir -p "$build"
# One build at a time (make vmtest and make demo may start together).
exec 9>"$build/.lock"
flock 9
if built; then
	report "${1:-}"
	exit 0
fi

for t in flex bison bc gcc make perl; do
	command -v $t >/dev/null || die "$t not found: run 'make deps'"
done
[ -f /usr/include/libelf.h ] || die "libelf-dev is missing: run 'make deps'"

start=$(date +%s)
if [ ! -f "$src/.fairdie-unpacked" ]; then
	echo "debugk: unpacking $tarball ($srcver)" >&2
	rm -rf "$src" "$build/src.tmp"
	mkdir -p "$build/src.tmp"
	nice -n "$nice" tar -C "$build/src.tmp" -xJf "$tarball"
	mv "$build/src.tmp/linux-source-6.1" "$src"
	rmdir "$build/src.tmp"
	: >"$src/.fairdie-unpacked"
fi

echo "debugk: configuring $out" >&2
rm -rf "$out"
mkdir -p "$out"
kmake() {
	nice -n "$nice" make -C "$src" O="$out" ARCH=x86_64 "$@"
}
kmake -s tinyconfig
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" >/dev/null
kmake -s olddefconfig

verify "$out/.config" || die "the fragment does not apply to $srcver"

echo "debugk: building (make -j$jobs bzImage modules, nice $nice; the first" \
	"build takes a while)" >&2
kmake -s -j"$jobs" bzImage modules
echo "$key" >"$out/.fairdie-built"
echo "debugk: built $(cat "$out/include/config/kernel.release") in" \
	"$(( $(date +%s) - start ))s" >&2

# Sources of other versions are not needed any more.
for d in "$build"/src-*; do
	[ -d "$d" ] || continue
	[ "$d" = "$src" ] || rm -rf "$d"
done
report "${1:-}"
exit 0
}
