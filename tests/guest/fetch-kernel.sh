#!/usr/bin/env bash
# Print the path of a prebuilt Debian cloud kernel (bzImage) unpacked under
# build/guest-kernel/, fetching it first: `apt-get download` + `dpkg-deb -x`,
# so the host's own kernel and boot setup are never touched. The package is
# the versioned one behind linux-image-cloud-amd64 (or $ZC_GUEST_KERNEL_PKG).
# Exit 77 (skip) when it cannot be fetched.
set -u
cd "$(dirname "$0")/../.."
pkg=${ZC_GUEST_KERNEL_PKG:-$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9].*-cloud-amd64\)$/\1/p' | head -n1)}
[ -n "$pkg" ] || { echo "skip: no linux-image-*-cloud-amd64 in the apt lists (apt-get update?)" >&2; exit 77; }
dir=build/guest-kernel/$pkg
img=$(ls "$dir"/root/boot/vmlinuz-* 2>/dev/null | head -n1)
if [ -z "$img" ]; then
	mkdir -p "$dir"
	( cd "$dir" && apt-get download "$pkg" >download.log 2>&1 ) ||
		{ echo "skip: apt-get download $pkg failed: $(tail -n1 "$dir/download.log")" >&2; exit 77; }
	dpkg-deb -x "$dir"/*.deb "$dir/root" || { echo "dpkg-deb -x failed" >&2; exit 1; }
	rm -f "$dir"/*.deb
	img=$(ls "$dir"/root/boot/vmlinuz-* | head -n1)
fi
echo "$img"
