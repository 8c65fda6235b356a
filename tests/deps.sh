#!/usr/bin/env bash
# make deps: install the Debian packages zcbench needs that are missing.
# As root it runs apt-get itself; otherwise it prints the exact command.
set -u
missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "zcbench: missing Debian packages; run as root:" >&2
	echo "  apt-get update && $cmd" >&2
	exit 1
fi
echo "zcbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; a failed install retries after update.
$cmd >/dev/null 2>&1 || { apt-get update -qq && $cmd; }
