# The docs cannot drift from the option tables: every drive-model key is
# documented in docs/DRIVES.md, every knob in docs/HOST.md, every fio option in docs/FIO.md.
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
run "$NCQSIM" run --help-options
for opt in $(grep -E '^  [a-z_]+ ' "$tmp/out" | awk '{print $1}'); do
	checks=$((checks + 1))
	grep -q "$opt" docs/FIO.md || fail "fio option '$opt' is not in docs/FIO.md"
done
finish
