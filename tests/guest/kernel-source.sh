#!/usr/bin/env bash
# Print the path of Debian's linux-source-6.12 unpacked under
# build/kernels/src/ (unpacking /usr/src/linux-source-6.12.tar.xz the first
# time, and again when the package was upgraded), for `make kernels` and the
# patch series test. The unpacked tree gets a .zcbench-origin file
# (package, version, tarball) that kernel-build copies into its record.
#   --install   apt-get install the package when it is missing (make kernels)
# Exit 77 (skip) when the package is not installed and --install is not given.
set -u
cd "$(dirname "$0")/../.."
pkg=${ZC_KERNEL_SOURCE_PKG:-linux-source-6.12}
dest=${ZC_KERNEL_SOURCE_DIR:-build/kernels/src}
tarball=/usr/src/$pkg.tar.xz
installed() { dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; }
if ! installed; then
	if [ "${1:-}" != --install ]; then
		echo "skip: $pkg is not installed (apt-get install $pkg, ~150 MB; make kernels installs it)" >&2
		exit 77
	fi
	[ "$(id -u)" -eq 0 ] || { echo "$pkg is missing: run as root, or: apt-get install $pkg" >&2; exit 1; }
	apt-get install -y "$pkg" >&2 || { echo "apt-get install $pkg failed" >&2; exit 1; }
fi
[ -r "$tarball" ] || { echo "$pkg is installed but $tarball is missing" >&2; exit 1; }
ver=$(dpkg-query -W -f '${Version}' "$pkg")
tree=$dest/$pkg
current() { [ "$(sed -n 's/^version=//p' "$tree/.zcbench-origin" 2>/dev/null)" = "$ver" ]; }
if ! current; then
	mkdir -p "$dest"
	# One unpack at a time (a test and make kernels may ask together); into a
	# temporary folder renamed at the end, so a half unpacked tree is never used.
	exec 9>"$dest/.lock"
	flock 9
	if ! current; then
		tmp=$dest/.unpack.$$
		rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
		echo "unpacking $tarball ($pkg $ver) into $tree" >&2
		tar -xf "$tarball" -C "$tmp" || { rm -rf "$tmp"; echo "tar -xf $tarball failed" >&2; exit 1; }
		[ -f "$tmp/$pkg/arch/x86/Kconfig" ] || { rm -rf "$tmp"; echo "$tarball has no $pkg/ tree" >&2; exit 1; }
		printf 'package=%s\nversion=%s\ntarball=%s\n' "$pkg" "$ver" "$tarball" >"$tmp/$pkg/.zcbench-origin"
		rm -rf "$tree" && mv "$tmp/$pkg" "$tree" && rmdir "$tmp" || exit 1
	fi
	exec 9>&-
fi
echo "$PWD/$tree"
