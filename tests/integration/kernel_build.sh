#!/usr/bin/env bash
# kernel-build on a tiny fake tree (a real kernel build is far too slow for
# CI on 2 cores): argument checks, a series folder applied in order (file
# names, or its quilt `series` file), an applied patch skipped on the next
# build, a series that does not apply stops before the tree is touched and
# names the patch, file and hunk (patch -p1 and git apply), the record
# beside the image, and options olddefconfig dropped reported.
. "$(dirname "$0")/../lib.sh"
command -v patch >/dev/null || skip "patch(1) not installed"

tree=$TMP/linux
mkdir -p "$tree/arch/x86" "$tree/scripts" "$tree/fs"
: > "$tree/arch/x86/Kconfig"
printf 'one\ntwo\nthree\n' > "$tree/fs/splice.c"
printf 'alpha\nbeta\ngamma\n' > "$tree/fs/pipe.c"
# Stands in for kbuild: records each target in O/calls; olddefconfig drops
# CONFIG_DROPME (a symbol whose dependencies are missing) as the real one would.
cat > "$tree/Makefile" <<'M'
VERSION = 6
PATCHLEVEL = 12
SUBLEVEL = 118
EXTRAVERSION =
O ?= .
x86_64_defconfig:
	echo CONFIG_X86_64=y > $(O)/.config; echo 'CONFIG_CC_VERSION_TEXT="fakecc 1.0"' >> $(O)/.config; echo defconfig >> $(O)/calls
kvm_guest.config:
	echo kvm_guest >> $(O)/calls
olddefconfig:
	sed -i '/^CONFIG_DROPME=/d' $(O)/.config; echo olddefconfig >> $(O)/calls
bzImage:
	mkdir -p $(O)/arch/x86/boot $(O)/include/config; cat fs/splice.c fs/pipe.c > $(O)/arch/x86/boot/bzImage
	sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"/6.12.118\1/p' $(O)/.config > $(O)/include/config/kernel.release
	echo bzImage >> $(O)/calls
M
# scripts/config as far as kernel-build uses it: -e, -d, -m, --set-str.
cat > "$tree/scripts/config" <<'S'
#!/bin/sh
f=$2; shift 2
while [ $# -gt 0 ]; do
	case $1 in
	-e) sed -i "/^CONFIG_$2=/d;/^# CONFIG_$2 is/d" "$f"; echo "CONFIG_$2=y" >> "$f"; shift 2 ;;
	-m) sed -i "/^CONFIG_$2=/d;/^# CONFIG_$2 is/d" "$f"; echo "CONFIG_$2=m" >> "$f"; shift 2 ;;
	-d) sed -i "/^CONFIG_$2=/d;/^# CONFIG_$2 is/d" "$f"; echo "# CONFIG_$2 is not set" >> "$f"; shift 2 ;;
	--set-str) echo "CONFIG_$2=\"$3\"" >> "$f"; shift 3 ;;
	*) echo "fake scripts/config: $1?" >&2; exit 1 ;;
	esac
done
S
chmod +x "$tree/scripts/config"
# A patch changing line 2 of FILE from $2 to $3.
hunk() { printf -- '--- a/%s\n+++ b/%s\n@@ -1,3 +1,3 @@\n %s\n-%s\n+%s\n %s\n' "$1" "$1" "$4" "$2" "$3" "$5"; }
mkdir -p "$TMP/good" "$TMP/bad" "$TMP/quilt"
hunk fs/splice.c two TWO one three >"$TMP/good/0001-splice.patch"
hunk fs/pipe.c beta BETA alpha gamma >"$TMP/good/0002-pipe.patch"
echo 'not a patch of the series' >"$TMP/good/README.md"
cp "$TMP/good/0001-splice.patch" "$TMP/bad/0001-splice.patch"
hunk fs/pipe.c deux DEUX alpha gamma >"$TMP/bad/0002-pipe.patch"
# quilt order differs from name order: z-second changes what a-first made.
hunk fs/splice.c two TWO one three >"$TMP/quilt/z-first.patch"
hunk fs/splice.c TWO 2 one three >"$TMP/quilt/a-second.patch"
printf '# quilt series\nz-first.patch\na-second.patch -p1\n' >"$TMP/quilt/series"

jqc() { jq -e "$@" >/dev/null; }
expect2() { # expect2 'message' args...
	local msg=$1; shift
	"$ZCBENCH" kernel-build "$@" >"$TMP/o" 2>&1; local rc=$?
	[ $rc -eq 2 ] || fail "kernel-build $*: exit $rc, want 2: $(cat "$TMP/o")"
	grep -q -- "$msg" "$TMP/o" || fail "kernel-build $*: no '$msg' in: $(cat "$TMP/o")"
}
expect2 '--tree is required' --out "$TMP/bz"
expect2 '--out is required unless --config-only' --tree "$tree"
expect2 'not a Linux source tree' --tree "$TMP/nope" --out "$TMP/bz"
expect2 'missing.patch' --tree "$tree" --patches "$TMP/missing.patch" --out "$TMP/bz"
expect2 'No such file' --tree "$tree" --series "$TMP/nope" --out "$TMP/bz"
expect2 'no series file and no \[0-9\]\*.patch' --tree "$tree" --series "$TMP" --out "$TMP/bz"
expect2 'is not NAME=y|n|m' --tree "$tree" --set debug_info=y --out "$TMP/bz"
expect2 "character ' ' not allowed" --tree "$tree" --name 'a b' --out "$TMP/bz"
ok "bad arguments refused with exit 2"

"$ZCBENCH" kernel-build --tree "$tree" --series "$TMP/good" --set DROPME=y --build "$TMP/b" --out "$TMP/bz" \
	>"$TMP/o" 2>&1 || fail "good build: $(cat "$TMP/o")"
check "the patched tree was what got built" grep -q TWO "$TMP/bz"
check "both patches applied in order" grep -q BETA "$TMP/bz"
check "zcbench's options set" grep -q '^CONFIG_BPF_SYSCALL=y' "$TMP/b/.config"
check "BTF asked for" grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$TMP/b/.config"
check "a small guest: DRM off" grep -q '^# CONFIG_DRM is not set' "$TMP/b/.config"
check "LOCALVERSION is -zc-SERIES" grep -q '^CONFIG_LOCALVERSION="-zc-good"' "$TMP/b/.config"
check "kvm_guest.config merged" grep -q kvm_guest "$TMP/b/calls"
check "the dropped option is reported" grep -q 'CONFIG_DROPME is n after olddefconfig, not y' "$TMP/o"
check "per-step logs" test -f "$TMP/b/zcbench-logs/check-01.log" -a -f "$TMP/b/zcbench-logs/apply-02.log" \
	-a -f "$TMP/b/zcbench-logs/make-bzImage.log" -a -f "$TMP/b/zcbench-logs/olddefconfig.log"
j=$TMP/bz.json
check "record beside the image" jqc . "$j"
sums=$(cd "$TMP/good" && sha256sum 0001-splice.patch 0002-pipe.patch)
check "series hash: sha256 of the sha256sum lines" \
	[ "$(jq -r .series.sha256 "$j")" = "$(printf '%s\n' "$sums" | sha256sum | cut -d' ' -f1)" ]
check "each patch with its sha256 and state" jqc --arg s "$(sha256sum <"$TMP/good/0002-pipe.patch" | cut -d' ' -f1)" \
	'(.series.patches | length) == 2 and .series.patches[1].sha256 == $s and
	 ([.series.patches[].state] | unique) == ["applied"] and .series.name == "good"' "$j"
check "image sha256 and size" jqc --arg s "$(sha256sum <"$TMP/bz" | cut -d' ' -f1)" --argjson n "$(stat -c %s "$TMP/bz")" \
	'.image.sha256 == $s and .image.bytes == $n' "$j"
check "config sha256 and copy" jqc --arg s "$(sha256sum <"$TMP/bz.config" | cut -d' ' -f1)" \
	'.config.sha256 == $s and (.config.not_as_requested | map(.option)) == ["DROPME"] and
	 .config.set == ["DROPME=y"] and (.config.base | index("x86_64_defconfig")) != null' "$j"
check "release, version, compiler, jobs, times" jqc '.kernel_release == "6.12.118-zc-good" and
	.tree.version == "6.12.118" and .compiler == "fakecc 1.0" and .jobs >= 1 and .wall_s.total > 0 and
	(.cpu_s | has("make-bzImage")) and (.image.path | startswith("/"))' "$j"

# Same series again: already applied, skipped; configured afresh, built again.
"$ZCBENCH" kernel-build --tree "$tree" --series "$TMP/good" --build "$TMP/b" --out "$TMP/bz" \
	>"$TMP/o" 2>&1 || fail "rebuild: $(cat "$TMP/o")"
check "rebuild skips the applied patches" grep -q 'already applied, skipped' "$TMP/o"
check "rebuild records them as already applied" jqc '[.series.patches[].state] | unique == ["already-applied"]' "$TMP/bz.json"
check "configured from defconfig every time" [ "$(grep -cx defconfig "$TMP/b/calls")" -eq 2 ]
check "second bzImage build" [ "$(grep -cx bzImage "$TMP/b/calls")" -eq 2 ]

# A series whose second patch fails: nothing touched, file and hunk named.
fresh=$TMP/fresh
cp -a "$tree" "$fresh" && printf 'one\ntwo\nthree\n' >"$fresh/fs/splice.c" && printf 'alpha\nbeta\ngamma\n' >"$fresh/fs/pipe.c"
"$ZCBENCH" kernel-build --tree "$fresh" --series "$TMP/bad" --build "$TMP/bb" --out "$TMP/bzb" >"$TMP/o" 2>&1; rc=$?
check "bad series: exit 1" [ $rc -eq 1 ]
check "bad series: patch, file and hunk named" grep -q '0002-pipe.patch does not apply .*fs/pipe.c hunk #1 FAILED at line 1' "$TMP/o"
check "bad series: the first patch was not applied either" grep -qx two "$fresh/fs/splice.c"
check "bad series: nothing built" test ! -e "$TMP/bzb"
check "bad series: no .orig or .rej left in the tree" [ -z "$(find "$fresh" -name '*.orig' -o -name '*.rej')" ]

# quilt: the series file's order, not the names'.
q=$TMP/q
cp -a "$fresh" "$q"
"$ZCBENCH" kernel-build --tree "$q" --series "$TMP/quilt" --build "$TMP/bq" --config-only >"$TMP/o" 2>&1 ||
	fail "quilt series: $(cat "$TMP/o")"
check "quilt series applied in its order" grep -qx 2 "$q/fs/splice.c"
check "config-only leaves a record in the build folder" jqc '.image == null and (.series.patches | map(.file | split("/") | last)) ==
	["z-first.patch", "a-second.patch"]' "$TMP/bq/zcbench-build.json"
printf 'z-first.patch -p0\n' >"$TMP/quilt/series"
expect2 'only -p1 patches' --tree "$q" --series "$TMP/quilt" --config-only

# A git tree: git apply, and git's "patch failed: FILE:LINE" turned into the hunk.
command -v git >/dev/null || { finish; }
g=$TMP/linux-git
cp -a "$fresh" "$g"
git -C "$g" init -q && git -C "$g" add -A &&
	git -C "$g" -c user.name=t -c user.email=t@t commit -qm base || fail "git init"
"$ZCBENCH" kernel-build --tree "$g" --series "$TMP/good" --build "$TMP/bg" --out "$TMP/bzg" \
	>"$TMP/o" 2>&1 || fail "git tree build: $(cat "$TMP/o")"
check "git tree: patched" grep -q TWO "$TMP/bzg"
check "git tree: recorded as git apply" jqc '.series.tool == "git apply" and .tree.git' "$TMP/bzg.json"
git -C "$g" checkout -q -- . || fail "git checkout"
"$ZCBENCH" kernel-build --tree "$g" --series "$TMP/bad" --build "$TMP/bg" --out "$TMP/bzg2" >"$TMP/o" 2>&1; rc=$?
check "git tree bad series: exit 1, hunk named" eval '[ $rc -eq 1 ] && grep -q "0002-pipe.patch does not apply .*(git apply): fs/pipe.c hunk #1 FAILED at line 1" "$TMP/o"'
check "git tree bad series: tree untouched" [ -z "$(git -C "$g" status --porcelain)" ]
# A plain tree inside some other repository (an unpacked tarball under a
# checkout's ignored build/) is patched with patch -p1: git apply from inside
# another repository skipped every path and reported success in a worktree.
mkdir -p "$g/sub" && cp -a "$fresh/." "$g/sub/"
echo /sub/ > "$g/.gitignore"
"$ZCBENCH" kernel-build --tree "$g/sub" --series "$TMP/good" --build "$TMP/bs" --out "$TMP/bzs" \
	>"$TMP/o" 2>&1 || fail "nested tree build: $(cat "$TMP/o")"
check "nested tree: patch not silently skipped" grep -q TWO "$g/sub/fs/splice.c"
finish
