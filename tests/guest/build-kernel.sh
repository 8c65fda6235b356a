#!/usr/bin/env bash
# make kernels: one guest kernel. build-kernel.sh KERNELS NAME [SERIES_DIR]
# builds KERNELS/NAME-bzImage (+ .json, .config) with zcbench kernel-build
# from its own tree KERNELS/trees/NAME: a hard-linked copy of the unpacked
# linux-source-6.12 (patch and git apply replace the files they change, so
# the shared source stays pristine), re-made from it when the source or the
# series changed, else kept, so kbuild's build folder KERNELS/build/NAME
# rebuilds only what changed.
set -u
cd "$(dirname "$0")/../.."
K=$1 name=$2 series=${3:-}
ZCBENCH=${ZCBENCH:-bench/zcbench}
# kbuild is its own make: not silenced (-s), nor given variables or a
# jobserver, by the make that runs this script.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL
# The source is unpacked under KERNELS/src, beside the trees hard-linked
# from it (cp -al needs one filesystem; and KERNELS=/elsewhere must not fill
# the repository's build/ with a 1.7 GB unpack).
export ZC_KERNEL_SOURCE_DIR=${ZC_KERNEL_SOURCE_DIR:-$K/src}
src=$(bash tests/guest/kernel-source.sh --install) || exit 1
tree=$K/trees/$name
want=$(cat "$src/.zcbench-origin"; [ -z "$series" ] || sha256sum "$series"/*)
if [ "$(cat "$tree/.zcbench-tree" 2>/dev/null)" != "$want" ]; then
	echo "make kernels: $name: fresh tree $tree from $src" >&2
	rm -rf "$tree" && mkdir -p "$K/trees" && cp -al "$src" "$tree" || exit 1
	printf '%s\n' "$want" >"$tree/.zcbench-tree"
fi
args=(--tree "$tree" --out "$K/$name-bzImage" --build "$K/build/$name")
[ -z "$series" ] || args+=(--series "$series")
t0=$(date +%s)
"$ZCBENCH" kernel-build "${args[@]}" || exit 1
# The pristine source must still be pristine (hard links broken by the tools).
if grep -q splice_needs_write "$src/fs/splice.c" || ! grep -q PIPE_BUF_FLAG_GIFT "$src/include/linux/pipe_fs_i.h"; then
	echo "make kernels: $src was patched through a hard link: delete it and run again" >&2
	exit 1
fi
jq -r --arg s $(( $(date +%s) - t0 )) '"make kernels: \(.series.name): \(.kernel_release), \(.image.bytes) bytes, \($s) s here (make bzImage \(.wall_s["make-bzImage"] | floor) s wall, \(.cpu_s["make-bzImage"] // 0 | floor) s CPU), \(.config.not_as_requested | length) option(s) not as requested"' "$K/$name-bzImage.json"
