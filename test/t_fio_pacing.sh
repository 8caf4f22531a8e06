# Pacing and submission options against the figures fio 3.33 gave for the
# same jobs (test/data/fio-pacing/README.md): thinktime_iotime,
# rate_ignore_thinktime, rate_process=poisson, rate_min/rate_iops_min,
# max_latency, the iodepth_batch options, latency_target, ioscheduler.
. test/lib/sh.sh
dir=$TESTDATA/fio-pacing
cd "$tmp" || exit 1

# ios FILE [ARGS]: the job's read I/Os in ncqsim's JSON
ios() {
	"$NCQSIM" run --output-format=json "$@" 2>/dev/null |
		awk -F': ' '/"total_ios"/ { gsub(/[ ,]/, "", $2); print $2; exit }'
}
# variant FILE NAME LINE...: FILE with each LINE (key=value) replacing or adding that key, as NAME
variant() {
	local f=$1 out=$tmp/$2.fio line
	shift 2
	cp "$f" "$out"
	for line in "$@"; do
		grep -v "^${line%%=*}=" "$out" >"$out.new"
		echo "$line" >>"$out.new"
		mv "$out.new" "$out"
	done
	echo "$out"
}
# within NAME VALUE LO HI
within() {
	checks=$((checks + 1))
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || fail "$1: $2, expected $3..$4"
}

# thinktime_iotime: fio 401 (think at 2 s and 4 s; the rate catches up after the first).
within iotime "$(ios "$dir/iotime.fio")" 395 407
# rate_ignore_thinktime: fio 204 (no catching up after a think).
within ignore_thinktime "$(ios "$(variant "$dir/ignore_think.fio" ign rate_ignore_thinktime=1)")" \
	198 210
# thinktime_spin is part of thinktime: the same wait, the same run.
a=$("$NCQSIM" run "$dir/ignore_think.fio" | grep -v 'pid=')
b=$("$NCQSIM" run "$(variant "$dir/ignore_think.fio" spin thinktime_spin=200ms)" | grep -v 'pid=')
checks=$((checks + 1))
[ "$a" = "$b" ] || fail "thinktime_spin changed the run"

# rate_process=poisson: a Poisson count of mean 3000 (fio 2934), not the linear 3000,
# the same for the same seed, another for another seed.
p1=$(ios "$dir/poisson.fio" --seed 1)
within poisson "$p1" 2830 3170
lin=$(ios "$(variant "$dir/poisson.fio" linear rate_process=linear)")
checks=$((checks + 1))
[ "$p1" != "$lin" ] || fail "poisson gave the linear count $lin"
checks=$((checks + 1))
[ "$(ios "$dir/poisson.fio" --seed 1)" = "$p1" ] || fail "poisson: same seed, another count"
checks=$((checks + 1))
[ "$(ios "$dir/poisson.fio" --seed 2)" != "$p1" ] || fail "poisson: seed 2 gave seed 1's count"

# rate_iops_min: fio ends the job at 2.5 s with EIO and exits 1.
expect_rc 1 "$NCQSIM" run "$dir/rate_iops_min.fio"
err_has "j: rate_iops_min=100 not met, got 49 IOPS"
out_has "err= 5 (file:backend.c, func=check_min_rate, error=Input/output error)"
# fio 2506 ms: the first check after the 2 s settling time, then one 500 ms on.
ms=$(sed -n 's/.*(\([0-9]*\)KiB\/\([0-9]*\)msec).*/\2/p' "$tmp/out" | head -n 1)
within "rate_iops_min: run (ms)" "${ms:-0}" 2500 2530
expect_rc 1 "$NCQSIM" run "$dir/rate_min.fio"
err_has "j: rate_min=1048576B/s not met, got "
out_has "func=check_min_rate"
# Met: the same job without the thinktime runs out its time.
expect_rc 0 "$NCQSIM" run "$(variant "$dir/rate_iops_min.fio" met thinktime=0)"

# max_latency: the first I/O over it ends the job with ETIMEDOUT (110).
expect_rc 1 "$NCQSIM" run "$dir/max_latency.fio"
err_has "fio: latency of "
err_has " nsec exceeds specified max (1000 nsec): sda read "
out_has "err=110 (file:io_u.c, func=max latency exceeded, error=Connection timed out)"
out_has "issued rwts: total=1,0,0,0"
expect_rc 0 "$NCQSIM" run "$(variant "$dir/max_latency.fio" ml10 max_latency=10s)"

# iodepth_low + iodepth_batch_*: fio's depth distribution exactly; reaps of 4.
expect_rc 0 "$NCQSIM" run "$dir/batch.fio"
out_has "IO depths    : 1=0.0%, 2=0.0%, 4=0.4%, 8=50.0%, 16=49.6%, 32=0.0%, >=64=0.0%"
out_has "submit    : 0=0.0%, 4=100.0%, 8=0.0%"
out_has "complete  : 0=0.0%, 4=100.0%, 8=0.0%"
# complete_min alone: completions wait to be reaped, so clat grows.
clat() { "$NCQSIM" run "$@" | sed -n 's/^ *clat (usec): .*avg=\([0-9]*\).*/\1/p'; }
c1=$(clat "$(variant "$dir/batch.fio" c1 iodepth_low=16 iodepth_batch_complete_min=1 \
	iodepth_batch_complete_max=1)")
c8=$(clat "$(variant "$dir/batch.fio" c8 iodepth_low=16 iodepth_batch_complete_min=8 \
	iodepth_batch_complete_max=8)")
checks=$((checks + 1))
[ -n "$c1" ] && [ -n "$c8" ] && [ "$c8" -gt "$c1" ] || fail "clat avg $c8 with reaps of 8, $c1 with reaps of 1"

# latency_target: the search settles, one more window runs, the job ends.
expect_rc 0 "$NCQSIM" run "$dir/latency_target.fio"
out_has "latency   : target=80000000, window=500000, percentile=90.00%, depth=32"
ms=$(sed -n 's/.*run=\([0-9]*\)-.*/\1/p' "$tmp/out")
within "latency_target final run (ms)" "${ms:-0}" 500 1200
expect_rc 0 "$NCQSIM" run "$(variant "$dir/latency_target.fio" lrun latency_run=1)"
out_has "run=4"
expect_rc 0 "$NCQSIM" run "$(variant "$dir/latency_target.fio" l2 latency_target=2ms)"
out_has "percentile=90.00%, depth=1"
run "$NCQSIM" run --output-format=json "$dir/latency_target.fio"
out_has '"latency_target" : 80000000'
out_has '"latency_window" : 500000'

# ioscheduler: the job sets queue/scheduler; jobs must agree; the kernel must have it.
expect_rc 0 "$NCQSIM" run --output-format=json "$(variant "$dir/max_latency.fio" sched \
	max_latency=0 ioscheduler=mq-deadline)"
out_has '"queue/scheduler" : "mq-deadline"'
expect_rc 2 "$NCQSIM" run --name=a --rw=read --size=1m --ioscheduler=none \
	--name=b --rw=read --size=1m --ioscheduler=mq-deadline
err_one_line
err_has "job 'b': option 'ioscheduler': 'mq-deadline', but job 'a'"
expect_rc 2 "$NCQSIM" run --set kernel=4.10 --name=a --rw=read --size=1m --ioscheduler=none
err_has "job 'a': option 'ioscheduler': knob 'queue/scheduler': Linux 4.10 has no 'none'"
expect_rc 2 "$NCQSIM" run --name=a --rw=read --size=1m --ioscheduler=cfqx
err_has "option 'ioscheduler': knob 'queue/scheduler': expected one of"
finish
