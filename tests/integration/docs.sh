#!/usr/bin/env bash
# The manual page and the bash completion come from the option tables and
# the mode list (zcbench man, zcbench completion bash; issue 24): the page
# renders with man -l, has every flag of every command's --help and every
# mode; the completion offers subcommands, flags, mode names and workload
# files; make install puts the binary, page, completion, workloads and plot
# scripts under DESTDIR/PREFIX. README.md is the front door and docs/ holds
# the rest (issue 24): every relative link in them points at a file that
# exists, and at a heading that exists when it names one.
. "$(dirname "$0")/../lib.sh"

# The GitHub anchor of a heading: lower case, punctuation but - and _ gone,
# spaces to hyphens.
slug() { tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 _-]//g; s/ /-/g'; }
# links FILE...: "FILE: TARGET: why" for each relative link that is broken.
links() {
	local f t path anchor
	for f in "$@"; do
		# [text](target), inline code spans left out (`a](b)` is no link)
		sed 's/`[^`]*`//g' "$f" | grep -o '\]([^)]*)' | sed 's/^](//; s/)$//' |
			while read -r t; do
				case $t in http://* | https://* | mailto:* | '') continue ;; esac
				path=${t%%#*} anchor=
				[ "$path" != "$t" ] && anchor=${t#*#}
				if [ -z "$path" ]; then path=$f; else path=$(dirname "$f")/$path; fi
				[ -e "$path" ] || { echo "$f: $t: no such file"; continue; }
				[ -n "$anchor" ] || continue
				sed -n 's/^#\{1,6\} *//p' "$path" | slug | grep -qx -- "$anchor" ||
					echo "$f: $t: no heading with that anchor"
			done
	done
}
broken=$(links README.md docs/*.md)
check "every relative link in README.md and docs/ resolves (broken: ${broken:-none})" [ -z "$broken" ]
check "README.md is a front door, about 200 lines at most ($(wc -l <README.md))" [ "$(wc -l <README.md)" -le 220 ]
check "docs/ beside it" [ "$(ls docs/*.md | wc -l)" -ge 6 ]
# The check itself sees a missing file and a missing anchor, and nothing else.
mkdir -p "$TMP/d/docs"
printf '# Top\n[a](docs/x.md) [b](docs/y.md#nope) [c](docs/y.md#the-part) [d](https://example.org) `[e](no.md)`\n' >"$TMP/d/README.md"
printf '# Y\n## The part\n' >"$TMP/d/docs/y.md"
broken=$(cd "$TMP/d" && links README.md)
check "the link check finds a missing file and a missing anchor, nothing else" \
	[ "$broken" = "README.md: docs/x.md: no such file
README.md: docs/y.md#nope: no heading with that anchor" ]

command -v man >/dev/null || { [ "$FAILS" -eq 0 ] || finish; skip "man missing (make deps installs man-db)"; }

$ZCBENCH man >"$TMP/zcbench.1" || fail "zcbench man failed"
LC_ALL=C MANWIDTH=100 man --warnings -l "$TMP/zcbench.1" >"$TMP/man.txt" 2>"$TMP/man.err"
rc=$?
check "man -l renders the page (exit $rc)" [ "$rc" -eq 0 ]
check "man -l's page is not empty" [ -s "$TMP/man.txt" ]
check "groff has no warning ($(head -c 300 "$TMP/man.err"))" [ ! -s "$TMP/man.err" ]
check "the page's name line" grep -q '^NAME' "$TMP/man.txt"
# man fills the page to the reader's width: no line of it wider (lists of
# layouts and formats are tagged paragraphs, not kept as they were written).
for w in 80 100; do
	n=$(LC_ALL=C.UTF-8 MANWIDTH=$w man -l "$TMP/zcbench.1" 2>/dev/null | wc -L)
	check "MANWIDTH=$w: no line of the page wider ($n)" [ "$n" -le "$w" ]
done
[ -f build/zcbench.1 ] && check "build/zcbench.1 is what the binary prints" cmp -s build/zcbench.1 "$TMP/zcbench.1"

# The page's sections (issue 32): EXAMPLES from README's tour, each workload
# key once, mode options, host file keys, units, exit codes.
for sec in EXAMPLES 'WORKLOAD KEYS' 'MODE OPTIONS' 'HOST FILE KEYS' UNITS 'EXIT STATUS'; do
	check "the page has $sec" grep -qx "$sec" "$TMP/man.txt"
done
# section NAME: the rendered page's lines under heading NAME, to the next one.
section() { awk -v s="$1" '/^[A-Z]/ { on = ($0 == s); next } on' "$TMP/man.txt"; }
section EXAMPLES >"$TMP/ex.txt"
for e in 'make bench' 'zcbench run' 'zcbench report' 'zcbench compare' 'zcbench trend' \
	'zcbench export' 'zcbench plot'; do
	check "EXAMPLES: $e" grep -q "^       $e" "$TMP/ex.txt"
done
section 'WORKLOAD KEYS' >"$TMP/wk.txt"
# pairs FILE: each option line with the line under it (its help's start), so
# another command's own --timeout is not taken for the workload key's.
pairs() { awk 'p ~ /^       --/ { print p "|" $0 } { p = $0 }' "$1"; }
pairs "$TMP/wk.txt" >"$TMP/wk.pairs"
pairs "$TMP/man.txt" >"$TMP/all.pairs"
twice=() nkeys=0
while read -r flag; do
	nkeys=$((nkeys + 1))
	pair=$(grep -E -- "^       $flag( |\|)" "$TMP/wk.pairs")
	[ "$(grep -cE -- "^       $flag( |\|)" "$TMP/wk.pairs")" -eq 1 ] || { twice+=("$flag"); continue; }
	# and nowhere else in the page (run, noise and the roles point at WORKLOAD KEYS)
	[ "$(grep -cxF -- "$pair" "$TMP/all.pairs")" -eq 1 ] || twice+=("$flag (elsewhere)")
done < <($ZCBENCH keys --json | jq -r '.workload_keys[].flag')
check "each of $nkeys workload keys once in the page (not once: ${twice[*]:-none})" \
	[ "${#twice[@]}" -eq 0 -a "$nkeys" -ge 40 ]
check "the page is no longer than 1,400 lines rendered at 100 columns ($(wc -l <"$TMP/man.txt"))" \
	[ "$(wc -l <"$TMP/man.txt")" -le 1400 ]
section 'HOST FILE KEYS' >"$TMP/hk.txt"
missing=()
while read -r k; do
	grep -q "^       $k = " "$TMP/hk.txt" || missing+=("$k")
done < <($ZCBENCH keys --json | jq -r '.host_keys[].key' | sort -u)
check "every host file key in HOST FILE KEYS (missing: ${missing[*]:-none})" [ "${#missing[@]}" -eq 0 ]
missing=()
while read -r k; do
	grep -q "$k = " <(section 'MODE OPTIONS') || missing+=("$k")
done < <($ZCBENCH keys --json | jq -r '.mode_options[].key' | sort -u)
check "every mode option in MODE OPTIONS (missing: ${missing[*]:-none})" [ "${#missing[@]}" -eq 0 ]
section 'EXIT STATUS' >"$TMP/exit.txt"
for code in 0 1 2 3 130; do
	check "EXIT STATUS names $code" grep -q "^       $code  " "$TMP/exit.txt"
done
check "UNITS: durations take 500ms" grep -q 500ms <(section UNITS)
check "the page says the old _ spelling is still read" grep -q -- '--pipe_size' "$TMP/man.txt"
# make bench builds the page and the completion (README's man -l after make bench)
check "make bench builds build/zcbench.1 and the completion" \
	bash -c "make -n bench 2>/dev/null | grep -q 'build/zcbench.1 build/zcbench.bash-completion'"
# Dependencies per target: make bench installs the build and what a run
# uses, not the guests', the dashboard's or the tests' packages.
make -n -s deps-bench >"$TMP/deps" 2>&1
check "make deps-bench: the build's libraries" grep -q 'libjansson-dev.*libgsl-dev' "$TMP/deps"
for p in qemu-system-x86 chromium gnuplot-nox libcmocka-dev openssh-server libinih-dev; do
	check "make deps-bench: no $p" bash -c "! grep -qw -- '$p' '$TMP/deps'"
done
check "make bench: deps-bench, not deps" bash -c "make -n bench 2>/dev/null | grep -q 'deps.sh.*libjansson' && ! make -n bench 2>/dev/null | grep -q qemu-system-x86"

# Every command zcbench --help lists, every flag its --help lists.
cmds=$($ZCBENCH --help | awk '/^  [a-z]/ { print $1 }')
check "zcbench --help lists commands" [ "$(wc -w <<<"$cmds")" -ge 15 ]
missing=() nflags=0
for c in $cmds; do
	grep -Eq "^   $c\$" "$TMP/man.txt" || missing+=("section $c")
	while read -r flag; do
		nflags=$((nflags + 1))
		grep -qF -- "$flag" "$TMP/man.txt" || missing+=("$c $flag")
	done < <($ZCBENCH "$c" --help | awk '$1 ~ /^--/ { print $1 }')
done
check "every command and its $nflags flags in the page (missing: ${missing[*]:-none})" \
	[ "${#missing[@]}" -eq 0 -a "$nflags" -ge 100 ]

bash -n <($ZCBENCH completion bash) || fail "the completion script is not bash"
$ZCBENCH completion bash >"$TMP/completion.bash"
modes=$(sed -n 's/^[[:space:]]*--source) _zcbench_words .\([^'"'"']*\).*/\1/p' "$TMP/completion.bash" | head -1)
missing=()
for m in $modes; do
	grep -Eq "^       $m( |\$)" "$TMP/man.txt" || missing+=("mode $m")
done
check "every source mode in the page's MODES ($(wc -w <<<"$modes"); missing: ${missing[*]:-none})" \
	[ "${#missing[@]}" -eq 0 -a -n "$modes" ]
# complete WORD...: COMPREPLY after the words (the last one is being typed).
complete_words() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _zcbench
		printf "%s\n" "${COMPREPLY[@]}"' _ "$TMP/completion.bash" zcbench "$@"
}
check "completion: a subcommand" grep -qx before-after <(complete_words bef)
check "completion: run's --source offers a mode name" grep -qx vmsplice <(complete_words run --source vm)
check "completion: --source= (bash splits at =) too" grep -qx tee <(complete_words run --source = te)
check "completion: a proxy mode for --proxy, not a source one" \
	bash -c "grep -qx splice <(printf '%s\n' $(complete_words run --proxy '' | tr '\n' ' ')) &&
		! grep -qx vmsplice <(printf '%s\n' $(complete_words run --proxy '' | tr '\n' ' '))"
check "completion: a flag" grep -qx -- --wide <(complete_words run --wi)
check "completion: a choice" grep -qx interleaved <(complete_words run --order in)
check "completion: a workload file" grep -qx workloads/smoke.ini <(complete_words run workloads/smo)
check "completion: an export format" grep -qx prometheus <(complete_words export --format pro)
check "completion: a compare layout" grep -qx mmtests <(complete_words compare --format mm)
check "completion: a run of the workload file for --only" \
	grep -qx proxy-splice <(complete_words run workloads/default.ini --only proxy-spl)
check "completion: help COMMAND" grep -qx report <(complete_words help rep)
check "completion: a flag spelled with dashes" grep -qx -- --pipe-size <(complete_words run --pipe-s)
check "completion: the old spelling's value too" grep -qx sendfile <(complete_words run --server_send sendf)
binds=$(bash -c '. "$1"; complete -p' _ "$TMP/completion.bash" 2>/dev/null)
for w in zcbench bench/zcbench ./bench/zcbench; do
	check "completion binds $w" grep -qxF -- "complete -F _zcbench $w" <<<"$binds"
done

# make install under DESTDIR: the files where PREFIX says.
if command -v make >/dev/null; then
	make -s install DESTDIR="$TMP/x" PREFIX=/usr/local >"$TMP/install.log" 2>&1 ||
		fail "make install: $(tail -5 "$TMP/install.log")"
	for p in bin/zcbench share/man/man1/zcbench.1 share/bash-completion/completions/zcbench \
		share/zcbench/workloads/default.ini share/zcbench/workloads/smoke.ini \
		share/zcbench/plots/common.gp; do
		check "installed $p" [ -s "$TMP/x/usr/local/$p" ]
	done
	check "installed binary runs" "$TMP/x/usr/local/bin/zcbench" --version
	check "installed page renders" bash -c "LC_ALL=C man -l '$TMP/x/usr/local/share/man/man1/zcbench.1' | grep -q -- --wide"
fi
finish
