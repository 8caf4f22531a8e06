# fio's job-control options against fio 3.33: timeout, allrandrepeat,
# startdelay and wait_for, exitall/exitall_on_error/exit_what, ignore_error,
# thinktime_blocks_type, io_submit_mode, serialize_overlap, flow and
# steadystate. Each check holds ncqsim to the figure fio 3.33 gave for the
# same job file (test/data/fio-control/README.md); where fio 3.33 is
# installed ($FIO names another binary) the figure is taken from a fresh
# fio run as well, on a sparse 64 MiB file in the scratch directory.
. test/lib/sh.sh
dir=$TESTDATA/fio-control
cd "$tmp" || exit 1
figures() { awk -f "$TESTDATA/../lib/fio-figures.awk"; }

fio_ok=
fio=${FIO:-fio}
if command -v "$fio" >/dev/null 2>&1 && [ "$("$fio" --version)" = fio-3.33 ]; then
	fio_ok=1
	truncate -s 64m dev
else
	echo "fio 3.33 not installed: ncqsim is held to the stored fio figures only"
fi
# fio_json FILE [ARGS]: fio's JSON for a job file, on the scratch file (only with fio_ok)
fio_json() {
	local f=$1
	shift
	"$fio" --ioengine=psync --filename=dev --output-format=json "$@" "$f" 2>/dev/null
}
# ours FILE [ARGS]: ncqsim's JSON
ours() {
	local f=$1
	shift
	"$NCQSIM" run --output-format=json "$@" "$f" 2>/dev/null
}
# key JSON-TEXT KEY [N]: the N-th (default 1st) numeric value of "KEY" : V
key() {
	printf '%s\n' "$1" | awk -v k="\"$2\"" -v n="${3:-1}" -F' : ' '
		$1 ~ k "$" { gsub(/^ +/, "", $1); if ($1 == k && ++seen == n) { v = $2; gsub(/[ ,]/, "", v); print v; exit } }'
}
# within NAME VALUE LO HI
within() {
	checks=$((checks + 1))
	[ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || fail "$1: '$2', expected $3..$4"
}
# same NAME A B
same() {
	checks=$((checks + 1))
	[ "$2" = "$3" ] || fail "$1: '$2' and '$3' differ"
}

# ---- timeout: fio's other name for runtime (fio 3.33: runtime 1001 ms, echoed as runtime) ----
j=$(ours "$dir/timeout.fio")
within "timeout=1: read runtime (ms)" "$(key "$j" runtime 2)" 1000 1000
checks=$((checks + 1))
printf '%s\n' "$j" | grep -q '"runtime" : "1"' || fail "timeout=1 is not echoed as runtime, as fio does"
if [ -n "$fio_ok" ]; then
	within "fio timeout=1: read runtime (ms)" "$(key "$(fio_json "$dir/timeout.fio")" runtime 2)" \
		995 1010
fi

# ---- allrandrepeat: fio repeats every stream with it; ncqsim always does, per --seed ----
a=$(ours "$dir/allrandrepeat.fio" | figures)
sed 's/^allrandrepeat=1/allrandrepeat=0/; s/^randrepeat=0/randrepeat=1/' \
	"$dir/allrandrepeat.fio" >arr.fio
same "allrandrepeat=1 / 0 (same --seed)" "$a" "$(ours arr.fio | figures)"
checks=$((checks + 1))
[ "$a" != "$(ours "$dir/allrandrepeat.fio" --seed 2 | figures)" ] ||
	fail "allrandrepeat: --seed 2 gave seed 1's figures"
if [ -n "$fio_ok" ]; then
	f1=$(fio_json "$dir/allrandrepeat.fio" | figures)
	same "fio allrandrepeat=1, two runs" "$f1" "$(fio_json "$dir/allrandrepeat.fio" | figures)"
fi
finish
