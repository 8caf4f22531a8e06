# The time column and the file format of fio's logs, against fio 3.33:
# log_unix_epoch, log_alternate_epoch and log_alternate_epoch_clock_id
# (the epoch is the run's start on the wall clock, fixed by
# SOURCE_DATE_EPOCH, or the simulated machine's uptime), and
# log_compression / log_store_compressed (fio's .fz files: zlib streams of
# its binary samples, which `fio --inflate-log` turns back into the text
# rows).
. test/lib/sh.sh
cd "$tmp" || exit 1
check_fio "fio's log format alone"
[ -z "$fio_ok" ] || truncate -s 64m dev

# col1 FILE: the first column of a log
col1() { cut -d, -f1 "$1"; }
# diffs A B: the row-by-row difference of two logs' first columns, once each
diffs() { paste -d' ' <(col1 "$1") <(col1 "$2") | awk '{ printf "%.0f\n", $1 - $2 }' | sort -u; }

job='[e]\nrw=randread\nbs=4k\nsize=1m\nnumber_ios=40\nwrite_lat_log=%s\nwrite_hist_log=%s\nlog_hist_msec=10\n%b'
printf "$job" p p '' >plain.fio
printf "$job" u u 'log_unix_epoch=1\n' >unix.fio
printf "$job" a a 'log_alternate_epoch=1\n' >alt.fio
printf "$job" m m 'log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\nstartdelay=2\n' >mono.fio
printf "$job" q q 'log_alternate_epoch=1\nlog_alternate_epoch_clock_id=1\n' >mono0.fio
printf "$job" c c 'log_unix_epoch=1\nlog_alternate_epoch_clock_id=3\n' >cpu.fio
export SOURCE_DATE_EPOCH=1700000000
for f in plain unix alt mono mono0 cpu; do
	expect_rc 0 "$NCQSIM" run --output-format=json $f.fio
	cp "$tmp/out" $f.json
done
# The wall clock's epoch: the run's start, the JSON's timestamp_ms.
checks=$((checks + 1))
grep -q '"timestamp_ms" : 1700000000000,' unix.json || fail "SOURCE_DATE_EPOCH: timestamp_ms is not 1700000000000"
for f in u a; do
	checks=$((checks + 1))
	[ "$(diffs ${f}_clat.1.log p_clat.1.log)" = 1700000000000 ] ||
		fail "${f}_clat.1.log: times are not the plain ones + 1700000000000: $(diffs ${f}_clat.1.log p_clat.1.log | head -3)"
	checks=$((checks + 1))
	[ "$(diffs ${f}_clat_hist.1.log p_clat_hist.1.log)" = 1700000000000 ] ||
		fail "${f}_clat_hist.1.log: times are not the plain ones + 1700000000000"
done
# CLOCK_MONOTONIC: the simulated machine's uptime at the job's start (its
# 2 s startdelay after the drive's probe); the same run without the delay
# starts at the probe's end; a CPU-time clock stays at 0.
mono=$(diffs m_clat.1.log p_clat.1.log)
mono0=$(diffs q_clat.1.log p_clat.1.log)
checks=$((checks + 1))
[ "$(echo "$mono" | wc -l)" = 1 ] && [ "$((mono - mono0))" = 2000 ] ||
	fail "clock_id=1: the epochs $mono (startdelay=2) and $mono0 are not 2000 ms apart"
checks=$((checks + 1))
[ "$(diffs c_clat.1.log p_clat.1.log)" = 0 ] || fail "clock_id=3 (CPU time): the times moved"
# Without SOURCE_DATE_EPOCH: the run's start, near this machine's clock (as
# fio's is, where installed).
unset SOURCE_DATE_EPOCH
now=$(date +%s)
expect_rc 0 "$NCQSIM" run unix.fio
checks=$((checks + 1))
t=$(head -n 1 u_clat.1.log | cut -d, -f1)
[ $((t / 1000 - now)) -ge -60 ] && [ $((t / 1000 - now)) -le 60 ] || fail "log_unix_epoch: $t is not near $now s"
if [ -n "$fio_ok" ]; then
	"$fio" --ioengine=psync --filename=dev unix.fio >/dev/null 2>&1
	t=$(head -n 1 u_clat.1.log | cut -d, -f1)
	checks=$((checks + 1))
	[ $((t / 1000 - now)) -ge -60 ] && [ $((t / 1000 - now)) -le 60 ] || fail "fio's log_unix_epoch: $t is not near $now s"
	"$fio" --ioengine=psync --filename=dev mono0.fio >/dev/null 2>&1
	up=$(cut -d. -f1 /proc/uptime)
	t=$(head -n 1 q_clat.1.log | cut -d, -f1)
	checks=$((checks + 1))
	[ $((t / 1000 - up)) -ge -60 ] && [ $((t / 1000 - up)) -le 60 ] ||
		fail "fio's clock_id=1: $t is not near the uptime, $up s"
fi
# log_compression: the same text rows (ncqsim streams its logs), but bw and
# iops logs are fio's per_unit_log(): the report samples each I/O, the
# log's rows are the windows' means of the per-I/O values (iops: 1), with
# the last window's row at the end — as fio 3.33 writes them.
lc='[c]\nrw=randread\nbs=4k\nsize=1m\nruntime=1300ms\ntime_based\nrate_iops=100\nwrite_bw_log=c\nwrite_iops_log=c\nwrite_lat_log=c\nlog_avg_msec=500\nlog_compression=2k\n'
printf "$lc" >lc.fio
rm -f c_*.log
expect_rc 0 "$NCQSIM" run --output-format=json lc.fio
samples() { python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
print(int(r["bw_samples"] == r["total_ios"] == r["iops_samples"]))' "$1"; }
# the rows but their values, times to the nearest 100 ms (fio's come a few ms late)
shape() { for k in bw iops clat; do awk -F', ' '{ $1 = int(($1 + 50) / 100) * 100; $2 = ""; print }' c_$k.1.log; done | tr '\n' '|'; }
checks=$((checks + 1))
[ "$(samples "$tmp/out")" = 1 ] || fail "log_compression: bw and iops not sampled per I/O"
ours=$(shape)
checks=$((checks + 1))
[ "$(cut -d, -f2 c_iops.1.log | tr -d ' ' | sort -u)" = 1 ] && [ "$(wc -l <c_bw.1.log)" = 3 ] ||
	fail "log_compression: the iops rows are not 3 means of 1: $(tr '\n' '|' <c_iops.1.log)"
if [ -n "$fio_ok" ]; then
	rm -f c_*.log
	"$fio" --ioengine=psync --filename=dev --output-format=json lc.fio >fio.json 2>/dev/null
	checks=$((checks + 1))
	[ "$(samples fio.json)" = 1 ] && [ "$(shape)" = "$ours" ] ||
		fail "log_compression: fio's rows '$(shape)', ncqsim's '$ours'"
fi

# log_store_compressed: PREFIX_KIND.N.log.fz, zlib streams of fio's binary
# samples (a new stream every log_compression bytes of them), which fio's
# reader (fio --inflate-log, or this decoder of fio 3.33's struct
# io_sample) turns back into the rows the text log has.
# inflate.py FILE...: each FILE's rows into FILE.rows, its zlib streams into FILE.streams
cat >inflate.py <<'PY'
import struct, sys, zlib
for path in sys.argv[1:]:
    data, rows, streams = open(path, "rb").read(), [], 0
    while data:
        z = zlib.decompressobj()
        raw, data, streams = z.decompress(data), z.unused_data, streams + 1
        i = 0
        while i < len(raw):
            t, v, d, prio, bs = struct.unpack_from("=QQIH2xQ", raw, i)
            cols, i = [t, v, d & 0x0fffffff, bs], i + 32
            if d & 0x80000000:
                cols.append(struct.unpack_from("=Q", raw, i)[0])
                i += 8
            cols.append("0x%04x" % prio if d & 0x40000000 else int(prio >> 13 == 1))
            rows.append(", ".join(map(str, cols)) + "\n")
    open(path + ".rows", "w").write("".join(rows))
    open(path + ".streams", "w").write("%d\n" % streams)
PY
zjob='[z]\nrw=randrw\nbs=4k\nsize=1m\nnumber_ios=100\nioengine=libaio\niodepth=4\ncmdprio_percentage=30\nwrite_lat_log=z\nwrite_bw_log=z\nwrite_iops_log=z\n%b'
for extra in '' 'log_offset=1\nlog_prio=1\n' 'log_avg_msec=1\n' 'log_compression=1k\n'; do
	rm -f z_*
	# The text log to compare with: compressed in memory, as a store is (fio's per_unit_log()).
	printf "$zjob" "${extra}log_compression=1m\n" >z.fio
	expect_rc 0 "$NCQSIM" run z.fio
	for k in clat slat lat bw iops; do mv z_$k.1.log text_$k.log; done
	printf "$zjob" "${extra}log_store_compressed=1\n" >z.fio
	expect_rc 0 "$NCQSIM" run z.fio
	python3 inflate.py z_*.fz
	for k in clat slat lat bw iops; do
		checks=$((checks + 1))
		[ -f z_$k.1.log.fz ] && [ ! -f z_$k.1.log ] || { fail "store ($extra): no z_$k.1.log.fz"; continue; }
		cmp -s z_$k.1.log.fz.rows text_$k.log ||
			fail "store ($extra): z_$k.1.log.fz does not inflate to the text log"
		if [ -n "$fio_ok" ]; then
			"$fio" --inflate-log=z_$k.1.log.fz >fio.rows 2>/dev/null
			checks=$((checks + 1))
			cmp -s fio.rows text_$k.log || fail "store ($extra): fio --inflate-log=z_$k.1.log.fz differs from the text log"
		fi
	done
done
# 1 KiB chunks of 32-byte samples: 32 rows a stream.
checks=$((checks + 1))
[ "$(cat z_clat.1.log.fz.streams)" = $((($(wc -l <z_clat.1.log.fz.rows) + 31) / 32)) ] ||
	fail "log_compression=1k: $(cat z_clat.1.log.fz.streams) zlib streams for $(wc -l <z_clat.1.log.fz.rows) rows"
# fio's own .fz files: the decoder reads them as fio --inflate-log does,
# so ncqsim's samples are laid out as fio's.
if [ -n "$fio_ok" ]; then
	rm -f z_*
	printf "$zjob" 'log_offset=1\nlog_prio=1\nlog_store_compressed=1\n' | sed 's/^number_ios=100$/size=256k/' >z.fio
	"$fio" --ioengine=libaio --filename=dev z.fio >/dev/null 2>&1
	python3 inflate.py z_clat.1.log.fz z_lat.1.log.fz z_bw.1.log.fz
	for k in clat lat bw; do
		checks=$((checks + 1))
		"$fio" --inflate-log=z_$k.1.log.fz >fio.rows 2>/dev/null
		[ -s fio.rows ] && cmp -s z_$k.1.log.fz.rows fio.rows ||
			fail "fio's z_$k.1.log.fz: the decoder disagrees with fio --inflate-log"
	done
fi
# per_job_logs=0: two jobs' rows in one store.
printf '[global]\nrw=read\nsize=64k\nper_job_logs=0\nwrite_lat_log=s\n%b[a]\n[b]\n' '' >s.fio
expect_rc 0 "$NCQSIM" run s.fio
cp s_clat.log s_text.log
printf '[global]\nrw=read\nsize=64k\nper_job_logs=0\nwrite_lat_log=s\n%b[a]\n[b]\n' 'log_store_compressed=1\n' >s.fio
expect_rc 0 "$NCQSIM" run s.fio
checks=$((checks + 1))
python3 inflate.py s_clat.log.fz
[ "$(wc -l <s_clat.log.fz.rows)" = 32 ] && cmp -s s_clat.log.fz.rows s_text.log ||
	fail "per_job_logs=0: the shared store is not both jobs' rows"
# The histogram log is fio's garbage when compressed: refused.
printf '[h]\nrw=read\nsize=64k\nwrite_hist_log=h\nlog_store_compressed=1\n' >h.fio
expect_rc 2 "$NCQSIM" run h.fio
err_one_line
err_has "h.fio:1: job 'h': option 'write_hist_log': with log_store_compressed fio 3.33 writes memory addresses"
printf '[h]\nrw=read\nsize=64k\nlog_compression=1000\n' >h.fio
expect_rc 2 "$NCQSIM" run h.fio
err_has "h.fio:4: option 'log_compression': expected a size 1024..536870912 bytes"

# Broken values.
for c in 'log_alternate_epoch_clock_id=10|expected a clock id of clock_gettime(): 0 (CLOCK_REALTIME) .. 9 or 11 (CLOCK_TAI), got '"'"'10'"'"'' \
	'log_alternate_epoch_clock_id=rt|expected a clock id' 'log_unix_epoch=maybe|option '"'"'log_unix_epoch'"'"': expected'; do
	printf '[e]\nrw=read\nsize=64k\n%s\n' "${c%%|*}" >b.fio
	expect_rc 2 "$NCQSIM" run b.fio
	err_one_line
	err_has "b.fio:4: "
	err_has "${c#*|}"
done
SOURCE_DATE_EPOCH=soon expect_rc 2 "$NCQSIM" run plain.fio
err_one_line
err_has "SOURCE_DATE_EPOCH: expected whole seconds since 1970, got 'soon'"
finish
