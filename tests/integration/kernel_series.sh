#!/usr/bin/env bash
# The patch series in hosts/patches/6.12/ against the source they are for:
# Debian's linux-source-6.12, unpacked once under build/kernels/src (shared
# with make kernels). Each series applies cleanly with `kernel-build --series
# DIR --config-only` to its own hard-linked copy, and the configuration has
# what the guest needs (BTF among them) and nothing olddefconfig dropped;
# Falcato's on top of Safin's stops at the hunk the two share, naming it,
# without touching the tree. No kernel is built (make kernels does that).
# Skips when linux-source-6.12 is not installed: it is ~150 MB and its
# unpacked tree 1.7 GB, too much for `make deps` to pull for one test.
. "$(dirname "$0")/../lib.sh"
command -v patch >/dev/null || skip "patch(1) not installed"
for p in make gcc flex bison; do
	command -v $p >/dev/null || skip "$p not installed (make deps)"
done
src=$(bash tests/guest/kernel-source.sh); rc=$?
[ $rc -eq 0 ] || exit $rc
S=hosts/patches/6.12
# Hard-linked copies must be on the source's filesystem (/tmp may not be).
W=$(mktemp -d "$(dirname "$src")/../.series-test.XXXXXX") || fail "mktemp beside $src"
on_exit "rm -rf '$W'"
pristine() { ! grep -q splice_needs_write "$src/fs/splice.c" && grep -q PIPE_BUF_FLAG_GIFT "$src/include/linux/pipe_fs_i.h"; }
jqc() { jq -e "$@" >/dev/null; }
check "the unpacked source is pristine" pristine

for series in safin-v1 falcato-v1; do
	t=$W/$series
	cp -al "$src" "$t" || fail "cp -al $src $t"
	"$ZCBENCH" kernel-build --tree "$t" --series "$S/$series" --build "$TMP/b-$series" --config-only \
		>"$TMP/o" 2>&1 || fail "$series: kernel-build --config-only: $(cat "$TMP/o")"
	r=$TMP/b-$series/zcbench-build.json
	check "$series: every patch applied" jqc --argjson n "$(ls "$S/$series"/[0-9]*.patch | wc -l)" \
		'(.series.patches | length) == $n and ([.series.patches[].state] | unique) == ["applied"]' "$r"
	check "$series: no requested option dropped by olddefconfig" jqc '.config.not_as_requested == []' "$r"
	check "$series: origin recorded" jqc '.tree.origin.package == "linux-source-6.12" and .tree.version != ""' "$r"
	for o in DEBUG_INFO_BTF BPF_SYSCALL VETH NET_NS VIRTIO_CONSOLE TMPFS; do
		check "$series: CONFIG_$o=y" grep -qx "CONFIG_$o=y" "$TMP/b-$series/.config"
	done
	check "$series: LOCALVERSION -zc-$series" grep -qx "CONFIG_LOCALVERSION=\"-zc-$series\"" "$TMP/b-$series/.config"
	check "$series: the shared source is still pristine" pristine
done
check "safin-v1: PIPE_BUF_FLAG_GIFT gone" eval '! grep -q PIPE_BUF_FLAG_GIFT "$W/safin-v1/include/linux/pipe_fs_i.h"'
check "safin-v1: vmsplice moved to fs/read_write.c" grep -q 'SYSCALL_DEFINE4(vmsplice' "$W/safin-v1/fs/read_write.c"
check "falcato-v1: the sysctl is there" grep -q 'splice_needs_write' "$W/falcato-v1/fs/splice.c" "$W/falcato-v1/fs/sysctls.c"

# The two series do not stack (both edit iter_to_pipe(), which Safin's
# removes): on the Safin tree, Falcato's patch stops at fs/splice.c.
before=$(sha256sum "$W/safin-v1/fs/splice.c")
"$ZCBENCH" kernel-build --tree "$W/safin-v1" --series "$S/falcato-v1" --build "$TMP/b-both" --config-only \
	>"$TMP/o" 2>&1; rc=$?
check "falcato on safin: exit 1" [ $rc -eq 1 ]
check "falcato on safin: patch, file and hunk named" \
	grep -q '0001-fs-splice-allow.*does not apply.*fs/splice.c hunk #[0-9]* FAILED at line [0-9]*' "$TMP/o"
check "falcato on safin: the tree was not touched" [ "$(sha256sum "$W/safin-v1/fs/splice.c")" = "$before" ]
check "falcato on safin: not even fs/sysctls.c" eval '! grep -q splice_needs_write "$W/safin-v1/fs/sysctls.c"'
finish
