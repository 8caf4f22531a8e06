# fio's reporting options against fio 3.33: the bw and iops samples
# (bwavgtime, iopsavgtime, and the per-I/O samples fio takes beside a
# per-I/O bw or iops log), what their logs hold. The job files of
# test/data/fio-stats run through ncqsim and, where fio 3.33 is installed,
# through fio (psync on a scratch file); fio's figures are stored in
# expected.txt for machines without it (FIO_STATS_UPDATE=1 rewrites them).
# The jobs are paced by rate_iops or thinktime, so the samples do not
# depend on the drive.
. test/lib/sh.sh
dir=$TESTDATA/fio-stats
expected=$dir/expected.txt
cd "$tmp" || exit 1
check_fio "the stored fio figures only"
[ -z "$fio_ok" ] || truncate -s 64m dev

# figures JSON: the first job's read I/Os, bw and iops samples, their
# means and whether any sample is 0, and the rows of its bw and iops logs
figures() {
	python3 - "$1" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
rows = []
for kind in ("bw", "iops"):
    logs = [f for f in os.listdir(".") if f.endswith("_%s.1.log" % kind)]
    rows.append(sum(1 for _ in open(logs[0])) if logs else -1)
print(r["total_ios"], r["bw_samples"], r["iops_samples"], round(r["bw_mean"], 1),
      round(r["iops_mean"], 1), int(r["bw_min"] > 0), *rows)
PY
}
# same NAME MODE OURS THEIRS: the counts exact, the I/Os within 2, the
# means within 5 % or 1 (fio's windows end a few ms late, and its rates
# are whole numbers); MODE per-io (a job whose bw and iops are sampled per
# I/O): the I/Os within 2, every count equals the I/Os, and bw's mean
# (bytes per clat, which depends on the drive) is not compared
same() {
	checks=$((checks + 1))
	echo "$3 $4" | awk -v mode="$2" '
		function near(a, b) { return (a - b) * (a - b) <= (b * b / 400 > 1 ? b * b / 400 : 1) }
		NF != 16 { exit 1 }
		{ d = $1 - $9; if (d < -2 || d > 2) exit 1 }
		mode == "per-io" { for (i = 0; i <= 8; i += 8)
				if ($(i+2) != $(i+1) || $(i+3) != $(i+1) || $(i+7) != $(i+1) ||
				    $(i+8) != $(i+1) || $(i+5) != 1) exit 1
			exit 0 }
		{ if ($2 != $10 || $3 != $11 || $6 != $14 || $7 != $15 || $8 != $16) exit 1
		  if (!near($4, $12) || !near($5, $13)) exit 1 }' ||
		fail "$1: ncqsim '$3', fio '$4' (I/Os bw_samples iops_samples bw_mean iops_mean min>0 bw_rows iops_rows)"
}
mode_of() { sed -n "s/^; stats: *//p" "$1" | head -n 1; }

new=$tmp/expected.new
: >"$new"
for f in "$dir"/*.fio; do
	name=$(basename "$f" .fio)
	rm -f ./*.log
	expect_rc 0 "$NCQSIM" run --output-format=json "$f"
	ours=$(figures "$tmp/out")
	if [ -n "$fio_ok" ]; then
		rm -f ./*.log
		"$fio" --ioengine=psync --filename=dev --output-format=json "$f" >fio.json 2>/dev/null
		theirs=$(figures fio.json)
		echo "$name $theirs" >>"$new"
		stored=$(awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$expected")
		checks=$((checks + 1))
		[ -n "${FIO_STATS_UPDATE:-}" ] ||
			[ "$(echo "$theirs" | cut -d' ' -f2,3,6-)" = "$(echo "$stored" | cut -d' ' -f2,3,6-)" ] ||
			fail "$name: fio now gives '$theirs', expected.txt has '$stored'"
	else
		theirs=$(awk -v n="$name" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$expected")
	fi
	same "$name" "$(mode_of "$f")" "$ours" "$theirs"
done
[ -n "${FIO_STATS_UPDATE:-}" ] && [ -n "$fio_ok" ] && cp "$new" "$expected"

# A per-I/O bw row is fio's add_bw_sample(): bytes * 10^6 / clat ns, the
# clat log's value on the same row; a sync engine's slat log is empty.
rm -f ./*.log
expect_rc 0 "$NCQSIM" run "$dir/per_io.fio"
checks=$((checks + 1))
paste -d, pio_bw.1.log pio_clat.1.log | awk -F', *' '
	$2 != int($4 * 1000000 / $7) || $4 != $9 { bad++ } END { exit bad > 0 || NR < 30 }' ||
	fail "per-I/O bw rows are not bytes * 10^6 / clat"
checks=$((checks + 1))
[ -f pio_slat.1.log ] && [ ! -s pio_slat.1.log ] || fail "psync: no empty pio_slat.1.log, as fio writes"

# Window rows of a bw log carry the priority column as log_prio writes it.
printf '[w]\nrw=randread\nbs=4k\nsize=1m\nrate_iops=100\nruntime=1200ms\ntime_based\nwrite_bw_log=pw\nlog_avg_msec=500\nlog_prio=1\n' >pw.fio
expect_rc 0 "$NCQSIM" run pw.fio
checks=$((checks + 1))
[ "$(sed 's/^\([0-9]*\), [0-9]*, /\1, V, /' pw_bw.1.log | tr '\n' '|')" = "500, V, 0, 0, 0x0000|1000, V, 0, 0, 0x0000|" ] ||
	fail "log_prio window rows: $(tr '\n' '|' <pw_bw.1.log), expected '500, V, 0, 0, 0x0000|1000, ...'"

# stats=0: left out of the text as fio 3.33 leaves it out, every group's
# status line kept; its logs written empty; no max_latency check (fio's
# account_io_completion() returns first).
outline() {
	grep -E '^[a-z_]+: \(groupid|^Run status group|^ *(READ|WRITE): ' "$1" |
		sed -E 's/^([a-z_]+: \(groupid=[0-9]+, jobs=[0-9]+\)).*/\1/; s/^ *(READ|WRITE):.*/\1/'
}
expect_rc 0 "$NCQSIM" run "$TESTDATA/fio-oracle/stats.fio"
outline "$tmp/out" >stats.ours
want='b: (groupid=0, jobs=1)|Run status group 0 (all jobs):|WRITE|Run status group 1 (all jobs):|'
checks=$((checks + 1))
[ "$(tr '\n' '|' <stats.ours)" = "$want" ] || fail "stats=0: text outline $(tr '\n' '|' <stats.ours)"
if [ -n "$fio_ok" ]; then
	"$fio" --ioengine=psync --filename=dev "$TESTDATA/fio-oracle/stats.fio" >fio.txt 2>/dev/null
	checks=$((checks + 1))
	[ "$(outline fio.txt | tr '\n' '|')" = "$want" ] || fail "fio's stats=0 outline: $(outline fio.txt | tr '\n' '|')"
fi
rm -f ./*.log
printf '[q]\nrw=randread\nsize=1m\nstats=0\nmax_latency=1us\nwrite_lat_log=q\nwrite_bw_log=q\n' >q.fio
expect_rc 0 "$NCQSIM" run --output-format=json q.fio
checks=$((checks + 1))
[ -f q_clat.1.log ] && [ -f q_bw.1.log ] && [ ! -s q_clat.1.log ] && [ ! -s q_bw.1.log ] ||
	fail "stats=0: logs not written empty"
checks=$((checks + 1))
grep -q '"jobs" : \[\],$' "$tmp/out" || fail "stats=0: a job in the JSON"
printf '[q]\nrw=read\nsize=1m\nstats=2\n' >q.fio
expect_rc 2 "$NCQSIM" run q.fio
err_has "q.fio:4: option 'stats': expected"

# disk_util=0 in every job: no "Disk stats" section, no JSON disk_util,
# a terse line without the disk's 9 fields (fio 3.33: 121 fields, 130
# with them); one job keeping it on keeps the section. The entry is named
# after the device the jobs name (filename=/dev/sdb: sdb), else sda.
printf '[a]\nrw=read\nsize=64k\ndisk_util=0\n' >du.fio
expect_rc 0 "$NCQSIM" run --output-format=normal,json,terse du.fio
checks=$((checks + 1))
! grep -q 'Disk stats\|"disk_util" : \[' "$tmp/out" || fail "disk_util=0: the disk's statistics are still there"
checks=$((checks + 1))
[ "$(grep '^3;' "$tmp/out" | awk -F';' '{ print NF }')" = 121 ] || fail "disk_util=0: terse line not of 121 fields"
if [ -n "$fio_ok" ]; then
	checks=$((checks + 1))
	[ "$("$fio" --ioengine=psync --filename=dev --output-format=terse du.fio | awk -F';' '{ print NF }')" = 121 ] ||
		fail "fio's terse line with disk_util=0 is not of 121 fields"
fi
printf '[b]\nrw=read\nsize=64k\nfilename=/dev/sdb\n' >>du.fio
expect_rc 0 "$NCQSIM" run --output-format=normal,terse du.fio
out_has "Disk stats (read/write):"
out_has "  sdb: ios="
checks=$((checks + 1))
[ "$(grep '^3;' "$tmp/out" | head -n 1 | awk -F';' '{ print NF, $122 }')" = "130 sdb" ] ||
	fail "terse line: the disk's fields are not there, named sdb"
printf '[a]\nrw=read\nsize=64k\ndisk_util=yes please\n' >du.fio
expect_rc 2 "$NCQSIM" run du.fio
err_has "du.fio:4: option 'disk_util': expected"

# unit_base=1: the BW and group lines in bits per second (fio's num2str()
# with N2S_BITPERSEC: bytes x 8), the bw line, JSON and terse unchanged, as
# fio 3.33 prints them; the units of each line compared with fio's.
units() {
	grep -E '^ *(read|write): IOPS|^ *(READ|WRITE): bw=|^ *bw \(' "$1" |
		sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/= +/=/g; s/ +/ /g'
}
for u in 1 8; do
	printf '[u]\nrw=read\nbs=64k\nsize=8m\nrate=1m\nruntime=1200ms\ntime_based\nunit_base=%s\n' "$u" >u.fio
	expect_rc 0 "$NCQSIM" run u.fio
	units "$tmp/out" >units.ours
	want=" read: IOPS=N, BW=NKibit/s (Nkbit/s)(NKiB/Nmsec)| bw ( KiB/s): min=N, max=N, per=N%, avg=N, stdev=N, samples=N| READ: bw=NKibit/s (Nkbit/s), NKibit/s-NKibit/s (Nkbit/s-Nkbit/s), io=NKiB (NkB), run=N-Nmsec|"
	[ "$u" = 8 ] && want=$(echo "$want" | sed "s/Kibit/KiB/g; s/kbit/kB/g")
	checks=$((checks + 1))
	[ "$(tr '\n' '|' <units.ours)" = "$want" ] || fail "unit_base=$u: $(tr '\n' '|' <units.ours)"
	if [ -n "$fio_ok" ]; then
		"$fio" --ioengine=psync --filename=dev u.fio >fio.txt 2>/dev/null
		checks=$((checks + 1))
		[ "$(units fio.txt | tr '\n' '|')" = "$want" ] || fail "fio's unit_base=$u: $(units fio.txt | tr '\n' '|')"
	fi
done
printf '[u]\nrw=read\nsize=1m\nunit_base=16\n' >u.fio
expect_rc 2 "$NCQSIM" run u.fio
err_has "u.fio:4: option 'unit_base': expected one of 0, 8, 1, got '16'"

# block_error_percentiles: fio's histogram of trims per block. No job
# here trims, so fio prints the section's heading and its state line with
# no percentile (its counts then unset: 0 or stray numbers, masked here),
# after the errors and latency lines; a group entry shows it when its
# last member asks for it.
tail_lines() {
	sed -n '/^     issued rwts/,/^Run status/p' "$1" | sed -E 's/=[0-9]+/=N/g; s/<[^>]*>/<E>/' |
		grep -v '^     issued rwts\|^Run status\|^$'
}
printf '[b]\nrw=randwrite\nsize=64k\ncontinue_on_error=all\nblock_error_percentiles=1\n' >be.fio
expect_rc 0 "$NCQSIM" run be.fio
want='     errors    : total=N, first_error=N/<E>|     latency   : target=N, window=N, percentile=N.00%, depth=N|  block lifetime percentiles :|   |        states               : unwritten=N, trimmed=N, written=N, trim failure=N, write failure=N|'
checks=$((checks + 1))
[ "$(tail_lines "$tmp/out" | tr '\n' '|')" = "$want" ] || fail "block_error_percentiles: $(tail_lines "$tmp/out" | tr '\n' '|')"
if [ -n "$fio_ok" ]; then
	"$fio" --ioengine=psync --filename=dev be.fio >fio.txt 2>/dev/null
	checks=$((checks + 1))
	[ "$(tail_lines fio.txt | tr '\n' '|')" = "$want" ] || fail "fio's block_error_percentiles: $(tail_lines fio.txt | tr '\n' '|')"
fi
printf '[global]\ngroup_reporting\nrw=read\nsize=64k\n[a]\nblock_error_percentiles=1\n[b]\n' >be.fio
expect_rc 0 "$NCQSIM" run be.fio
checks=$((checks + 1))
! grep -q 'block lifetime' "$tmp/out" || fail "block_error_percentiles: shown though the group's last member does not ask"

# Broken values: file, line, option and what was expected.
for c in 'bwavgtime=0|option '"'"'bwavgtime'"'"': expected a window of 1..86400000 milliseconds, got '"'"'0'"'"' (fio'"'"'s 0 samples' \
	'iopsavgtime=5s|option '"'"'iopsavgtime'"'"': expected a window of 1..86400000 milliseconds, got '"'"'5s'"'"'' \
	'bwavgtime=-1|option '"'"'bwavgtime'"'"': expected a window'; do
	printf '[j]\nrw=read\nsize=1m\n%s\n' "${c%%|*}" >b.fio
	expect_rc 2 "$NCQSIM" run b.fio
	err_one_line
	err_has "b.fio:4: ${c#*|}"
done
finish
