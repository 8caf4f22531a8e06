# ncqsim replay and compare --trace from the command line: reports, the
# same output for the same trace, one-line errors with file and line,
# --skip-bad, and options refused where they do not apply.
. test/lib/sh.sh
traces=$TESTDATA/traces

expect_rc 0 "$NCQSIM" replay --help
out_has "--at=queue|dispatch"
out_has "Q (queued by the"
out_has "D (issued to the driver)"
expect_rc 0 "$NCQSIM" replay "$traces/small.blkparse" --prio postgres=rt
out_has "postgres.1201: (groupid=0"
out_has "backup.2202: (groupid=0"
err_has "7 I/Os (4 reads, 3 writes"
err_has "2 records without data"
expect_rc 0 "$NCQSIM" replay "$traces/small.msr" --quiet --output-format=json
out_has '"jobname" : "src1_0"'
out_has '"jobname" : "src1_1"'
expect_rc 0 "$NCQSIM" replay "$traces/small.blkparse" --closed 4 --quiet
out_has "small.blkparse: (groupid=0"
out_has "iodepth=4"
expect_rc 0 "$NCQSIM" replay "$traces/small.blkparse" --at=dispatch --speed 0.5 --quiet

# The same trace, the same report (but for the time of day).
strip() { grep -vE '"timestamp|"time"|pid=[0-9]+: ' "$1"; }
"$NCQSIM" replay "$traces/small.csv" --quiet --output-format=json,normal >"$tmp/r1" 2>&1
"$NCQSIM" replay "$traces/small.csv" --quiet --output-format=json,normal --seed 9 >"$tmp/r2" 2>&1
checks=$((checks + 1))
diff <(strip "$tmp/r1") <(strip "$tmp/r2" | sed 's/"seed" : 9/"seed" : 1/') >/dev/null ||
	fail "two replays of one trace differ"

# Errors: one line, exit 2.
printf 'Timestamp,Type,Offset,Size\n0.1,R,0,4096\n0.2,X,0,4096\n0.3,W,0,512\n' >"$tmp/bad.csv"
expect_rc 2 "$NCQSIM" replay "$tmp/bad.csv"
err_one_line
err_has "bad.csv:3: column 2 (direction): expected R, W, Read or Write, got 'X'"
expect_rc 0 "$NCQSIM" replay "$tmp/bad.csv" --skip-bad
err_has "1 malformed lines skipped (--skip-bad)"
err_has "2 I/Os"
expect_rc 2 "$NCQSIM" replay "$traces/small.blkparse" --format=tsv
err_one_line
err_has "expected auto, iolog, blkparse, blktrace, msr, snia-csv, disksim"
expect_rc 2 "$NCQSIM" replay "$traces/small.blkparse" --prio postgres=urgent
err_one_line
expect_rc 2 "$NCQSIM" replay "$traces/small.blkparse" --closed 0
err_one_line
expect_rc 2 "$NCQSIM" replay "$traces/small.blkparse" --speed=-1
err_one_line
expect_rc 2 "$NCQSIM" replay "$traces/small.blkparse" --at=complete
err_one_line
expect_rc 2 "$NCQSIM" replay "$tmp/missing.blkparse"
err_one_line
expect_rc 2 "$NCQSIM" replay "$tmp"
err_one_line
printf 'hello\n' >"$tmp/unknown.txt"
expect_rc 2 "$NCQSIM" replay "$tmp/unknown.txt"
err_has "name it with --format"
expect_rc 2 "$NCQSIM" replay "$traces/small.blkparse" --output "$traces/small.blkparse"
err_has "refusing to overwrite it"
expect_rc 2 "$NCQSIM" replay
err_one_line
mkfifo "$tmp/fifo"
expect_rc 2 "$NCQSIM" replay "$tmp/fifo"
err_has "cannot read trace: it is a FIFO"
# A CSV from a Windows tool, with a byte-order mark.
printf '\357\273\277Timestamp,Type,Offset,Size\n0.1,R,0,4096\n' >"$tmp/bom.csv"
expect_rc 0 "$NCQSIM" replay "$tmp/bom.csv"
err_has "(snia-csv): 1 I/Os"

# compare --trace.
expect_rc 0 "$NCQSIM" compare --trace "$traces/small.blkparse" --prio postgres=rt \
	--vary device/ncq_prio_enable=0,1 --repeat 2
out_has "postgres.1201 read lat (ms)"
err_has "the 2 runs of each variant are the same"
expect_rc 2 "$NCQSIM" compare "$traces/small.blkparse" --trace "$traces/small.blkparse" \
	--vary device/ncq_prio_enable=0,1
err_has "not both"
expect_rc 2 "$NCQSIM" compare examples/seed.fio --prio postgres=rt --vary device/ncq_prio_enable=0,1
err_has "options of --trace"

# read_iolog that is not an iolog nor a blktrace file.
printf '[r]\nioengine=libaio\nread_iolog=%s\n' "$traces/small.msr" >"$tmp/r.fio"
expect_rc 2 "$NCQSIM" run "$tmp/r.fio"
err_one_line
err_has "option 'read_iolog'"
printf '[r]\nioengine=libaio\nread_iolog=%s\nreplay_redirect=/dev/sdz\n' "$traces/small-v3.iolog" >"$tmp/r.fio"
expect_rc 0 "$NCQSIM" run "$tmp/r.fio"
err_has "replay_redirect is ignored"
finish
