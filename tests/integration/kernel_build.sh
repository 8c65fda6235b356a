#!/usr/bin/env bash
# kernel-build on a tiny fake tree (a real kernel build is far too slow for
# CI on 2 cores): argument checks, patch series applied in order, an applied
# patch skipped on the next build, a hunk that does not apply stops the
# build, and the build folder reused (configured once).
set -u
Z=${ZCBENCH:-bench/zcbench}
command -v patch >/dev/null || { echo "skip: patch(1) not installed"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

tree=$t/linux
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
cat > "$t/0001-good.patch" <<'P'
--- a/fs/splice.c
+++ b/fs/splice.c
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
P
cat > "$t/0002-bad.patch" <<'P'
--- a/fs/splice.c
+++ b/fs/splice.c
@@ -1,3 +1,3 @@
 one
-deux
+DEUX
 three
P

"$Z" kernel-build --tree "$tree" >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] || fail "no --out: exit $rc, want 2"
grep -q -- '--tree and --out are required' "$t/o" || fail "no --out: $(cat "$t/o")"
"$Z" kernel-build --tree "$t/nope" --out "$t/bz" >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'not a Linux source tree' "$t/o" || fail "bad tree: exit $rc $(cat "$t/o")"
"$Z" kernel-build --tree "$tree" --patches "$t/missing.patch" --out "$t/bz" >"$t/o" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q 'missing.patch' "$t/o" || fail "missing patch: exit $rc $(cat "$t/o")"

"$Z" kernel-build --tree "$tree" --patches "$t/0001-good.patch" --build "$t/b" --out "$t/bz" \
	>"$t/o" 2>&1 || fail "good build: $(cat "$t/o")"
grep -q TWO "$t/bz" || fail "the patched tree was not what got built"
grep -q -- '-e BPF_SYSCALL' "$t/b/.config" && grep -q VIRTIO_CONSOLE "$t/b/.config" ||
	fail "zcbench's options not set: $(cat "$t/b/.config")"
grep -q kvm_guest "$t/b/calls" || fail "kvm_guest.config not merged"

# Same series again: already applied, skipped; folder reused, not reconfigured.
"$Z" kernel-build --tree "$tree" --patches "$t/0001-good.patch" --build "$t/b" --out "$t/bz" \
	>"$t/o" 2>&1 || fail "rebuild: $(cat "$t/o")"
grep -q 'already applied' "$t/o" || fail "rebuild did not skip the applied patch: $(cat "$t/o")"
[ "$(grep -cx defconfig "$t/b/calls")" -eq 1 ] || fail "build folder reconfigured from scratch"
[ "$(grep -cx bzImage "$t/b/calls")" -eq 2 ] || fail "second bzImage build missing"

rm -f "$t/bz"
"$Z" kernel-build --tree "$tree" --patches "$t/0001-good.patch" "$t/0002-bad.patch" \
	--build "$t/b" --out "$t/bz" >"$t/o" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "bad patch: exit $rc, want 1: $(cat "$t/o")"
grep -q '0002-bad.patch does not apply' "$t/o" || fail "no clear message: $(cat "$t/o")"
grep -qi 'hunk' "$t/o" || fail "the failing hunk is not shown: $(cat "$t/o")"
[ ! -e "$t/bz" ] || fail "built despite a failed patch"
grep -q TWO "$tree/fs/splice.c" || fail "tree state changed"
# A git tree: git apply, and git's own report of the failure.
command -v git >/dev/null || { echo "ok (git tests skipped: no git)"; exit 0; }
g=$t/linux-git
cp -a "$tree" "$g"
rm -f "$g/fs/splice.c.orig"
printf 'one\ntwo\nthree\n' > "$g/fs/splice.c"
git -C "$g" init -q && git -C "$g" add -A &&
	git -C "$g" -c user.name=t -c user.email=t@t commit -qm base || fail "git init"
"$Z" kernel-build --tree "$g" --patches "$t/0001-good.patch" --build "$t/bg" --out "$t/bzg" \
	>"$t/o" 2>&1 || fail "git tree build: $(cat "$t/o")"
grep -q TWO "$t/bzg" || fail "git tree: patch not applied"
"$Z" kernel-build --tree "$g" --patches "$t/0002-bad.patch" --build "$t/bg" --out "$t/bzg" \
	>"$t/o" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'does not apply.*git apply' "$t/o" && grep -q 'patch failed' "$t/o" ||
	fail "git tree bad patch: exit $rc: $(cat "$t/o")"
# A plain tree inside some other repository (an unpacked tarball under a
# checkout's ignored build/) is patched with patch -p1: git apply from inside
# another repository skipped every path and reported success in a worktree.
mkdir -p "$g/sub" && cp -a "$tree/." "$g/sub/" && printf 'one\ntwo\nthree\n' > "$g/sub/fs/splice.c"
echo /sub/ > "$g/.gitignore"
"$Z" kernel-build --tree "$g/sub" --patches "$t/0001-good.patch" --build "$t/bs" --out "$t/bzs" \
	>"$t/o" 2>&1 || fail "nested tree build: $(cat "$t/o")"
grep -q TWO "$g/sub/fs/splice.c" || fail "nested tree: patch silently not applied"
echo "ok"
