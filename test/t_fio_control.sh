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

check_fio "the stored fio figures only"
[ -z "$fio_ok" ] || truncate -s 64m dev
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
		$1 ~ k "$" && $2 !~ /^"/ { gsub(/^ +/, "", $1)
			if ($1 == k && ++seen == n) { v = $2; gsub(/[ ,]/, "", v); print v; exit } }'
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
within "timeout=1: read runtime (ms)" "$(key "$j" runtime)" 1000 1000
checks=$((checks + 1))
printf '%s\n' "$j" | grep -q '"runtime" : "1"' || fail "timeout=1 is not echoed as runtime, as fio does"
if [ -n "$fio_ok" ]; then
	within "fio timeout=1: read runtime (ms)" "$(key "$(fio_json "$dir/timeout.fio")" runtime)" \
		995 1100
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

# ---- startdelay from the run's start, wait_for ----
# start_ms FILE JOB: when ncqsim started the job's first clone, ms after job a's
start_ms() {
	"$NCQSIM" run --debug=job "$1" 2>&1 >/dev/null | awk -v j="$2" '
		$4 == "job" && $6 == "starts:" { t[$5] = $1 }
		END { printf "%d", t[j ".0"] - t["a.0"] + 0.5 }'
}
# fio_start_ms FILE N: fio's first I/O of job number N, ms after job 1's (unix-epoch logs)
fio_start_ms() {
	rm -f w_iops.*.log
	"$fio" --ioengine=psync --filename=dev --log_unix_epoch=1 --write_iops_log=w \
		--output-format=json "$1" >/dev/null 2>&1
	echo $(($(head -n 1 "w_iops.$2.log" | cut -d, -f1) - $(head -n 1 w_iops.1.log | cut -d, -f1)))
}
# fio 3.33: b 1243 ms after a (a's 1 s, then fio's start-up), c 1540 ms (genesis + 1.5 s).
within "startdelay: b after a (ms)" "$(start_ms "$dir/startdelay.fio" b)" 1000 1000
within "startdelay: c after a (ms)" "$(start_ms "$dir/startdelay.fio" c)" 1500 1500
# fio 3.33: b 1125 ms after a.
within "wait_for: b after a (ms)" "$(start_ms "$dir/wait_for.fio" b)" 1000 1000
j=$(ours "$dir/wait_for.fio" | figures | paste -sd ';')
same "wait_for: per job figures" "$j" "a 0 100 409600 0 0;a 0 100 409600 0 0;c 0 200 819200 0 0;b 0 100 409600 0 0"
if [ -n "$fio_ok" ]; then
	# fio's own start-up and its 100 ms polls come on top, more on a busy machine.
	within "fio startdelay: b after a (ms)" "$(fio_start_ms "$dir/startdelay.fio" 2)" 1000 1700
	within "fio startdelay: c after a (ms)" "$(fio_start_ms "$dir/startdelay.fio" 3)" 1450 1900
	within "fio wait_for: b after a (ms)" "$(fio_start_ms "$dir/wait_for.fio" 4)" 1000 1700
fi
# ---- exitall, exit_what, exitall_on_error: per-job figures against fio 3.33's ----
# near OURS THEIRS TOL: the same jobs and groups in the same order, I/O counts within TOL
near() {
	paste -d '|' <(printf '%s\n' "$1" | tr ';' '\n') <(printf '%s\n' "$2" | tr ';' '\n') |
		awk -F '|' -v tol="$3" '{ split($1, a, " "); split($2, b, " ")
			if (a[1] != b[1] || a[2] != b[2] || a[3] - b[3] > tol || b[3] - a[3] > tol ||
			    a[5] - b[5] > tol || b[5] - a[5] > tol) bad = 1 }
			END { exit bad }' && [ "$(printf '%s' "$1" | tr -cd ';' | wc -c)" = \
		"$(printf '%s' "$2" | tr -cd ';' | wc -c)" ]
}
# close NAME OURS THEIRS TOL: near, or a failure naming both
close() {
	checks=$((checks + 1))
	near "$2" "$3" "$4" || fail "$1: '$2', fio 3.33 gave '$3'"
}
while IFS='|' read -r f tol want; do
	[ -n "$f" ] || continue
	close "$f" "$(ours "$dir/$f.fio" | figures | paste -sd ';')" "$want" "$tol"
	if [ -n "$fio_ok" ]; then
		# fio on a real clock: a few I/Os more or less on a busy machine.
		close "fio $f" "$(fio_json "$dir/$f.fio" | figures | paste -sd ';')" "$want" $((tol + 3))
	fi
done <<'TABLE'
exitall|2|a 0 256 1048576 0 0;b 0 26 106496 0 0;c 1 100 409600 0 0
exit_what|2|slow1 0 50 204800 0 0;fast1 1 49 200704 0 0;slow2 2 50 204800 0 0;fast2 2 50 204800 0 0;never 3 0 0 0 0
exitall_on_error|1|a 0 1 4096 0 0;b 0 1 4096 0 0
TABLE
expect_rc 1 "$NCQSIM" run "$dir/exitall_on_error.fio"
err_has "latency of "
expect_rc 0 "$NCQSIM" run "$dir/exitall.fio"
# exitall=0 is exitall, as fio 3.33 has it (a warning says so); other values are refused.
sed 's/^exitall$/exitall=0/' "$dir/exitall.fio" >ea0.fio
close "exitall=0" "$(ours ea0.fio | figures | paste -sd ';')" \
	"a 0 256 1048576 0 0;b 0 26 106496 0 0;c 1 100 409600 0 0" 2
expect_rc 0 "$NCQSIM" run ea0.fio
err_has "exitall=0 turns exitall on, as in fio 3.33"
sed 's/^exitall$/exitall=sometimes/' "$dir/exitall.fio" >ea0.fio
expect_rc 2 "$NCQSIM" run ea0.fio
err_has "ea0.fio:11: option 'exitall': expected 0 or 1"

# ---- flow, flow_id, flow_sleep ----
while IFS='|' read -r f tol want; do
	[ -n "$f" ] || continue
	close "$f" "$(ours "$dir/$f.fio" | figures | paste -sd ';')" "$want" "$tol"
	if [ -n "$fio_ok" ]; then
		# fio's jobs share the flow counter unlocked and b spins on it: on a
		# loaded machine the scheduler, not the option, can set the split, so
		# the stored figure need only come out of one of three fio runs.
		for try in 1 2 3; do
			got=$(fio_json "$dir/$f.fio" | figures | paste -sd ';')
			near "$got" "$want" $((tol + 5)) && break
		done
		close "fio $f" "$got" "$want" $((tol + 5))
	fi
done <<'TABLE'
flow|5|a 0 600 2457600 0 0;b 0 201 823296 0 0
flow_sleep|15|a 0 393 1609728 0 0;b 0 391 1601536 0 0
TABLE
# ratio NAME FIGURES: a's I/Os over b's, in percent
ratio() { printf '%s\n' "$2" | awk '$1 == "a" { a = $3 } $1 == "b" { b = $3 } END { printf "%d", b ? 100 * a / b + 0.5 : 0 }'; }
within "flow 2:1: a/b (%)" "$(ratio x "$(ours "$dir/flow_ratio.fio" | figures)")" 199 201
if [ -n "$fio_ok" ]; then
	for try in 1 2 3; do	# three fio runs at most, as above
		got=$(ratio x "$(fio_json "$dir/flow_ratio.fio" | figures)")
		[ "$got" -ge 198 ] && [ "$got" -le 202 ] && break
	done
	within "fio flow 2:1: a/b (%)" "$got" 198 202
fi
# Another flow_id: each job on its own (b as fast as the drive lets it).
sed 's/^flow=1$/flow=1\nflow_id=1/' "$dir/flow.fio" >fid.fio
checks=$((checks + 1))
[ "$(ours fid.fio | figures | awk '$1 == "b" { print ($3 > 1000) }')" = 1 ] ||
	fail "flow_id=1: b still held by a's flow"
# Its partner waits in a later segment: fio 3.33 spins for ever; ncqsim refuses it.
printf '[global]\nrw=read\nsize=1m\nflow=1\n[a]\n[b]\nstonewall\n' >stuck.fio
expect_rc 2 "$NCQSIM" run stuck.fio
err_one_line
err_has "stuck.fio:5: job 'a': option 'flow': flow control holds the job for ever"
printf '[j]\nflow=1001\n' >bad.fio
expect_rc 2 "$NCQSIM" run bad.fio
err_has "bad.fio:2: option 'flow'"

# ---- ignore_error, continue_on_error: fio's rules ----
# fio 3.33 on /dev/full (every write fails with ENOSPC): exit status, error,
# total_err (absent: continue_on_error off), failed writes counted as issued.
if [ -n "$fio_ok" ]; then
	while IFS='|' read -r args want; do
		[ -n "$args" ] || continue
		# shellcheck disable=SC2086 # the options as the table has them
		"$fio" --output-format=json $args "$dir/ignore_error_full.fio" >full.json 2>/dev/null
		rc=$?
		got="$rc $(key "$(cat full.json)" error) $(key "$(cat full.json)" total_err) $(figures <full.json | awk '{ print $5 }')"
		same "fio $args (rc error total_err writes)" "$got" "$want"
	done <<'TABLE'
--continue_on_error=write|1 28 1 1
--ignore_error=,ENOSPC|0 28 16 16
--ignore_error=,28|0 28 16 16
--ignore_error=,28 --continue_on_error=none|1 28  1
--ignore_error=ENOSPC|1 28 0 1
TABLE
fi
# The same rules on ncqsim's drive: reads that a Command Duration Limit
# aborts fail with ETIME (62), in some seconds of the job.
cdl="--drive hc570 --set device/cdl_enable=1 --set drive.cdl_t2a=$TESTDATA/cdl/active20-abort.cdl"
ie() {
	# shellcheck disable=SC2086
	"$NCQSIM" run $cdl --output-format=json "$@" >ie.json 2>ie.err
	rc=$?
	echo "$rc $(key "$(cat ie.json)" error) $(key "$(cat ie.json)" total_err)"
}
sed '/^ignore_error=62/d' "$dir/ignore_error.fio" >noie.fio
cp "$dir/ignore_error.fio" ie.fio
echo "continue_on_error=none" >>ie.fio
same "ignore_error=62: carried on (rc error)" "$(ie "$dir/ignore_error.fio" | cut -d' ' -f1-2)" "0 62"
many=$(key "$(cat ie.json)" total_err)
checks=$((checks + 1))
[ -n "$many" ] && [ "$many" -gt 1 ] || fail "ignore_error=62: total_err '$many', expected several"
checks=$((checks + 1))
grep -q '"read" : {' ie.json && [ "$(key "$(cat ie.json)" total_ios)" -gt 20 ] ||
	fail "ignore_error=62: the job did not carry on"
same "continue_on_error=read alone: ETIME ends the job" "$(ie noie.fio)" "1 62 1"
checks=$((checks + 1))
grep -q "job 'j' ended with error 62 (Timer expired)" ie.err || fail "no message for the failed job: $(cat ie.err)"
same "ignore_error=EIO: ETIME not listed" "$(ie noie.fio --ignore_error=EIO)" "1 62 1"
same "ignore_error=,62: the write list" "$(ie noie.fio --ignore_error=,62)" "1 62 1"
same "continue_on_error=none after ignore_error" "$(ie ie.fio)" "1 62 "
"$NCQSIM" run $cdl ie.fio >ie.txt 2>/dev/null
checks=$((checks + 1))
grep -q "err=62 (file:io_u.c, func=io_u error, error=Timer expired)" ie.txt ||
	fail "continue_on_error=none: no err=62 header"
"$NCQSIM" run $cdl "$dir/ignore_error.fio" >ie.txt 2>/dev/null
checks=$((checks + 1))
grep -q "err=62 (file:io_u.c, func=io_u error, error=Timer expired)" ie.txt &&
	grep -q "^     errors    : total=$many, first_error=62/<Timer expired>" ie.txt &&
	grep -A1 '^     errors' ie.txt | grep -q '^     latency   :' ||
	fail "ignore_error=62: fio's err=62 header and errors line (before the latency line) missing"
for c in 'ignore_error=ETIME|unknown error '"'"'ETIME'"'"': fio 3.33 knows EPERM..ERANGE' \
	'ignore_error=EIO,EIO,EIO,EIO|expected at most three lists' \
	'ignore_error=5::7|expected errors separated by '"'"':'"'"'' \
	'ignore_error=0|expected an error name such as EIO or a number 1..4095, got '"'"'0'"'"''; do
	printf '[j]\nrw=read\n%s\n' "${c%%|*}" >bad.fio
	expect_rc 2 "$NCQSIM" run bad.fio
	err_one_line
	err_has "bad.fio:3: option 'ignore_error': ${c#*|}"
done

# ---- thinktime_blocks_type: 14 thinks of 20 ms counting completions, 32 counting issues ----
rt() { key "$1" runtime; }
within "thinktime_blocks_type=complete: runtime (ms)" "$(rt "$(ours "$dir/think_type.fio")")" 280 300
within "thinktime_blocks_type=issue: runtime (ms)" \
	"$(rt "$(ours "$dir/think_type.fio" --thinktime_blocks_type=issue)")" 640 660
if [ -n "$fio_ok" ]; then
	# fio's count of completions depends on which are ready when it reaps (14 to 18
	# thinks), and its thinks overrun on a busy machine.
	within "fio thinktime_blocks_type=complete: runtime (ms)" \
		"$(rt "$(fio_json "$dir/think_type.fio")")" 270 500
	within "fio thinktime_blocks_type=issue: runtime (ms)" \
		"$(rt "$(fio_json "$dir/think_type.fio" --thinktime_blocks_type=issue)")" 640 900
fi
# After ramp_time fio restarts the counts, not the one the last think took:
# fio 3.33 (1 s ramp, 10 ms thinks, 2 s) 297 I/Os, 198 without the ramp.
printf '[j]\nrw=read\nbs=4k\nsize=1m\nthinktime=10ms\ntime_based\nruntime=2\nramp_time=1\n' >ramp.fio
within "thinktime after ramp_time: I/Os" "$(key "$(ours ramp.fio)" total_ios)" 290 300
printf '[j]\nthinktime_blocks_type=sometimes\n' >bad.fio
expect_rc 2 "$NCQSIM" run bad.fio
err_has "bad.fio:2: option 'thinktime_blocks_type': expected one of complete, issue"

# ---- serialize_overlap: at most one write per block in flight (fio 3.33: 4=99.0%, 8=100.0%) ----
depths() { sed -n 's/^  IO depths    : //p' "$@" | head -n 1; }
sed 's/^serialize_overlap=1/serialize_overlap=0/' "$dir/serialize_overlap.fio" >so0.fio
"$NCQSIM" run --set drive.write_cache=0 "$dir/serialize_overlap.fio" >so1.txt 2>&1
"$NCQSIM" run --set drive.write_cache=0 so0.fio >so0.txt 2>&1
checks=$((checks + 1))
depths so1.txt | grep -qE ' 4=9[5-9]\.[0-9]%, 8=0\.0%' || fail "serialize_overlap=1: IO depths $(depths so1.txt)"
checks=$((checks + 1))
depths so0.txt | grep -qE ' 8=9[5-9]\.[0-9]%' || fail "serialize_overlap=0: IO depths $(depths so0.txt)"
if [ -n "$fio_ok" ]; then
	"$fio" --ioengine=psync --filename=dev "$dir/serialize_overlap.fio" >so1.txt 2>&1
	"$fio" --ioengine=psync --filename=dev so0.fio >so0.txt 2>&1
	checks=$((checks + 1))
	depths so1.txt | grep -qE ' 4=(9[5-9]|100)\.[0-9]%, 8=0\.0%' ||
		fail "fio serialize_overlap=1: IO depths $(depths so1.txt)"
	checks=$((checks + 1))
	depths so0.txt | grep -qE ' 8=(9[5-9]|100)\.[0-9]%' || fail "fio serialize_overlap=0: IO depths $(depths so0.txt)"
fi

# ---- io_submit_mode=offload: a sync engine keeps iodepth in flight, each worker at depth 1 ----
# fio 3.33 (offload.fio, when it does not hang at the job's end, as its
# offload mode often does): IO depths 1=100.0%, submit and complete 4=100.0%.
sed 's/^io_submit_mode=offload/io_submit_mode=inline/' "$dir/offload.fio" >inline.fio
"$NCQSIM" run "$dir/offload.fio" >off.txt
"$NCQSIM" run inline.fio >inl.txt
checks=$((checks + 1))
grep -q '^  IO depths    : 1=100.0%' off.txt && grep -q '^     submit    : 0=0.0%, 4=100.0%' off.txt &&
	grep -q '^     complete  : 0=0.0%, 4=100.0%' off.txt || fail "offload: depths and submit lines as fio's"
# The drive sees them: the disk's in_queue (ms of requests queued) is four times the run.
inq() { sed -n 's/.*in_queue=\([0-9]*\),.*/\1/p' "$1"; }
within "offload: in_queue (ms, 4 in flight over 2 s)" "$(inq off.txt)" 7600 8200
within "inline: in_queue (ms, 1 in flight)" "$(inq inl.txt)" 1900 2100
# At a rate, offload submits on time (one every 20 ms); inline drains first and leaves late.
gaps() {
	"$NCQSIM" run --write_iolog=r.log "$1" >/dev/null 2>&1
	awk '$3 == "read" { if (p != "") print $1 - p; p = $1 }' r.log | sort -u | paste -sd' '
}
sed 's/^io_submit_mode=inline/io_submit_mode=offload/' "$dir/offload_rate.fio" >or.fio
same "offload at 50 IOPS: the gaps between I/Os (us)" "$(gaps or.fio)" "20000"
checks=$((checks + 1))
[ "$(gaps "$dir/offload_rate.fio")" != 20000 ] || fail "inline at 50 IOPS: no drain before the rate's sleeps"
# Offload checks every offload job's I/O in flight: two jobs on the same blocks share 4.
sed 's/^serialize_overlap=1/serialize_overlap=0/' "$dir/offload_serialize.fio" >os0.fio
"$NCQSIM" run --set drive.write_cache=0 "$dir/offload_serialize.fio" >os1.txt
"$NCQSIM" run --set drive.write_cache=0 os0.fio >os0.txt
within "offload + serialize_overlap: in_queue (ms, 4 in flight over 1 s)" "$(inq os1.txt)" 3900 4200
within "offload without it: in_queue (ms, 8 in flight)" "$(inq os0.txt)" 7900 8200
checks=$((checks + 1))
[ "$(grep -c 'write: IOPS=2[34][0-9],' os1.txt)" = 2 ] || fail "offload + serialize_overlap: the jobs do not share the drive evenly"
printf '[j]\nio_submit_mode=threads\n' >bad.fio
expect_rc 2 "$NCQSIM" run bad.fio
err_has "bad.fio:2: option 'io_submit_mode': expected one of inline, offload"

# ---- steadystate, steadystate_duration, steadystate_ramp_time ----
# ss FILE: job_runtime attained duration iops-samples bw_mean/1000 of ncqsim's (or fio's) JSON
ss() {
	python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
s = j["steadystate"]
print(j["job_runtime"], s["attained"], s["duration"], len(s["data"]["iops"]),
      s["data"]["bw_mean"] // 1000, s["criterion"][-1] == "%")'
}
# ss_close NAME GOT WANT RUNTIME-TOL: the same but for the runtime (within RUNTIME-TOL ms)
# and the mean bandwidth (fio's clock: within 20 kB/s)
ss_close() {
	checks=$((checks + 1))
	printf '%s\n%s\n' "$2" "$3" | awk -v tol="$4" '
		NR == 1 { for (i = 1; i <= 6; i++) g[i] = $i; next }
		{ d = g[1] - $1; b = g[5] - $5
		  if (d > tol || -d > tol || b > 20 || -b > 20 || g[2] != $2 || g[3] != $3 || g[4] != $4 || g[6] != $6) exit 1 }' ||
		fail "$1: '$2', fio 3.33 gave '$3'"
}
while IFS='|' read -r f tol want ftol; do
	[ -n "$f" ] || continue
	ss_close "$f" "$(ours "$dir/$f.fio" | ss)" "$want" "$tol"
	if [ -n "$fio_ok" ]; then
		ss_close "fio $f" "$(fio_json "$dir/$f.fio" | ss)" "$want" "$ftol"
	fi
done <<'TABLE'
ss_iops|130|2879 1 3 3 4097 True|150
ss_never|0|4000 0 2 2 4100 True|30
ss_group|260|5758 1 3 3 4098 False|300
ss_ramp|900|5891 1 3 3 4097 True|300
TABLE
# The text line, as fio 3.33 prints it ("steadystate  : attained=yes, bw=4002KiB/s (4002kB/s), iops=1000, iops mean dev=0.067%").
"$NCQSIM" run "$dir/ss_iops.fio" >ss.txt
checks=$((checks + 1))
grep -qE '^  steadystate  : attained=yes, bw=4000KiB/s \(4000kB/s\), iops=1000, iops mean dev=0\.000%$' ss.txt &&
	grep -A1 '^     latency   :' ss.txt | grep -q '^  steadystate  :' ||
	fail "steadystate line: $(grep steadystate ss.txt)"
"$NCQSIM" run "$dir/ss_group.fio" >ss.txt
# fio 3.33: "steadystate  : attained=yes, bw=4004KiB/s (4004kB/s), iops=1000, bw mean dev=4881.333"
checks=$((checks + 1))
grep -qE '^  steadystate  : attained=yes, bw=4000KiB/s \(4000kB/s\), iops=1000, bw mean dev=0\.000$' ss.txt &&
	[ "$(grep -c '^  steadystate' ss.txt)" = 1 ] || fail "steadystate line (group): $(grep steadystate ss.txt)"
# A group's jobs must agree, as fio rejects the job otherwise.
printf '[a]\nrw=read\nsize=1m\nss_dur=2\n[b]\nrw=read\nsize=1m\n' >bad.fio
expect_rc 2 "$NCQSIM" run bad.fio
err_one_line
err_has "bad.fio:5: job 'b': option 'steadystate': the steady-state options"
for c in "ss=iops|option 'ss': 'iops' needs a limit after" \
	"ss=iops_median:1|option 'ss': expected iops, iops_slope, bw or bw_slope" \
	"steadystate=bw:fast|option 'steadystate': expected a bandwidth limit in bytes/s" \
	"ss=iops:-1%|option 'ss': expected a percentage of 0 or more" \
	"ss_dur=soon|option 'ss_dur': expected a time"; do
	printf '[j]\nrw=read\n%s\n' "${c%%|*}" >bad.fio
	expect_rc 2 "$NCQSIM" run bad.fio
	err_one_line
	err_has "bad.fio:3: ${c#*|}"
done
printf '[j]\nrw=read\nsize=1m\nss_dur=500ms\n' >short.fio
expect_rc 0 "$NCQSIM" run short.fio
err_has "a steady-state window under a second has no sample"

# Refused as fio refuses them, with the file and line of the job.
for c in 'wait_for=x|no job '"'"'x'"'"' before this one' 'wait_for=j|a job cannot wait for itself'; do
	printf '[j]\nrw=read\nsize=1m\n%s\n' "${c%%|*}" >bad.fio
	expect_rc 2 "$NCQSIM" run bad.fio
	err_one_line
	err_has "bad.fio:1: job 'j': option 'wait_for': ${c#*|}"
done
printf '[a]\nsize=1m\n[b]\nwait_for=a\nsize=1m\n[a]\nsize=1m\n' >bad.fio
expect_rc 2 "$NCQSIM" run bad.fio
err_has "bad.fio:3: job 'b': option 'wait_for': 2 jobs are named 'a'"
finish
