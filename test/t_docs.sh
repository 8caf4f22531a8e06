# The docs cannot drift from the code: every drive-model key is documented
# in docs/DRIVES.md, every knob in docs/HOST.md, every fio option in
# docs/FIO.md; the README shows every command, and every example command in
# it runs (simulations capped at a few seconds of simulated time).
. test/lib/sh.sh

run "$NCQSIM" drives he8 --file
for key in $(grep -v '^#' "$tmp/out" | sed 's/ *=.*//'); do
	checks=$((checks + 1))
	grep -q "$key" docs/DRIVES.md || fail "drive key '$key' is not in docs/DRIVES.md"
done
run "$NCQSIM" knobs
for knob in $(grep -E '^(device|queue)/' "$tmp/out" | awk '{print $1}'); do
	checks=$((checks + 1))
	grep -q "$knob" docs/HOST.md || fail "knob '$knob' is not in docs/HOST.md"
done
run "$NCQSIM" knobs --kernels
checks=$((checks + 1))
grep -qxF "$(sed -n 3p "$tmp/out")" docs/HOST.md || fail "docs/HOST.md lacks the kernel table of 'ncqsim knobs --kernels'"
while read -r line; do
	checks=$((checks + 1))
	grep -qxF "$line" docs/HOST.md || fail "docs/HOST.md's kernel table differs: '${line:0:60}...'"
done <"$tmp/out"
run "$NCQSIM" run --help-options
for opt in $(grep -E '^  [a-z_]+ ' "$tmp/out" | awk '{print $1}'); do
	checks=$((checks + 1))
	grep -q "$opt" docs/FIO.md || fail "fio option '$opt' is not in docs/FIO.md"
done

# The README's examples: indented lines starting "ncqsim ", with their
# continuation lines, run from a scratch directory (they write plots).
repo=$(pwd)
# The checkout has the installed data directory's layout (drives/, examples/),
# so the README's after-install examples ("ncqsim compare seed.fio") run too.
export NCQSIM_DATADIR=$repo
ln -s "$repo/examples" "$tmp/examples"
ln -s "$repo/test" "$tmp/test"
awk '/^    ncqsim /{cmd=$0; while (cmd ~ /\\$/) { getline nxt; sub(/\\$/, "", cmd); cmd = cmd nxt } print cmd}' \
	README.md >"$tmp/examples.txt"
checks=$((checks + 1))
[ "$(wc -l <"$tmp/examples.txt")" -ge 8 ] || fail "found only $(wc -l <"$tmp/examples.txt") examples in README.md"
while read -r _ sub args; do
	extra=()
	case $sub in run | compare) extra=(--runtime 2s --quiet) ;; esac
	# shellcheck disable=SC2086 # the example's words, as the README has them
	(cd "$tmp" && "$NCQSIM" $sub $args "${extra[@]}") >"$tmp/ex.out" 2>&1
	rc=$?
	checks=$((checks + 1))
	[ "$rc" -eq 0 ] || fail "README example 'ncqsim $sub $args' failed: $(head -c 300 "$tmp/ex.out")"
done <"$tmp/examples.txt"
run "$NCQSIM"
for cmd in $(awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}' "$tmp/out"); do
	[ "$cmd" = help ] && continue
	checks=$((checks + 1))
	grep -q "^    ncqsim $cmd" README.md || fail "README.md has no example of 'ncqsim $cmd'"
done
finish
