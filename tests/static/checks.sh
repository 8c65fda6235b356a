#!/usr/bin/env bash
# The tests' own check lines: `check "what" [ a ] && b` counts only [ a ]
# (check has already said ok when && runs b), so a second condition there
# is never checked. Each condition is its own check (or one [ a -a b ]).
. "$(dirname "$0")/../lib.sh"
# check "what" [ ... ] && ..., or check "what" grep ... || ... (not inside bash -c '...').
pat='^\s*check "[^"]*" (\[[^]]*\]|grep [^&|]*|test [^&|]*)\s*(&&|\|\|)\s*(\[|grep|test)'
hits=$(grep -rnE "$pat" tests --include=*.sh | grep -v '^tests/static/checks.sh:')
check "no check line hides a second condition behind && or || ${hits:+($hits)}" [ -z "$hits" ]
# The pattern finds what it forbids, and leaves a bash -c alone.
printf 'check "x" [ 1 ] && grep -q y z\n' >"$TMP/bad.sh"
printf 'check "x" bash -c "[ 1 ] && [ 2 ]"\n' >"$TMP/good.sh"
check "the pattern finds the kind of line it forbids" grep -qE "$pat" "$TMP/bad.sh"
check "the pattern passes a check of one bash -c" [ -z "$(grep -E "$pat" "$TMP/good.sh")" ]
finish
