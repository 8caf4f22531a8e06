# Time-series logs (write_bw_log, write_iops_log, write_lat_log) in fio's
# format: test/data/fio-logs/avg.fio with log_avg_msec=500 against the logs
# fio 3.33 wrote for it — the same rows (one per window), the same time,
# direction, block-size and priority columns, and bw and iops within 3 %
# (the job is paced by rate_iops, so they do not depend on the drive). And
# without log_avg_msec, a row per I/O.
. test/lib/sh.sh
dir=$TESTDATA/fio-logs
cd "$tmp" || exit 1
expect_rc 0 "$NCQSIM" run "$dir/avg.fio"

# same_rows OURS THEIRS TOLERANCE: row count, columns 1 and 3-5 equal, column 2 within TOLERANCE
same_rows() {
	checks=$((checks + 1))
	[ -f "$1" ] || { fail "$1 not written"; return; }
	[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] ||
		{ fail "$1: $(wc -l <"$1") rows, fio wrote $(wc -l <"$2")"; return; }
	paste -d '|' "$1" "$2" | awk -F '|' -v tol="$3" -v f="$1" '
		{ split($1, a, ", "); split($2, b, ", ")
		  if (length(a) != 5 || a[1] != b[1] || a[3] != b[3] || a[4] != b[4] || a[5] != b[5]) {
			print "FAIL: " f ": row " NR " is \"" $1 "\", fio \"" $2 "\""; bad = 1 }
		  else if (tol >= 0 && (a[2] - b[2] > b[2] * tol || b[2] - a[2] > b[2] * tol)) {
			print "FAIL: " f ": row " NR " value " a[2] ", fio " b[2]; bad = 1 } }
		END { exit bad }' || failures=$((failures + 1))
}
same_rows avg_bw.1.log "$dir/avg_bw.1.log" 0.03
same_rows avg_iops.1.log "$dir/avg_iops.1.log" 0.03
same_rows avg_clat.1.log "$dir/avg_clat.1.log" -1

# A row per I/O: "time, value, direction, bs, priority"; iops rows are 1.
printf '[j]\nrw=randrw\nbs=4k\nsize=1m\nnumber_ios=50\nwrite_bw_log=io\nwrite_iops_log=io\n' >io.fio
expect_rc 0 "$NCQSIM" run --output-format=json io.fio
ios=$(grep -c '' io_iops.1.log)
checks=$((checks + 1))
[ "$ios" -eq 50 ] || fail "io_iops.1.log: $ios rows for 50 I/Os"
checks=$((checks + 1))
awk -F ', ' 'NF != 5 || $2 != 1 || $4 != 4096 { bad = 1 } END { exit bad }' io_iops.1.log ||
	fail "io_iops.1.log: a row is not 'time, 1, dir, 4096, prio'"
checks=$((checks + 1))
[ "$(grep -c '' io_bw.1.log)" -eq 50 ] || fail "io_bw.1.log: not a row per I/O"
finish
