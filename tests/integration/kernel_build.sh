#!/usr/bin/env bash
# kernel-build on a tiny fake tree (a real kernel build is far too slow for
# CI on 2 cores): argument checks, patch series applied in order, an applied
# patch skipped on the next build, a hunk that does not apply stops the
# build, and the build folder reused (configured once).
. "$(dirname "$0")/../lib.sh"
command -v patch >/dev/null || skip "patch(1) not installed"

tree=$TMP/linux
mkdir -p "$tree/arch/x86" "$tree/scripts" "$tree/fs"
: > "$tree/arch/x86/Kconfig"
printf 'one\ntwo\nthree\n' > "$tree/fs/splice.c"
# Stands in for kbuild: records each target in O/calls.
cat > "$tree/Makefile" <<'M'
O ?= .
x86_64_defconfig:
	echo CONFIG_X86_64=y > $(O)/.config; echo defconfig >> $(O)/calls
kvm_guest.config:
	echo kvm_guest >> $(O)/calls
olddefconfig:
	echo olddefconfig >> $(O)/calls
bzImage:
	mkdir -p $(O)/arch/x86/boot; cp fs/splice.c $(O)/arch/x86/boot/bzImage; echo bzImage >> $(O)/calls
M
cat > "$tree/scripts/config" <<'S'
#!/bin/sh
f=$2; shift 2; echo "$@" >> "$f"
S
chmod +x "$tree/scripts/config"
# A patch changing fs/splice.c's second line from $1 to $2.
hunk() { printf -- '--- a/fs/splice.c\n+++ b/fs/splice.c\n@@ -1,3 +1,3 @@\n one\n-%s\n+%s\n three\n' "$1" "$2"; }
hunk two TWO >"$TMP/0001-good.patch"
hunk deux DEUX >"$TMP/0002-bad.patch"

"$ZCBENCH" kernel-build --tree "$tree" >"$TMP/o" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "no --out: exit $rc, want 2"
grep -q -- '--tree and --out are required' "$TMP/o" || fail "no --out: $(cat "$TMP/o")"
"$ZCBENCH" kernel-build --tree "$TMP/nope" --out "$TMP/bz" >"$TMP/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'not a Linux source tree' "$TMP/o" || fail "bad tree: exit $rc $(cat "$TMP/o")"
"$ZCBENCH" kernel-build --tree "$tree" --patches "$TMP/missing.patch" --out "$TMP/bz" >"$TMP/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'missing.patch' "$TMP/o" || fail "missing patch: exit $rc $(cat "$TMP/o")"

"$ZCBENCH" kernel-build --tree "$tree" --patches "$TMP/0001-good.patch" --build "$TMP/b" --out "$TMP/bz" \
	>"$TMP/o" 2>&1 || fail "good build: $(cat "$TMP/o")"
grep -q TWO "$TMP/bz" || fail "the patched tree was not what got built"
grep -q -- '-e BPF_SYSCALL' "$TMP/b/.config" && grep -q VIRTIO_CONSOLE "$TMP/b/.config" ||
	fail "zcbench's options not set: $(cat "$TMP/b/.config")"
grep -q kvm_guest "$TMP/b/calls" || fail "kvm_guest.config not merged"

# Same series again: already applied, skipped; folder reused, not reconfigured.
"$ZCBENCH" kernel-build --tree "$tree" --patches "$TMP/0001-good.patch" --build "$TMP/b" --out "$TMP/bz" \
	>"$TMP/o" 2>&1 || fail "rebuild: $(cat "$TMP/o")"
grep -q 'already applied' "$TMP/o" || fail "rebuild did not skip the applied patch: $(cat "$TMP/o")"
[ "$(grep -cx defconfig "$TMP/b/calls")" -eq 1 ] || fail "build folder reconfigured from scratch"
[ "$(grep -cx bzImage "$TMP/b/calls")" -eq 2 ] || fail "second bzImage build missing"

rm -f "$TMP/bz"
"$ZCBENCH" kernel-build --tree "$tree" --patches "$TMP/0001-good.patch" "$TMP/0002-bad.patch" \
	--build "$TMP/b" --out "$TMP/bz" >"$TMP/o" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "bad patch: exit $rc, want 1: $(cat "$TMP/o")"
grep -q '0002-bad.patch does not apply' "$TMP/o" || fail "no clear message: $(cat "$TMP/o")"
grep -qi 'hunk' "$TMP/o" || fail "the failing hunk is not shown: $(cat "$TMP/o")"
[ ! -e "$TMP/bz" ] || fail "built despite a failed patch"
grep -q TWO "$tree/fs/splice.c" || fail "tree state changed"
# A git tree: git apply, and git's own report of the failure.
command -v git >/dev/null || { echo "ok (git tests skipped: no git)"; exit 0; }
g=$TMP/linux-git
cp -a "$tree" "$g"
rm -f "$g/fs/splice.c.orig"
printf 'one\ntwo\nthree\n' > "$g/fs/splice.c"
git -C "$g" init -q && git -C "$g" add -A &&
	git -C "$g" -c user.name=t -c user.email=t@t commit -qm base || fail "git init"
"$ZCBENCH" kernel-build --tree "$g" --patches "$TMP/0001-good.patch" --build "$TMP/bg" --out "$TMP/bzg" \
	>"$TMP/o" 2>&1 || fail "git tree build: $(cat "$TMP/o")"
grep -q TWO "$TMP/bzg" || fail "git tree: patch not applied"
"$ZCBENCH" kernel-build --tree "$g" --patches "$TMP/0002-bad.patch" --build "$TMP/bg" --out "$TMP/bzg" \
	>"$TMP/o" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'does not apply.*git apply' "$TMP/o" && grep -q 'patch failed' "$TMP/o" ||
	fail "git tree bad patch: exit $rc: $(cat "$TMP/o")"
# A plain tree inside some other repository (an unpacked tarball under a
# checkout's ignored build/) is patched with patch -p1: git apply from inside
# another repository skipped every path and reported success in a worktree.
mkdir -p "$g/sub" && cp -a "$tree/." "$g/sub/" && printf 'one\ntwo\nthree\n' > "$g/sub/fs/splice.c"
echo /sub/ > "$g/.gitignore"
"$ZCBENCH" kernel-build --tree "$g/sub" --patches "$TMP/0001-good.patch" --build "$TMP/bs" --out "$TMP/bzs" \
	>"$TMP/o" 2>&1 || fail "nested tree build: $(cat "$TMP/o")"
grep -q TWO "$g/sub/fs/splice.c" || fail "nested tree: patch silently not applied"
echo "ok"
