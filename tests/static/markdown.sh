#!/usr/bin/env bash
# Every Markdown file closes each code block it opens: an odd number of ```
# fences turns the rest of the file into code (a merge once left
# results/README.md's report schema open, and the list schema's heading and
# prose rendered as code).
. "$(dirname "$0")/../lib.sh"
n=0
while IFS= read -r f; do
	c=$(grep -c '^ *```' "$f")
	n=$((n + 1))
	check "$f: its code fences pair up ($c)" [ $((c % 2)) -eq 0 ]
done < <(git ls-files '*.md')
check "Markdown files were read ($n)" [ "$n" -gt 5 ]
finish
