#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Check every mainline commit that the patches and the docs cite against
# patches/cited-commits.txt, the one list of cited commits and their
# subjects.
#
# usage: scripts/checks/check-citations.sh
#
# Reads the patches (ours for 6.12 too), patches/PORTING.md, docs/*.md, README.md and the KUnit
# suite, each with its lines joined (a subject may wrap), and fails when:
# - a commit id (12 to 40 hex digits, at least one of them a letter) is
#   not in the list;
# - a subject written next to an id, as `ID ("SUBJECT")`, `ID, "SUBJECT"`
#   or `**ID** ("SUBJECT"`, is not the list's subject of that id;
# - a port's `[ Upstream commit ID ]` names a commit whose subject is not
#   the patch's own Subject:;
# - an entry of the list is cited nowhere, or is not `ID "SUBJECT" AUTHOR`;
# - a patch of this series named as `patch NNNN of this series ("SUBJECT")`
#   does not exist, or its Subject: is not SUBJECT.
# The list itself was checked by hand against mainline's log; this keeps
# the text in agreement with it.
#
# Environment: CITE_ROOT, the tree to read (default: this checkout), for
# the harness self-test.  Records one result, port.citations.
set -euo pipefail
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/../lib.sh"

root=${CITE_ROOT:-$PROJECT_TOP}
list=$root/patches/cited-commits.txt
[ -f "$list" ] || die $EX_MISSING "no list of cited commits at $list"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=$tmp/problems
: > "$problems"

# The list: "ID" and "SUBJECT" a line, in $tmp/list.
grep -vE '^(#|$)' "$list" > "$tmp/entries" || true
while IFS= read -r line; do
	if [[ ! "$line" =~ ^([0-9a-f]{12})\ \"([^\"]+)\"\ [^\ ].*$ ]]; then
		echo "$list: not 'ID \"SUBJECT\" AUTHOR': $line" >> "$problems"
		continue
	fi
	printf '%s\t%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
done < "$tmp/entries" > "$tmp/list"

subject_of() {
	awk -F'\t' -v id="$1" '$1 == id { print $2; exit }' "$tmp/list"
}

# patch_subject FILE: the Subject: of a patch, its lines joined.
patch_subject() {
	awk '/^Subject:/ { s = $0; while ((getline l) > 0 && l ~ /^ /) s = s l; print s; exit }' "$1" |
		sed -E 's/^Subject: (\[PATCH[^]]*\] )?//; s/ +/ /g'
}

# joined FILE: the file on one line, without the line starts of diffs,
# comments and indented Markdown.
joined() {
	sed -E 's/^[-+]?[[:space:]]*(\*[[:space:]]+)?//' "$1" | tr '\n' ' ' | tr -s ' '
}

shopt -s nullglob
files=("$root"/patches/*.patch "$root"/patches/*/*.patch "$root"/patches/PORTING.md "$root"/docs/*.md
	"$root"/README.md "$root"/tests/kunit/*.c "$root"/tests/kunit/*.h)
: > "$tmp/cited"
for f in "${files[@]}"; do
	rel=${f#"$root"/}
	joined "$f" > "$tmp/text"
	# Every id, with the subjects written next to some of them.
	{ grep -oE '\b[0-9a-f]{12,40}\b' "$tmp/text" || true; } |
		{ grep '[a-f]' || true; } | { grep -vE '^0+$' || true; } |
		cut -c1-12 | sort -u |
		while read -r id; do
			echo "$id" >> "$tmp/cited"
			[ -n "$(subject_of "$id")" ] ||
				echo "$rel: $id is not in patches/cited-commits.txt" >> "$problems"
		done
	{ grep -oE '\b[0-9a-f]{12,40}\**,? \(?"[^"]+"' "$tmp/text" || true; } |
		sed -E 's/^([0-9a-f]{12})[0-9a-f]*\**,? \(?"(.*)"$/\1\t\2/' |
		while IFS=$'\t' read -r id subject; do
			want=$(subject_of "$id")
			[ -z "$want" ] || [ "$subject" = "$want" ] ||
				echo "$rel: $id is \"$want\", not \"$subject\"" >> "$problems"
		done
	# Our own patches, named by number: the subjects must agree too.
	{ grep -oE 'patch [0-9]{4} of this series \("[^"]+"' "$tmp/text" || true; } |
		sed -E 's/^patch ([0-9]{4}) of this series \("(.*)"$/\1\t\2/' |
		while IFS=$'\t' read -r num subject; do
			ours=("$root"/patches/"$num"-*.patch)
			if [ ${#ours[@]} -ne 1 ]; then
				echo "$rel: patch $num of this series is not one file in patches/" >> "$problems"
			elif [ "$subject" != "$(patch_subject "${ours[0]}")" ]; then
				echo "$rel: patch $num is \"$(patch_subject "${ours[0]}")\", not \"$subject\"" >> "$problems"
			fi
		done
	# A port names its upstream commit: the subjects must agree.
	case "$rel" in
	*.patch)
		id=$(grep -m1 -oE '^\[ Upstream commit [0-9a-f]{40} \]' "$f" | cut -d' ' -f4 | cut -c1-12 || true)
		[ -n "$id" ] || continue
		subject=$(patch_subject "$f")
		want=$(subject_of "$id")
		[ -z "$want" ] || [ "$subject" = "$want" ] ||
			echo "$rel: upstream commit $id is \"$want\", but the patch is \"$subject\"" >> "$problems"
		;;
	esac
done

cut -f1 "$tmp/list" | while read -r id; do
	grep -qx "$id" "$tmp/cited" ||
		echo "patches/cited-commits.txt: $id is cited nowhere" >> "$problems"
done

n=$(wc -l < "$tmp/list")
if [ -s "$problems" ]; then
	cat "$problems" >&2
	record FAIL port.citations "$(wc -l < "$problems") problems with the $n cited commits (above)"
	exit $EX_TESTFAIL
fi
record PASS port.citations "$n cited commits, each with its one subject, in ${#files[@]} files"
