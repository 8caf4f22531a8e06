# fio 3.33's reporting options and terse output, against fio's own output
# of the same job (test/data/fio-report/*.fio33.txt, stored from fio 3.33):
# the terse line field by field in shape (fio's figures come from a real
# file, ncqsim's from the simulated drive), unified_rw_reporting's
# "mixed" entries, gtod_reduce and the disable_* options, fio's order for
# several formats, write_hist_log's rows and columns, per_job_logs=0.
. test/lib/sh.sh
dir=$TESTDATA/fio-report
cd "$tmp" || exit 1

# shape FIELD: the kind of a terse field, so fio's and ncqsim's compare
shapes() {
	tr ';' '\n' | sed -E 's/^[0-9]+$/INT/; s/^[0-9]+\.[0-9]{6}$/FLOAT/;
		s/^[0-9]+\.[0-9]{6}%$/FLOAT%/; s/^[0-9]+\.[0-9]%$/PCT1/; s/^[0-9]+\.[0-9]{2}%$/PCT2/;
		s/^([0-9.]+%)=[0-9]+$/\1=V/'
}
expect_rc 0 "$NCQSIM" run --quiet --output-format=terse "$dir/terse.fio"
cp "$tmp/out" ours.txt
checks=$((checks + 1))
[ "$(wc -l <ours.txt)" -eq 2 ] || fail "terse: $(wc -l <ours.txt) lines for 2 jobs"
for n in 1 2; do
	sed -n "${n}p" ours.txt | shapes >ours.$n
	sed -n "${n}p" "$dir/terse.fio33.txt" | shapes >fio.$n
	# fields 2 (version) and 122 (the disk's name) differ by design: sda, ncqsim-0.1
	paste -d '|' ours.$n fio.$n | awk -F '|' -v n="$n" '
		NR != 2 && $1 != $2 && !($2 == "vda" && $1 == "sda") {
			print "FAIL: terse line " n " field " NR ": \"" $1 "\", fio \"" $2 "\""; bad = 1 }
		END { exit bad }' || failures=$((failures + 1))
	checks=$((checks + 1))
	[ "$(wc -l <ours.$n)" -eq "$(wc -l <fio.$n)" ] ||
		fail "terse line $n: $(wc -l <ours.$n) fields, fio $(wc -l <fio.$n)"
done
# Exact where fio is exact: the job, its group, the KiB each direction moved in all.
checks=$((checks + 1))
awk -F ';' '{ print $1, $3, $4, $5, $6 + ($3 == "t" ? $47 : 0) }' ours.txt >exact.ours
sed 's/fio-3.33/V/' "$dir/terse.fio33.txt" | awk -F ';' '{ print $1, $3, $4, $5, $6 + ($3 == "t" ? $47 : 0) }' >exact.fio
cmp -s exact.ours exact.fio || fail "terse: $(cat exact.ours) / fio $(cat exact.fio)"
checks=$((checks + 1))
tail -c 12 ours.txt | grep -q ';mixed one$' || fail "terse: the description does not end the line"

# unified_rw_reporting=mixed: what fio 3.33 printed for the same job.
expect_rc 0 "$NCQSIM" run --quiet "$dir/terse.fio"
for line in "  mixed: IOPS=" "     issued rwts: total=256,0,0,0" "  MIXED: bw=" "  Description  : [mixed one]"; do
	checks=$((checks + 1))
	grep -qF -- "$line" "$dir/mixed.fio33.txt" || fail "fio's output lacks '$line'"
	out_has "$line"
done
checks=$((checks + 1))
[ "$(grep -c '^  MIXED: bw=' "$tmp/out")" -eq 2 ] || fail "expected two MIXED group lines, as fio"
expect_rc 0 "$NCQSIM" run --quiet --output-format=json "$dir/terse.fio"
checks=$((checks + 1))
python3 - "$tmp/out" <<'PY' || fail "JSON: unified_rw_reporting=mixed is not one 'mixed' object"
import json, sys
t, m = json.load(open(sys.argv[1]))["jobs"]
assert "read" in t and "write" in t and "mixed" not in t
assert "mixed" in m and not any(k in m for k in ("read", "write", "trim", "sync"))
assert m["mixed"]["io_kbytes"] == 1024 and m["mixed"]["clat_ns"]["N"] == 256
PY

# both: read, write, then mixed (fio 3.33 prints its rates and bytes as 0 in the text)
printf '[b]\nrw=randrw\nsize=1m\nunified_rw_reporting=both\nslat_percentiles=1\nioengine=libaio\niodepth=4\n' >both.fio
expect_rc 0 "$NCQSIM" run --quiet --output-format=json,normal both.fio
out_has "  mixed: IOPS=0, BW=0 (0)(0B/"
out_has "  MIXED: bw="
out_has "    slat percentiles (nsec):"
checks=$((checks + 1))
sed -n '/^{/,/^}/p' "$tmp/out" | python3 -c '
import json, sys
b = json.load(sys.stdin)["jobs"][0]
assert list(b).index("mixed") > list(b).index("sync")
assert b["mixed"]["total_ios"] == b["read"]["total_ios"] + b["write"]["total_ios"]
assert "percentile" in b["read"]["slat_ns"]' || fail "JSON: unified_rw_reporting=both"
# fio's order whatever the order asked: terse, JSON, normal
expect_rc 0 "$NCQSIM" run --quiet --output-format=normal,json,terse both.fio
checks=$((checks + 1))
order=$(grep '^3;\|^{\|^b: (groupid' "$tmp/out" | cut -c1-2 | tr '\n' ' ')
[ "$order" = "3; { b: " ] || fail "formats printed as '$order', fio prints terse, JSON, normal"

# gtod_reduce: no latency lines, the bandwidth samples stay (fio 3.33)
printf '[g]\nrw=randread\nsize=4m\nruntime=2\ntime_based\ngtod_reduce=1\n' >g.fio
expect_rc 0 "$NCQSIM" run --quiet g.fio
for no in "slat (" "clat (" " lat (" "percentiles" "lat (usec)   :" "lat (msec)   :"; do
	checks=$((checks + 1))
	! grep -qF -- "$no" "$tmp/out" || fail "gtod_reduce: '$no' printed"
done
out_has "   bw (  KiB/s):"
printf '[c]\nrw=randread\nsize=1m\ndisable_clat=1\n' >c.fio
expect_rc 0 "$NCQSIM" run --quiet c.fio
out_has "     lat ("
checks=$((checks + 1))
! grep -q "clat" "$tmp/out" || fail "disable_clat: a clat line printed"

# write_hist_log: fio's columns (time, direction, bs, 1856 >> coarseness counts),
# a row per direction per log_hist_msec while the job runs, none without it.
printf '[h]\nrw=randrw\nsize=64m\nrate_iops=50\nruntime=2\ntime_based\nwrite_hist_log=h\nlog_hist_msec=500\n[h0]\nrw=read\nsize=1m\nwrite_hist_log=z\n[h3]\nrw=read\nsize=64m\nruntime=1\ntime_based\nwrite_hist_log=c\nlog_hist_msec=200\nlog_hist_coarseness=3\nper_job_logs=0\n' >h.fio
expect_rc 0 "$NCQSIM" run --quiet h.fio
checks=$((checks + 1))
awk -F ', ' 'NF != 1859 || ($2 != 0 && $2 != 1) || $3 != 4096 { bad = 1 } END { exit bad || NR != 6 }' h_clat_hist.1.log ||
	fail "h_clat_hist.1.log: not 6 rows of 1859 columns (fio wrote 6 for this job)"
checks=$((checks + 1))
awk -F ', ' '{ s = 0; for (i = 4; i <= NF; i++) s += $i; if (s < 24 || s > 28) bad = 1 } END { exit bad }' h_clat_hist.1.log ||
	fail "h_clat_hist.1.log: a row does not count the ~25 I/Os of its 500 ms (the first also those before)"
checks=$((checks + 1))
[ -f z_clat_hist.2.log ] && [ ! -s z_clat_hist.2.log ] || fail "no log_hist_msec: fio writes an empty file"
checks=$((checks + 1))
awk -F ', ' 'NF != 235 { bad = 1 } END { exit bad || NR != 4 }' c_clat_hist.log ||
	fail "c_clat_hist.log (per_job_logs=0, coarseness 3): not 4 rows of 235 columns"

# fio's keywords: this machine's values (as getconf gives them), said on stderr
printf '[k]\nbs=$pagesize\nnumjobs=$ncpus\nsize=1m\ndescription=$mb_memory MiB, $other\n' >k.fio
expect_rc 0 "$NCQSIM" run --quiet --output-format=json k.fio
err_has "this machine's \$pagesize = $(getconf PAGESIZE), \$ncpus = $(getconf _NPROCESSORS_ONLN), \$mb_memory = "
checks=$((checks + 1))
python3 - "$tmp/out" "$(getconf PAGESIZE)" "$(getconf _NPROCESSORS_ONLN)" <<'PY' || fail "keywords: not the machine's values"
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
o = jobs[0]["job options"]
assert o["bs"] == sys.argv[2] and o["numjobs"] == sys.argv[3] and len(jobs) == int(sys.argv[3])
assert o["description"].endswith(" MiB, $other") and o["description"].split()[0].isdigit()
PY
printf '[k]\nbs=$pagesizes\n' >kb.fio
expect_rc 2 "$NCQSIM" run --quiet kb.fio
err_has "kb.fio:2: option 'bs': expected a size such as 4k, got '$(getconf PAGESIZE)s'"
err_one_line

# broken command lines
expect_rc 2 "$NCQSIM" run --terse-version=4 both.fio
err_has "terse version 3 only"
err_one_line
expect_rc 2 "$NCQSIM" compare both.fio --vary queue/nr_requests=4,8 --output-format=terse
err_has "terse is for 'ncqsim run'"
err_one_line
# continue_on_error: the errors line comes before the latency target's, as
# fio 3.33 prints them. Here the trims of a trimwrite fail, the drive having
# no TRIM (EOPNOTSUPP, 95). fio 3.33 on a loop device without discard:
# continue_on_error=all counts the first one and ends the job ("err=95
# (file:ioengines.c:399, func=td_io_queue, ...)", "issued rwts:
# total=0,0,1,0", "errors    : total=1, ..."), exit status 1: EIO and EILSEQ
# are the only errors it carries on past; with ignore_error=,95 it carries
# on ("total=0,16,16,0", "errors    : total=16, first_error=95/<Operation
# not supported>", the same err=95 header), exit status 0.
printf '[j]\nrw=trimwrite\nbs=64k\nsize=1m\ncontinue_on_error=all\n' >coe.fio
expect_rc 1 "$NCQSIM" run coe.fio
checks=$((checks + 1))
[ "$(grep -E '^     (issued rwts|errors    |latency   ):' "$tmp/out" | cut -c6-16 | paste -sd '|')" = \
	'issued rwts|errors    :|latency   :' ] && grep -q 'issued rwts: total=0,0,1,0 ' "$tmp/out" &&
	grep -q 'errors    : total=1, first_error=95/<Operation not supported>' "$tmp/out" &&
	grep -q 'err=95 (file:ioengines.c, func=td_io_queue, error=Operation not supported)' "$tmp/out" ||
	fail "continue_on_error: $(grep -E '^     (issued|errors|latency)' "$tmp/out")"
printf 'ignore_error=,95\n' >>coe.fio
expect_rc 0 "$NCQSIM" run coe.fio
checks=$((checks + 1))
grep -q 'issued rwts: total=0,16,16,0 ' "$tmp/out" &&
	grep -q 'errors    : total=16, first_error=95/<Operation not supported>' "$tmp/out" &&
	grep -q 'err=95 (file:ioengines.c, func=td_io_queue, error=Operation not supported)' "$tmp/out" ||
	fail "ignore_error=,95: $(grep -E '(err=|^     (issued|errors))' "$tmp/out")"
finish
