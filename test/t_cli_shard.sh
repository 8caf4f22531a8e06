# compare --shard I/N and merge: 3 shards merged in any order print what the
# unsharded compare prints (text, JSON, plot; the runs' report timestamps
# aside), and merge refuses files of other sweeps, duplicates and gaps.
. test/lib/sh.sh
sweep="examples/seed.fio --system examples/seed.system --vary device/ncq_prio_enable=0,1
	--vary device/queue_depth=31,8 --repeat 3 --runtime 30 --quiet"
# Timestamps are when each run ended: they differ between any two runs.
untimed() { grep -v -E '"(time|timestamp|timestamp_ms)" :' "$1"; }
same() {
	checks=$((checks + 1))
	cmp -s "$1" "$2" || fail "$3: $(diff "$1" "$2" | head -5)"
}

# shellcheck disable=SC2086
expect_rc 0 "$NCQSIM" compare $sweep --output-format=normal,json+ --output "$tmp/full.txt" \
	--plot "$tmp/full.svg" --threads 2
for i in 1 2 3; do
	# shellcheck disable=SC2086
	expect_rc 0 "$NCQSIM" compare $sweep --output-format=json+ --shard "$i/3" \
		--output "$tmp/s$i.json" --threads 1
done
# 4 variants x 3 runs = 12 cells: 4 to each shard.
checks=$((checks + 1))
[ "$(grep -c '"variant" :' "$tmp/s2.json")" -eq 4 ] || fail "shard 2 of 3 should hold 4 cells"
untimed "$tmp/full.txt" >"$tmp/full.u"
for order in "1 2 3" "3 1 2" "2 3 1"; do
	set -- $order
	expect_rc 0 "$NCQSIM" merge --output-format=normal,json+ --output "$tmp/m.txt" \
		--plot "$tmp/m.svg" "$tmp/s$1.json" "$tmp/s$2.json" "$tmp/s$3.json"
	untimed "$tmp/m.txt" >"$tmp/m.u"
	same "$tmp/full.u" "$tmp/m.u" "merge of shards $order differs from the unsharded compare"
	same "$tmp/full.svg" "$tmp/m.svg" "merge of shards $order: the plot differs"
done
# The text table alone has no timestamps: identical to the byte.
# shellcheck disable=SC2086
expect_rc 0 "$NCQSIM" compare $sweep --output "$tmp/full-text.txt"
expect_rc 0 "$NCQSIM" merge --output "$tmp/m-text.txt" "$tmp/s2.json" "$tmp/s3.json" "$tmp/s1.json"
same "$tmp/full-text.txt" "$tmp/m-text.txt" "the merged table differs"
expect_rc 0 "$NCQSIM" merge "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json"
err_has "12 runs from 3 shard files"

# Refusals: a duplicate, a gap, another sweep, JSON flavour, broken files.
expect_rc 2 "$NCQSIM" merge "$tmp/s1.json" "$tmp/s1.json" "$tmp/s2.json"
err_one_line
err_has "are both shard 1 of 3"
expect_rc 2 "$NCQSIM" merge "$tmp/s1.json" "$tmp/s3.json"
err_one_line
err_has "shard 2 of 3 is missing"
# shellcheck disable=SC2086
expect_rc 0 "$NCQSIM" compare $sweep --seed 5 --output-format=json+ --shard 2/3 \
	--output "$tmp/other.json"
expect_rc 2 "$NCQSIM" merge "$tmp/s1.json" "$tmp/other.json" "$tmp/s3.json"
err_has "not shards of one sweep: their 'first seed' differs ('1' and '5')"
sed 's/device\/queue_depth=8/device\/queue_depth=4/' "$tmp/s2.json" >"$tmp/s2v.json"
expect_rc 2 "$NCQSIM" merge "$tmp/s1.json" "$tmp/s2v.json" "$tmp/s3.json"
err_has "their 'variant B' differs"
sed 's/"job file hash" : "fnv1a64:[0-9a-f]*"/"job file hash" : "fnv1a64:0"/' "$tmp/s2.json" >"$tmp/s2h.json"
expect_rc 2 "$NCQSIM" merge "$tmp/s1.json" "$tmp/s2h.json" "$tmp/s3.json"
err_has "their 'job file hash' differs"
expect_rc 2 "$NCQSIM" merge --output-format=json "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json"
err_has "hold the runs' reports as json+, not json"
printf '{\n  "ncqsim shard" : 1,\n  "cells" : [\n' >"$tmp/cut.json"
expect_rc 2 "$NCQSIM" merge "$tmp/cut.json"
err_one_line
err_has "cut.json:4: not a shard's JSON"
echo '{ "ncqsim version" : "ncqsim-0.1" }' >"$tmp/notshard.json"
expect_rc 2 "$NCQSIM" merge "$tmp/notshard.json"
err_has "not a shard written by 'ncqsim compare --shard I/N'"
sed 's/"ios" : [0-9]*/"ios" : "x"/' "$tmp/s2.json" >"$tmp/s2b.json"
expect_rc 2 "$NCQSIM" merge "$tmp/s1.json" "$tmp/s2b.json" "$tmp/s3.json"
err_has "s2b.json: cell 1 of 'cells': bad or missing its fields"
expect_rc 2 "$NCQSIM" merge "$tmp/nonexistent.json"
err_one_line
expect_rc 2 "$NCQSIM" merge
err_has "expected the shard files"
for bad in 0/3 4/3 3 1/0 x/2 1/2x; do
	expect_rc 2 "$NCQSIM" compare examples/seed.fio --shard "$bad"
	err_has "option '--shard': expected I/N"
done
expect_rc 2 "$NCQSIM" compare examples/seed.fio --shard 1/2 --precision 5%
err_has "cannot be split into shards"
# A trace compare shards too: the trace's hash and the replay options are
# its identity.
replay="--trace test/data/traces/small.blkparse --vary device/ncq_prio_enable=0,1
	--vary device/queue_depth=31,2 --speed 4 --quiet"
# shellcheck disable=SC2086
expect_rc 0 "$NCQSIM" compare $replay --output "$tmp/rfull.txt"
for i in 1 2; do
	# shellcheck disable=SC2086
	expect_rc 0 "$NCQSIM" compare $replay --shard "$i/2" --output "$tmp/r$i.json"
done
expect_rc 0 "$NCQSIM" merge --output "$tmp/rm.txt" "$tmp/r2.json" "$tmp/r1.json"
same "$tmp/rfull.txt" "$tmp/rm.txt" "the merged replay table differs"
# shellcheck disable=SC2086
expect_rc 0 "$NCQSIM" compare ${replay/--speed 4/--speed 2} --shard 2/2 --output "$tmp/r2s.json"
expect_rc 2 "$NCQSIM" merge "$tmp/r1.json" "$tmp/r2s.json"
err_has "their 'replay options' differs ('--speed=4' and '--speed=2')"
expect_rc 2 "$NCQSIM" compare examples/seed.fio --shard 1/2 --plot "$tmp/x.svg"
err_has "'--plot' is for 'ncqsim merge'"
finish
