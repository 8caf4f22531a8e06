# No silent failure (issue 14): every row of the table of hostile or
# careless inputs gives one clear message and a non-zero exit, or the right
# result — never exit 0 with a broken result, never a hang.
. test/lib/sh.sh

cd "$tmp" || exit 1
short='[j]
ioengine=libaio
rw=randread
bs=4k
iodepth=4
runtime=2
time_based
'
printf '%s' "$short" >j.fio

# Writes: a full device under the report, stdout, or a log is an error
# (exit 1) that says why. JSON and json+ go out in buffered blocks: stdio
# then throws the text away at the first failed write and keeps only that
# the stream failed, so the writer passes on why (outfile_write_failed()).
for fmt in normal json json+; do
	expect_rc 1 "$NCQSIM" run j.fio --output-format=$fmt --output /dev/full
	err_has "cannot write /dev/full: No space left on device"
	err_one_line
	checks=$((checks + 1))
	"$NCQSIM" run j.fio --output-format=$fmt >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "'run --output-format=$fmt >/dev/full' exited $rc, expected 1"
	err_has "cannot write the report to standard output: No space left on device"
done
printf '%swrite_iolog=/dev/full\n' "$short" >full_iolog.fio
expect_rc 1 "$NCQSIM" run full_iolog.fio
err_has "cannot write /dev/full: No space left on device"
expect_rc 1 "$NCQSIM" compare j.fio --runtime 1 --quiet --output /dev/full
err_has "No space left on device"
expect_rc 1 "$NCQSIM" compare j.fio --runtime 1 --quiet --output-format=json --output /dev/full
err_has "cannot write /dev/full: No space left on device"
expect_rc 1 "$NCQSIM" compare j.fio --runtime 1 --quiet --shard 1/2 --repeat 2 --output /dev/full
err_has "cannot write /dev/full: No space left on device"
expect_rc 2 "$NCQSIM" run j.fio --output "$tmp"
err_has "is a directory"

# A run that fails leaves an existing output as it was, and writes no new one.
echo keep >old.txt
expect_rc 2 "$NCQSIM" run j.fio --output old.txt --drive no/such.drive
checks=$((checks + 1))
[ "$(cat old.txt)" = keep ] || fail "a failed run changed its output file"
printf '[j]\nrw=randread\nruntime=1\noffset=100t\n' >far.fio
expect_rc 2 "$NCQSIM" run far.fio --output new.txt
checks=$((checks + 1))
[ ! -e new.txt ] && [ -z "$(ls new.txt.tmp-* 2>/dev/null)" ] || fail "a refused run left new.txt or its temporary"
expect_rc 0 "$NCQSIM" run j.fio --output new.txt
checks=$((checks + 1))
grep -q "Run status group 0" new.txt || fail "the report is not in new.txt"

# Distribution parameters where the arithmetic breaks: file, line, option.
printf '[j]\nrw=randread\nruntime=1\nrandom_distribution=zipf:1e200\n' >zipf.fio
expect_rc 2 "$NCQSIM" run zipf.fio
err_has "zipf.fio:4: option 'random_distribution': zipf needs a theta above 0 and not 1, at most 20"
printf '[j]\nrw=randread\nruntime=1\nrandom_distribution=pareto:1e-20\n' >pareto.fio
expect_rc 2 "$NCQSIM" run pareto.fio
err_has "pareto.fio:4: option 'random_distribution': pareto needs h in (0, 1), at least 1e-15"
printf '[j]\nrw=randread\nruntime=1\nrandom_distribution=zipf:20\n' >zipf20.fio
expect_rc 0 "$NCQSIM" run zipf20.fio

# Limits, checked before anything is built: jobs, sections, memory.
awk 'BEGIN { for (i = 0; i < 5; i++) printf "[j%d]\nnumjobs=1000\nruntime=1\n", i }' >clones.fio
expect_rc 2 "$NCQSIM" run clones.fio
err_has "clones.fio:13: job 'j4': 5000 jobs counting numjobs clones; ncqsim runs at most 4096"
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "[j%d]\n", i }' >sections.fio
expect_rc 2 "$NCQSIM" run sections.fio
err_has "sections.fio:4097: job 'j4096': more than 4096 job sections"
printf '[j]\nioengine=libaio\nrw=randread\niodepth=65536\nnumjobs=1024\nruntime=1\n' >deep.fio
expect_rc 2 "$NCQSIM" run deep.fio
err_has "deep.fio:1: job 'j': the jobs' 67108864 I/O units (iodepth x numjobs over every job) and steady-state windows would take"
err_has "ncqsim allows 1024 MiB"

# Memory running out anywhere (here under ulimit -v, 1000 jobs) is an
# error naming what it was doing, never exit 0 with a partial report. (The
# sanitizer build reserves its shadow memory first: not under ulimit -v.)
case $NCQSIM in
*-san/*) ;;
*)
	awk 'BEGIN { printf "[global]\nrw=randread\nruntime=0.05\ntime_based\n"; for (i = 0; i < 1000; i++) printf "[j%d]\n", i }' >thousand.fio
	oom=0
	for kb in 30000 100000 200000 300000 400000 500000 700000 2000000; do
		(ulimit -v "$kb"; exec "$NCQSIM" run thousand.fio --output th.txt) 2>th.err
		rc=$?
		checks=$((checks + 1))
		if [ "$rc" -eq 0 ]; then
			[ "$(grep -c '^j999: (groupid=0' th.txt)" -eq 1 ] && grep -q 'Run status group 0' th.txt ||
				fail "ulimit -v $kb: exit 0 with an incomplete report"
		else
			grep -q 'out of memory' th.err || fail "ulimit -v $kb: exit $rc without saying why: $(head -c 200 th.err)"
			oom=$((oom + 1))
		fi
	done
	checks=$((checks + 1))
	[ "$oom" -gt 0 ] && [ "$oom" -lt 8 ] || fail "expected some limits to run out of memory and some not ($oom of 8 did)"
	;;
esac

# compare keeps every row: 70 jobs, 70 rows in the table and the JSON.
awk 'BEGIN { printf "[global]\nrw=randread\nruntime=1\ntime_based\n"; for (i = 0; i < 70; i++) printf "[job%02d]\n", i }' >many.fio
expect_rc 0 "$NCQSIM" compare many.fio --runtime 0.2 --quiet
checks=$((checks + 1))
[ "$(grep -c '^job[0-9][0-9] read clat (ms)' "$tmp/out")" -eq 70 ] ||
	fail "compare printed $(grep -c '^job[0-9][0-9] read clat (ms)' "$tmp/out") of 70 rows"
expect_rc 0 "$NCQSIM" compare many.fio --runtime 0.2 --quiet --plot many.svg
checks=$((checks + 1))
[ "$(grep -c 'job[0-9][0-9] read' many.svg)" -ge 70 ] || fail "the plot lacks some of the 70 lines"

# compare: each run its own latency logs and iolog, named by variant and seed.
printf '%swrite_lat_log=lat\nwrite_iolog=io.log\n' "$short" >logs.fio
expect_rc 0 "$NCQSIM" compare logs.fio --runtime 0.5 --repeat 2 --quiet --vary device/ncq_prio_enable=0,1
for f in lat_clat.1.A.seed1.log lat_clat.1.A.seed2.log lat_clat.1.B.seed1.log lat_clat.1.B.seed2.log \
	io.log.A.seed1 io.log.B.seed2; do
	checks=$((checks + 1))
	[ -s "$f" ] || fail "compare did not write $f"
done
checks=$((checks + 1))
cmp -s lat_clat.1.A.seed1.log lat_clat.1.A.seed2.log && fail "two seeds wrote the same latency log"

# An output that is an input is refused, the input left alone.
cp j.fio keep.fio
expect_rc 2 "$NCQSIM" run j.fio --output j.fio
err_has "option '--output': j.fio is the job file of this run; refusing to overwrite it"
expect_rc 2 "$NCQSIM" run j.fio --output ./j.fio
printf '%swrite_iolog=self.fio\n' "$short" >self.fio
expect_rc 2 "$NCQSIM" run self.fio
err_has "option 'write_iolog': self.fio is an input of this run"
printf 'include j.fio\n' >inc.fio
expect_rc 2 "$NCQSIM" run inc.fio --output j.fio
err_has "a file the job file includes"
printf 'drive = he8\n' >s.system
expect_rc 2 "$NCQSIM" run j.fio --system s.system --output s.system
err_has "is the system file of this run"
expect_rc 2 "$NCQSIM" compare j.fio --runtime 1 --plot x.svg --output x.svg
err_has "options '--plot' and '--output' name the same file"
checks=$((checks + 1))
cmp -s j.fio keep.fio && [ "$(cat s.system)" = "drive = he8" ] || fail "an input was overwritten"

# JSON is valid UTF-8 whatever the job's name.
printf '[j\377x]\nrw=randread\nruntime=1\n' >ff.fio
expect_rc 0 "$NCQSIM" run ff.fio --output-format=json
checks=$((checks + 1))
LC_ALL=C grep -q $'\xff' "$tmp/out" && fail "a raw 0xff byte in the JSON"
out_has '"jobname" : "j\ufffdx"'

# Inputs: a BOM is skipped; special files are refused by their type, at once.
printf '\357\273\277%s' "$short" >bom.fio
expect_rc 0 "$NCQSIM" run bom.fio
expect_rc 2 "$NCQSIM" run "$tmp"
err_has "cannot read job file: it is a directory"
mkfifo fifo
printf '[j]\ninclude fifo\n' >fifo.fio
expect_rc 2 timeout 20 "$NCQSIM" run fifo.fio
err_has "fifo.fio:2: include: fifo: cannot read job file: it is a FIFO"
printf '[j]\ninclude /dev/zero\n' >zero.fio
expect_rc 2 "$NCQSIM" run zero.fio
err_has "zero.fio:2: include: /dev/zero: cannot read job file: it is a character device"
expect_rc 2 "$NCQSIM" run j.fio --system fifo
err_has "cannot read system file: it is a FIFO"

# A signal stops the run at the simulated time reached, with the report so
# far (marked interrupted, exit 1); a second signal quits at once.
printf '[j]\nioengine=libaio\nrw=randread\niodepth=8\n' >bare.fio
"$NCQSIM" run bare.fio --output-format=json --output stopped.json 2>stop.err &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 1 ] || fail "a run stopped by SIGTERM exited $rc, expected 1"
checks=$((checks + 1))
grep -q '"interrupted" : true' stopped.json && grep -q '"total_ios" : [1-9]' stopped.json ||
	fail "the interrupted run's report lacks its mark or its I/Os"
checks=$((checks + 1))
grep -q "interrupted by signal 15" stop.err || fail "no message on the interruption: $(cat stop.err)"
"$NCQSIM" run bare.fio --output-format=json --output twice.json 2>/dev/null &
pid=$!
sleep 0.3
kill -TERM "$pid"
kill -TERM "$pid"
wait "$pid"
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 1 ] || [ "$rc" -eq 143 ] || fail "two SIGTERMs: exit $rc, expected 143 (or 1 if the first had finished)"

# A bare [j] is the whole drive: --eta=always shows progress when stderr is
# not a terminal.
"$NCQSIM" run bare.fio --eta=always --eta-interval=50ms --output /dev/null 2>eta.err &
pid=$!
# Until the first progress line (or 10 s: the check below then fails).
for _ in $(seq 100); do
	grep -q '^ncqsim: ' eta.err && break
	sleep 0.1
done
kill -TERM "$pid"
wait "$pid"
checks=$((checks + 1))
grep -q '^ncqsim: [0-9]* s simulated, [0-9]* I/Os' eta.err || fail "no progress line with --eta=always: $(head -c 300 eta.err)"
expect_rc 2 "$NCQSIM" run j.fio --eta=sometimes
err_has "option '--eta': expected auto, always or never"
cd - >/dev/null || exit 1

# Found by fuzz_run: a streamed read whose head clock was behind the
# simulated time scheduled its completion in the past (an assertion).
expect_rc 0 "$NCQSIM" run --runtime 20ms "$TESTDATA/regress/stream-behind-now.fio"
finish
