# ncqsim compare on the command line: help, the table, JSON, the plot,
# determinism, no progress line off a terminal, and one clear line for
# every bad option.
. test/lib/sh.sh
seed=(examples/seed.fio --system examples/seed.system)

expect_rc 0 "$NCQSIM" compare --help
out_has "usage: ncqsim compare"
out_has "--precision P%"
expect_rc 0 "$NCQSIM" help compare
out_has "--vary KEY=V1,V2"
expect_rc 0 "$NCQSIM"
out_has "compare"

# The table: variants in order, cells with half-widths, nothing on stderr
# but the closing speed line (stderr is not a terminal: no progress line).
expect_rc 0 "$NCQSIM" compare "${seed[@]}" --runtime 60s --repeat 2 \
	--vary device/ncq_prio_enable=0,1 --vary kernel=4.10,6.12
out_has "4 variants x 2 runs (seeds 1-2), drive he8"
out_has "A   device/ncq_prio_enable=0 kernel=4.10"
out_has "D   device/ncq_prio_enable=1 kernel=6.12"
out_has "fg read clat (ms)"
out_has "bg read clat (ms)"
out_has "  p99.99"
out_has "  IOPS"
out_has " ± "
checks=$((checks + 1))
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'I/Os per CPU-second' "$tmp/err" ||
	fail "stderr should be the one speed line, got: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/table1"
expect_rc 0 "$NCQSIM" compare "${seed[@]}" --runtime 60s --repeat 2 --threads 1 --quiet \
	--vary device/ncq_prio_enable=0,1 --vary kernel=4.10,6.12
checks=$((checks + 1))
cmp -s "$tmp/out" "$tmp/table1" || fail "--threads 1 gave a different table"
checks=$((checks + 1))
[ -s "$tmp/err" ] && fail "--quiet still wrote: $(cat "$tmp/err")"

# On a terminal the progress line shows once the sweep has taken a second,
# or --eta-interval if that is shorter (script(1) gives it a pseudo-terminal),
# and is cleared at the end. --eta-interval=1ms makes the check independent
# of how fast the machine is: four one-minute runs take far more than 1 ms.
if command -v script >/dev/null 2>&1; then
	script -qc "'$NCQSIM' compare examples/seed.fio --system examples/seed.system --runtime 60s \
		--repeat 2 --eta-interval=1ms --vary device/ncq_prio_enable=0,1 >/dev/null" /dev/null \
		>"$tmp/tty" 2>&1
	checks=$((checks + 1))
	tr '\r' '\n' <"$tmp/tty" | grep -qE '^ncqsim: [0-9]+/4 runs done, [0-9]+ s simulated, [0-9.]+M I/Os' ||
		fail "no progress line on a terminal: $(head -c 300 "$tmp/tty")"
fi

# Percentiles of one's choosing; JSON with every run's report; the plot.
expect_rc 0 "$NCQSIM" compare "${seed[@]}" --runtime 30s --percentiles 90:99.5 --quiet \
	--vary device/ncq_prio_enable=1
out_has "  p90 "
out_has "  p99.5 "
expect_rc 0 "$NCQSIM" compare "${seed[@]}" --runtime 30s --repeat 2 --output-format=json \
	--output "$tmp/c.json" --plot "$tmp/c.svg" --quiet --vary device/ncq_prio_enable=0,1
checks=$((checks + 1))
grep -q '"runs per variant" : 2' "$tmp/c.json" && grep -q '"fio version" : "ncqsim-0.1"' "$tmp/c.json" ||
	fail "JSON lacks the run count or the runs' reports"
checks=$((checks + 1))
[ "$(grep -c '"fio version"' "$tmp/c.json")" -eq 4 ] || fail "JSON should hold 4 runs' reports"
checks=$((checks + 1))
head -c 5 "$tmp/c.svg" | grep -q '<?xml' && tail -n 1 "$tmp/c.svg" | grep -q '^</svg>$' ||
	fail "the plot is not a whole SVG"

# --precision: reached, or the limit stated (exit 0 either way).
expect_rc 0 "$NCQSIM" compare "${seed[@]}" --runtime 30s --precision 50% --quiet \
	--vary device/ncq_prio_enable=1
out_has "precision reached"
expect_rc 0 "$NCQSIM" compare "${seed[@]}" --runtime 30s --precision 0.001% --max-repeat 3 \
	--vary device/ncq_prio_enable=1
out_has "precision not reached"
err_has "after 3 runs (the limit, --max-repeat)"

# Bad input: one line, exit 2, naming the option.
bad() {
	local want=$1
	shift
	expect_rc 2 "$NCQSIM" compare "$@"
	err_one_line
	err_has "$want"
}
bad "expected one JOBFILE"
bad "expected one JOBFILE" "${seed[@]}" extra.fio
bad "option '--vary': expected KEY=V1,V2" "${seed[@]}" --vary device/ncq_prio_enable
bad "option '--vary'" "${seed[@]}" --vary no/such=1,2
bad "cfq" "${seed[@]}" --vary queue/scheduler=deadline,cfq
bad "option '--vary': drive 'he8': key 'age_limit'" "${seed[@]}" --vary drive.age_limit=2s,0
bad "option '--repeat': expected a whole number from 1 to 256, got '0'" "${seed[@]}" --repeat 0
bad "option '--repeat'" "${seed[@]}" --repeat many
bad "option '--threads'" "${seed[@]}" --threads 0
bad "option '--precision': expected a percentage" "${seed[@]}" --precision 0
bad "option '--precision'" "${seed[@]}" --precision 100%
bad "option '--precision'" "${seed[@]}" --precision fast
bad "option '--max-repeat' is the limit for --precision" "${seed[@]}" --max-repeat 10
bad "is above --max-repeat" "${seed[@]}" --precision 5% --repeat 20 --max-repeat 10
bad "--percentiles leaves out" "${seed[@]}" --precision 5% --percentiles 50:99
bad "option '--percentiles'" "${seed[@]}" --percentiles 50:100
bad "option '--percentiles'" "${seed[@]}" --percentiles 50:50
bad "option '--runtime'" "${seed[@]}" --runtime soon
bad "option '--debug' traces one simulation" "${seed[@]}" --debug=disk
bad "unknown option '--bogus'" "${seed[@]}" --bogus
bad "option '--vary' needs a value" "${seed[@]}" --vary
bad "no/such.fio" no/such.fio --vary device/ncq_prio_enable=0,1
# Refused by the system once built (the kernel's EINVAL): bad input too, naming the variant.
bad "variant B (device/ncq_prio_enable=1), seed 1: knob 'device/ncq_prio_enable'" \
	"${seed[@]}" --drive desktop1t --runtime 1s --vary device/ncq_prio_enable=0,1
expect_rc 1 "$NCQSIM" compare "${seed[@]}" --runtime 1s --plot /nonexistent-dir/p.svg --quiet
err_has "option '--plot': cannot write /nonexistent-dir/p.svg"
finish
