#!/usr/bin/env bash
# bench/golden.sh: one md5 per output of a fixed set of runs that cover
# every path whose output must not change while the hot path is reworked
# (issue 16): the seed at ncq_prio_enable 0 and 1 on deadline (4.10),
# mq-deadline and none (6.12); the drive's strict, soft and ignore priority
# policies; fifo and satf_batch (hc570); CDL; a measured drive (DiskSim
# import, validate, and `ncqsim run` on it); sequential and cached I/O
# (t_disk_seq's jobs) with the write cache on and off; writes with fsync,
# FUA and barriers; the fio generator's options (bssplit, rwmix, zipf,
# thinktime, rate_iops, iodepth_batch); a trace replay; a compare; json+;
# latency, bandwidth, IOPS and histogram logs; a --debug=all trace; and
# every job file of test/data/fio-oracle, fio-control and fio-engine
# (verify, trims, job control, engine flags) and the sg engine.
#
#   bench/golden.sh > before.txt    ... change ...    bench/golden.sh | diff before.txt -
#
# Run from the top of the tree (NCQSIM names the binary, ./ncqsim by
# default). Wall-clock fields (fio's timestamps, the text report's date)
# are stripped before hashing; everything else must stay byte-identical.
set -euo pipefail
ncqsim=$(realpath "${NCQSIM:-./ncqsim}")
top=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Drop wall-clock fields: JSON timestamps and the text report's date line.
untimed() { grep -v -E '"(time|timestamp|timestamp_ms)" :|pid=[0-9]+: ' "$1" || true; }
# hash NAME FILE: print the md5 of FILE without its wall-clock fields.
hash() { printf '%s  %s\n' "$(untimed "$2" | md5sum | cut -d' ' -f1)" "$1"; }
# out NAME CMD...: run CMD in the tree's top (stdout and stderr kept apart), hash both.
out() {
	local name=$1 rc=0
	shift
	(cd "$top" && "$@") >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	hash "$name" "$tmp/$name.out"
	if [ -s "$tmp/$name.err" ]; then
		hash "$name.stderr" "$tmp/$name.err"
	fi
	[ "$rc" -eq 0 ] || echo "exit $rc  $name"
}

seed=(examples/seed.fio --system examples/seed.system --quiet)
json=(--output-format=json)

for p in 0 1; do
	out "seed-4.10-deadline-prio$p" "$ncqsim" run "${seed[@]}" "${json[@]}" --runtime 300 \
		--set device/ncq_prio_enable=$p
	out "seed-6.12-mq-deadline-prio$p" "$ncqsim" run "${seed[@]}" "${json[@]}" --runtime 300 \
		--set kernel=6.12 --set device/ncq_prio_enable=$p
	out "seed-6.12-none-prio$p" "$ncqsim" run "${seed[@]}" "${json[@]}" --runtime 300 \
		--set kernel=6.12 --set queue/scheduler=none --set device/ncq_prio_enable=$p
done
out seed-text "$ncqsim" run "${seed[@]}" --runtime 120 --seed 3
out seed-qd1 "$ncqsim" run "${seed[@]}" "${json[@]}" --runtime 120 --set device/queue_depth=1
for policy in strict soft ignore; do
	out "seed-prio-$policy" "$ncqsim" run "${seed[@]}" "${json[@]}" --runtime 300 \
		--set device/ncq_prio_enable=1 --set drive.prio_policy=$policy
done
out seed-fifo "$ncqsim" run "${seed[@]}" "${json[@]}" --runtime 300 --set drive.fw_sched=fifo
out seed-satf-batch "$ncqsim" run "${seed[@]}" "${json[@]}" --runtime 300 \
	--set drive.fw_sched=satf_batch
out seed-debug "$ncqsim" run "${seed[@]}" --runtime 3 --debug=all --output /dev/null
out seed-jsonplus "$ncqsim" run "${seed[@]}" --output-format=json+ --runtime 120 \
	--set device/ncq_prio_enable=1

out hc570-qd32 env QD=32 "$ncqsim" run examples/hc570-qd.fio --system examples/hc570.system \
	--quiet "${json[@]}" --runtime 120
out hc570-qd4 env QD=4 "$ncqsim" run examples/hc570-qd.fio --system examples/hc570.system \
	--quiet "${json[@]}" --runtime 120
out cdl-on "$ncqsim" run examples/cdl.fio --system examples/cdl.system --quiet "${json[@]}" \
	--runtime 120
out cdl-off "$ncqsim" run examples/cdl.fio --system examples/cdl.system --quiet "${json[@]}" \
	--runtime 120 --set device/cdl_enable=0
# CDL with the active and inactive limits that end commands (policies 0xD, 0xF).
for page in active20-unavailable active20-abort; do
	out "cdl-$page" "$ncqsim" run test/data/cdl/active20.fio --drive hc570 --quiet "${json[@]}" \
		--runtime 30 --set device/cdl_enable=1 --set drive.cdl_t2a=test/data/cdl/$page.cdl
done
for page in guide50-abort guide50-next inactive10-abort; do
	out "cdl-$page" "$ncqsim" run test/data/cdl/qd32.fio --drive hc570 --quiet "${json[@]}" \
		--runtime 30 --set device/cdl_enable=1 --set drive.cdl_t2a=test/data/cdl/$page.cdl
done

# A measured drive: import, validate (disk/service.c), and the NCQ path on it.
out import "$ncqsim" import disksim test/data/disksim/hp_c3323a/hp_c3323a.parv \
	-o "$tmp/c3323a.drive"
hash import.drive "$tmp/c3323a.drive"
out validate "$ncqsim" validate test/data/disksim/hp_c3323a/hp_c3323a.trace \
	--drive "$tmp/c3323a.drive" --output-format=json
"$ncqsim" import disksim test/data/disksim/atlas_III/atlas_III.parv -o "$tmp/atlas.drive" 2>/dev/null
out validate-atlas "$ncqsim" validate test/data/disksim/atlas_III/atlas_III.trace \
	--drive "$tmp/atlas.drive"
printf '[m]\nrw=randrw\nbs=4k\niodepth=4\ntime_based\nruntime=20\n' >"$tmp/measured.fio"
out measured-run "$ncqsim" run "$tmp/measured.fio" --drive "$tmp/c3323a.drive" --quiet "${json[@]}"

# Sequential and cached I/O: test/t_disk_seq's jobs.
seqjob() { # NAME RW BS DEPTH
	printf '[seq]\nfilename=/dev/sdX\nioengine=libaio\ndirect=1\niodepth=%s\nrw=%s\nbs=%s\n'`
		`'offset=0\ntime_based\nruntime=10\n' "$4" "$2" "$3" >"$tmp/$1.fio"
}
seqjob seq-read-1m read 1m 1
seqjob seq-read-4k read 4k 1
seqjob seq-read-4k-qd32 read 4k 32
seqjob seq-write-4k write 4k 1
seqjob rand-read-4k randread 4k 1
for j in seq-read-1m seq-read-4k seq-read-4k-qd32 seq-write-4k rand-read-4k; do
	out "$j" "$ncqsim" run "$tmp/$j.fio" --quiet "${json[@]}"
done
out seq-write-4k-nocache "$ncqsim" run "$tmp/seq-write-4k.fio" --quiet "${json[@]}" \
	--set drive.write_cache=0

# Writes: the write cache and destages, fsync, O_SYNC's FUA, barriers, merges.
cat >"$tmp/writes.fio" <<'EOF'
[global]
ioengine=libaio
direct=1
time_based
runtime=20
[mixed]
rw=randrw
rwmixread=60
bssplit=4k/50:16k/30:64k/20
iodepth=8
fsync=64
[fua]
rw=randwrite
bs=8k
iodepth=4
sync=1
[barrier]
rw=write
bs=64k
iodepth=2
write_barrier=16
[merging]
rw=read
bs=4k
iodepth=16
offset=1t
EOF
out writes-4.10 "$ncqsim" run "$tmp/writes.fio" --quiet "${json[@]}" --set kernel=4.10
out writes-6.12 "$ncqsim" run "$tmp/writes.fio" --quiet "${json[@]}" --set kernel=6.12
out writes-debug "$ncqsim" run "$tmp/writes.fio" --quiet --runtime 1 --debug=all --output /dev/null

# The generator's options: distributions, pacing, batching, cmdprio.
cat >"$tmp/gen.fio" <<'EOF'
[global]
ioengine=libaio
direct=1
time_based
runtime=20
[zipf]
rw=randread
bs=4k
iodepth=4
random_distribution=zipf:1.2
cmdprio_percentage=30
cmdprio_class=1
[think]
rw=randread
bsrange=4k-64k
iodepth=2
thinktime=5ms
thinktime_blocks=4
[rate]
rw=randwrite
bs=16k
rate_iops=40
rate_process=poisson
[batch]
rw=randread
bs=4k
iodepth=16
iodepth_batch_submit=4
iodepth_batch_complete_min=2
iodepth_batch_complete_max=8
[sized]
rw=randread
bs=4k
size=64m
norandommap=0
time_based=0
loops=2
[sync]
ioengine=psync
rw=randread
bs=4k
EOF
out generator "$ncqsim" run "$tmp/gen.fio" --quiet "${json[@]}" --set kernel=6.12 \
	--set device/ncq_prio_enable=1
out generator-text "$ncqsim" run "$tmp/gen.fio" --quiet

# Logs: a row per I/O, averaged windows, and histogram logs.
mkdir -p "$tmp/logs"
cat >"$tmp/logs.fio" <<'EOF'
[global]
ioengine=libaio
direct=1
time_based
runtime=5
[perio]
rw=randread
bs=4k
iodepth=4
write_lat_log=perio
write_bw_log=perio
write_iops_log=perio
write_iolog=perio.iolog
[avg]
rw=randrw
bs=8k
iodepth=8
log_avg_msec=250
write_lat_log=avg
write_bw_log=avg
write_hist_log=avg
log_hist_msec=500
EOF
(cd "$tmp/logs" && "$ncqsim" run "$tmp/logs.fio" --quiet --output-format=json >run.out 2>run.err)
for f in "$tmp"/logs/*; do
	hash "logs/$(basename "$f")" "$f"
done

# Issue 13's later options: every job file fio's oracle tests, job control
# and the engine flags use (verify, trims, percentage_random,
# bs_is_seq_rand, serialize_overlap, offload, flow, steady state, nowait,
# ...), and the sg engine beside libaio.
for f in test/data/fio-oracle/*.fio test/data/fio-control/*.fio test/data/fio-engine/*.fio; do
	name=${f#test/data/}
	name=${name//\//-}
	out "${name%.fio}" "$ncqsim" run "$f" --quiet "${json[@]}"
done
printf '[global]\nruntime=5\ntime_based\nbs=4k\nrw=randread\n[r]\nioengine=libaio\niodepth=32\n[s]\nioengine=sg\n[w]\nioengine=sg\nrw=randwrite\nwritefua=1\n' >"$tmp/sg.fio"
out sg "$ncqsim" run "$tmp/sg.fio" --quiet "${json[@]}"

# A replay and a compare.
for p in 0 1; do
	out "replay-prio$p" "$ncqsim" replay examples/db-backup.blkparse --prio postgres=rt \
		--set device/ncq_prio_enable=$p --quiet "${json[@]}"
done
out replay-closed "$ncqsim" replay test/data/traces/small.blkparse --closed 4 --quiet
out compare "$ncqsim" compare "${seed[@]}" --vary device/ncq_prio_enable=0,1 --repeat 2 \
	--runtime 120 --output-format=json
out compare-text "$ncqsim" compare "${seed[@]}" --vary device/ncq_prio_enable=0,1 \
	--repeat 2 --runtime 60 --plot "$tmp/compare.svg"
hash compare.svg "$tmp/compare.svg"
