#!/usr/bin/env bash
# haproxy and iperf3 are optional packages (bench/peers/): make deps never
# fails because one is missing or cannot be installed, and still fails for
# a missing required package. Checked on tests/deps.sh as a non-root user,
# who is only told the apt-get line, so nothing is installed here.
. "$(dirname "$0")/../lib.sh"
as_user() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	command -v setpriv >/dev/null || skip "setpriv missing (make deps installs util-linux)"
	as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
fi
cp tests/deps.sh "$TMP/deps.sh"
chmod 755 "$TMP" "$TMP/deps.sh"
missing=zc-no-such-package-$$

as_user bash "$TMP/deps.sh" jq --optional "$missing" >"$TMP/opt.out" 2>&1
check "a missing optional package does not fail make deps" test $? -eq 0
check "it is named with the apt-get line" grep -q "apt-get install.*$missing" "$TMP/opt.out"

as_user bash "$TMP/deps.sh" "$missing" --optional haproxy >"$TMP/req.out" 2>&1
check "a missing required package still fails make deps" test $? -ne 0
check "the required one is named" grep -q "$missing" "$TMP/req.out"

as_user bash "$TMP/deps.sh" jq >"$TMP/none.out" 2>&1
check "nothing missing: silent success" test $? -eq 0 -a ! -s "$TMP/none.out"

# The Makefile lists them as optional, not required.
opt=$(make -s -f Makefile -pn deps 2>/dev/null | sed -n 's/^DEB_OPT_PKGS *:= *//p' | head -n1)
req=$(make -s -f Makefile -pn deps 2>/dev/null | sed -n 's/^DEB_PKGS *:= *//p' | head -n1)
check "haproxy and iperf3 are optional in the Makefile" \
	bash -c "case ' $opt ' in *' haproxy '*) ;; *) exit 1 ;; esac; case ' $opt ' in *' iperf3 '*) ;; *) exit 1 ;; esac"
case " $req " in *" haproxy "* | *" iperf3 "*) bad "haproxy or iperf3 is a required package" ;; *) ok "neither is required" ;; esac
finish
