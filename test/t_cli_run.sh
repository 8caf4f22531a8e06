# ncqsim run: every fio sample job file runs and reports; output is
# deterministic for a seed; the debug trace; files written; clear errors.
. test/lib/sh.sh
samples=$TESTDATA/fio-samples

cd "$tmp" || exit 1
for f in "$samples"/*.fio; do
	case $f in /*) ;; *) f=$OLDPWD/$f ;; esac
	expect_rc 0 "$NCQSIM" run --runtime 1s "$f"
	out_has "Run status group 0 (all jobs):"
	out_has "ncqsim-0.1"
done
# e_iolog_latlog.fio writes its iolog and latency logs where it runs.
[ -s e_mix.iolog ] && head -n 1 e_mix.iolog | grep -q '^fio version 3 iolog$' || fail "no iolog written"
[ "$(wc -l <e_mix_clat.1.log)" -eq 40 ] || fail "e_mix_clat.1.log should have 40 lines (number_ios=40)"
grep -qE '^[0-9]+, [0-9]+, [01], 4096, [0-9]+, [01]$' e_mix_clat.1.log || fail "latency log lines not in fio's shape"
cd - >/dev/null || exit 1

# Same job, knobs and seed: byte-identical apart from the timestamps.
job=$samples/b_prio_io_uring.fio
"$NCQSIM" run --runtime 2s --seed 5 --output-format=json,normal "$job" >"$tmp/r1" 2>&1
"$NCQSIM" run --runtime 2s --seed 5 --output-format=json,normal "$job" >"$tmp/r2" 2>&1
strip() { grep -vE '"timestamp|"time"|pid=[0-9]+: ' "$1"; }
checks=$((checks + 1))
diff <(strip "$tmp/r1") <(strip "$tmp/r2") >/dev/null || fail "two runs with the same seed differ"
"$NCQSIM" run --runtime 2s --seed 6 --output-format=json "$job" >"$tmp/r3" 2>&1
checks=$((checks + 1))
diff <(strip "$tmp/r1") <(strip "$tmp/r3") >/dev/null && fail "a different seed gave the same run"

# --output, and json+ bins.
expect_rc 0 "$NCQSIM" run --runtime 1s --output-format=json+ --output "$tmp/out.json" "$samples/a_randread_psync.fio"
checks=$((checks + 1))
grep -q '"bins" : {' "$tmp/out.json" || fail "json+ has no bins"

# The debug trace: libata's one-line form, HOBNSECT 80 for PRIO high.
printf '[fg]\nioengine=libaio\nrw=randread\nprioclass=1\nnumber_ios=3\n' >"$tmp/fg.fio"
expect_rc 0 "$NCQSIM" run --set device/ncq_prio_enable=1 --debug=ata,blk,sched,disk "$tmp/fg.fio"
err_has "ata   issue cmd 60/08:00:"
checks=$((checks + 1))
grep -qE 'ata   issue cmd 60/08:00:[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}/00:80:' "$tmp/err" || fail "no PRIO high (HOBNSECT 80) in the trace"
err_has "ata   SDB sactive 00000001"
err_has "disk  pick tag 0"
err_has "sched mq-deadline insert"
err_has "blk   request lba"
expect_rc 0 "$NCQSIM" run --debug=ata "$tmp/fg.fio"
checks=$((checks + 1))
grep -qE 'issue cmd 60/08:00:[0-9a-f:]+/00:00:' "$tmp/err" || fail "PRIO should be normal without ncq_prio_enable"

# Errors: one line, file and line, exit 2.
printf '[job]\nbs=4q\n' >"$tmp/bad.fio"
expect_rc 2 "$NCQSIM" run "$tmp/bad.fio"
err_one_line
err_has "bad.fio:2: option 'bs': expected a size such as 4k, got '4q'"
expect_rc 2 "$NCQSIM" run "$tmp/nothere.fio"
err_has "cannot open job file"
expect_rc 2 "$NCQSIM" run --set queue/scheduler=cfq "$tmp/fg.fio"
err_has "knob 'queue/scheduler'"
expect_rc 2 "$NCQSIM" run --drive desktop1t --set device/ncq_prio_enable=1 "$tmp/fg.fio"
err_has "EINVAL"
expect_rc 2 "$NCQSIM" run --drive nosuch "$tmp/fg.fio"
err_has "not a built-in drive"
printf '[job]\nsize=20t\n' >"$tmp/big.fio"
expect_rc 2 "$NCQSIM" run "$tmp/big.fio"
err_has "runs past the drive's"
expect_rc 2 "$NCQSIM" run --runtime soon "$tmp/fg.fio"
err_has "'--runtime'"
expect_rc 2 "$NCQSIM" run "$tmp/fg.fio" --runtime
err_one_line
err_has "run: option '--runtime' needs a value"
expect_rc 2 "$NCQSIM" run --bogus "$tmp/fg.fio"
err_has "run: unknown option '--bogus' (see 'ncqsim run --help')"
expect_rc 2 "$NCQSIM" run --debug=everything "$tmp/fg.fio"
err_has "unknown subsystem 'everything'"
expect_rc 2 "$NCQSIM" run --debug=ata, "$tmp/fg.fio"
err_has "unknown subsystem ''"
expect_rc 2 "$NCQSIM" run
expect_rc 0 "$NCQSIM" run --help-options
out_has "cmdprio_percentage"
out_has "zero_buffers           the data written: a hard disk stores any data alike"
# Options without effect in a simulation run and are echoed; the result is
# the same as without them. Real fio options that change what is measured
# and are not built are refused by name.
printf '[r]\nrw=randread\nsize=4m\n' >"$tmp/plain.fio"
printf '[r]\nrw=randread\nsize=4m\ninvalidate=1\nzero_buffers=1\ncpus_allowed=0-1\nfixedbufs=1\nuid=0\n' \
	>"$tmp/noeffect.fio"
expect_rc 0 "$NCQSIM" run "$tmp/plain.fio" --output-format=json --output "$tmp/plain.json"
expect_rc 0 "$NCQSIM" run "$tmp/noeffect.fio" --output-format=json --output "$tmp/noeffect.json"
checks=$((checks + 2))
grep -q '"cpus_allowed" : "0-1"' "$tmp/noeffect.json" || fail "cpus_allowed is not echoed in the job options"
[ "$(grep '"total_ios"' "$tmp/plain.json")" = "$(grep '"total_ios"' "$tmp/noeffect.json")" ] ||
	fail "options without effect changed the I/O counts"
printf '[r]\nrw=randread\nsize=4m\nverify_state_load=1\n' >"$tmp/verify.fio"
expect_rc 2 "$NCQSIM" run "$tmp/verify.fio"
err_has "verify.fio:4: option 'verify_state_load' is a fio option ncqsim does not support"
# fsync=8 on 1 MiB writes: one FLUSH CACHE EXT (EAh) per 8 writes in --debug=ata.
printf '[w]\nioengine=libaio\ndirect=1\nrw=write\nbs=1m\nsize=64m\niodepth=4\nfsync=8\n' >"$tmp/fsync.fio"
expect_rc 0 "$NCQSIM" run "$tmp/fsync.fio" --debug=ata --quiet
checks=$((checks + 2))
[ "$(grep -c 'issue cmd ea/' "$tmp/err")" -eq 8 ] || fail "expected 8 FLUSH CACHE EXT, got $(grep -c 'issue cmd ea/' "$tmp/err")"
[ "$(grep -c 'issue cmd 61/' "$tmp/err")" -eq 64 ] || fail "expected 64 WRITE FPDMA QUEUED"

finish
