#!/usr/bin/env bash
# make deps: install the Debian packages zcbench needs that are missing.
# As root it runs apt-get itself; otherwise it prints the exact command.
# Packages after --optional are installed when possible; their absence or a
# failed install only warns (the features that need them say why at run time).
set -u
missing=() optional=() opt=0
for p in "$@"; do
	[ "$p" = --optional ] && { opt=1; continue; }
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' && continue
	if [ $opt -eq 1 ]; then optional+=("$p"); else missing+=("$p"); fi
done
[ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -eq 0 ] && exit 0
export DEBIAN_FRONTEND=noninteractive
install() { # install PKG...: 0 or apt-get's failure
	local cmd="apt-get install -y --no-install-recommends $*"
	echo "zcbench: installing $*" >&2
	# A fresh machine has no package lists yet; a failed install retries after update.
	$cmd >/dev/null 2>&1 || { apt-get update -qq && $cmd; }
}
# nginx's package starts a system nginx on port 80 and enables it at boot;
# zcbench starts its own (bench/peers/nginx.c), so one installed here is
# stopped and disabled again (`systemctl enable --now nginx` undoes it).
quiet_nginx() { # quiet_nginx PKG...: for the packages just installed
	case " $* " in *" nginx-light "* | *" nginx "*) ;; *) return 0 ;; esac
	if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
		systemctl disable --now nginx >/dev/null 2>&1
	else
		invoke-rc.d nginx stop >/dev/null 2>&1
		update-rc.d nginx disable >/dev/null 2>&1
	fi
	echo "zcbench: the nginx service the package installed is stopped and disabled (zcbench runs its own)" >&2
}
if [ "$(id -u)" -ne 0 ]; then
	if [ ${#missing[@]} -gt 0 ]; then
		echo "zcbench: missing Debian packages; run as root:" >&2
		echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]} ${optional[*]}" >&2
		exit 1
	fi
	echo "zcbench: optional Debian packages missing (peer modes need them): ${optional[*]}" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends ${optional[*]}" >&2
	case " ${optional[*]} " in *" nginx-light "*)
		echo "  then: systemctl disable --now nginx (zcbench runs its own nginx)" >&2 ;;
	esac
	exit 0
fi
if [ ${#missing[@]} -gt 0 ]; then
	install "${missing[@]}" || exit 1
fi
if [ ${#optional[@]} -gt 0 ]; then
	if install "${optional[@]}" >&2; then
		quiet_nginx "${optional[@]}"
	else
		echo "zcbench: warning: optional packages not installed: ${optional[*]} (peer modes will say why)" >&2
	fi
fi
exit 0
