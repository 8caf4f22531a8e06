# ncqsim import disksim and ncqsim validate on DiskSim 4.0's real-drive
# validation suite: every drive imports (unread keys listed once each) and
# validates within the RMS the README reports; broken input of every kind
# is refused with file, line and what was expected.
. test/lib/sh.sh

ds=$TESTDATA/disksim

# drive, the RMS (ms) the README reports for ncqsim, DiskSim's own RMS.
# Asserted: within 5 % of the README's figure either way (a model change
# that moves a drive fails here until the README says what it now is), and
# at most 1.5 x DiskSim's (issue 10's aim).
while read -r drive ours disksim; do
	expect_rc 0 "$NCQSIM" import disksim "$ds/$drive/$drive.parv" -o "$tmp/$drive.drive"
	err_has "is not modelled"
	checks=$((checks + 1))
	[ -z "$(sed 's/^[^ ]* [^ ]* [^ ]* //' "$tmp/err" | sort | uniq -d)" ] ||
		fail "$drive: a key listed twice as not modelled"
	expect_rc 0 "$NCQSIM" validate "$ds/$drive/$drive.trace" --drive "$tmp/$drive.drive" \
		--output-format=json
	checks=$((checks + 1))
	keys=$(grep -o '^  "[a-z_]*"' "$tmp/out" | tr -d ' "' | paste -sd,)
	[ "$keys" = "requests,rms_ms,rms_percent,measured_mean_ms,simulated_mean_ms,percentiles" ] ||
		fail "$drive: JSON keys are '$keys'"
	rms=$(grep -o '"rms_ms" *: *[0-9.e+-]*' "$tmp/out" | sed 's/.*: *//')
	checks=$((checks + 1))
	awk -v r="$rms" -v b="$ours" 'BEGIN { exit !(r >= b * 0.95 && r <= b * 1.05) }' ||
		fail "$drive: RMS $rms ms is not within 5 % of the README's $ours ms"
	checks=$((checks + 1))
	awk -v r="$rms" -v d="$disksim" 'BEGIN { exit !(r <= d * 1.5) }' ||
		fail "$drive: RMS $rms ms is above 1.5 x DiskSim's $disksim ms"
done <<'EOF'
hp_c2247a 0.112 0.090
hp_c3323a 0.292 0.306
dec_rz26 0.438 0.340
cheetah4LP 0.319 0.318
atlas_III 0.271 0.378
EOF

# What the import reads of the disk, its buses and its controller, and
# what it lists as without effect on a lone command (docs/DRIVES.md).
expect_rc 0 "$NCQSIM" import disksim "$ds/hp_c2247a/hp_c2247a.parv"
out_has "reselect_first = 162490ns"
out_has "extradisc_inter_disconnect = 428850ns"
out_has "data_prep = 25190ns"
out_has "overhead_read_miss_after_read = 558210ns"	# no data preparation folded in
out_has "write_segment = 1"
out_has "bus_read_sector = 170100ns"
for key in "Print stats" "Avg sectors per cylinder" "Max queue length" "Scheduler" \
	"Calc sector by sector" "Preseeking level" "Allow sneaky intermediate read hits" \
	"Arbitration type"; do
	err_has "'$key'"
done
checks=$((checks + 1))
! grep -q -e "'Hold bus entire read xfer'" -e "'First reselect overhead'" -e "'Time scale" \
	-e "'Extradisc inter-disconnect delay'" -e "'Immediate buffer read'" "$tmp/err" ||
	fail "a key the import reads is listed as not modelled"
checks=$((checks + 1))
! grep -q "block disksim_bus BUS0\|block disksim_ctlr CTLR0" "$tmp/err" ||
	fail "the buses and controller between disk and host are read, not skipped"

# Time scale for overheads multiplies every overhead DiskSim multiplies, and
# not Minimum seek delay nor the inter-disconnect delay (DiskSim waits that
# out unscaled). Arbitration adds up over the exclusive buses to the host, a
# pass-through controller delays each message 1 ms x Scale for delays, and
# data moves at the slowest bus's pace.
mkdir "$tmp/ts"
cp "$ds/hp_c2247a/"* "$tmp/ts/"
sed -i 's/Time scale for overheads = 1.000000/Time scale for overheads = 2.000000/' \
	"$tmp/ts/hp_c2247a.diskspecs"
sed -i -e '/^disksim_bus BUS0/,/^}/s/^Arbitration time = 0.0,/Arbitration time = 0.02,/' \
	-e '/^disksim_bus BUS0/,/^}/s/^Read block transfer time = 0.0,/Read block transfer time = 0.3,/' \
	-e '/^disksim_bus BUS1/,/^}/s/^Arbitration time = 0.0,/Arbitration time = 0.01,/' \
	-e '/^disksim_ctlr CTLR0/,/^}/s/^Scale for delays = 0.0,/Scale for delays = 0.5,/' \
	"$tmp/ts/hp_c2247a.parv"
expect_rc 0 "$NCQSIM" import disksim "$tmp/ts/hp_c2247a.parv"
out_has "overhead_read_hit_after_read = 1906860ns"
out_has "reselect_first = 324980ns"
out_has "completion_write = 100900ns"
out_has "extradisc_seek_delta = 500us"
out_has "min_seek = 600us"
out_has "extradisc_inter_disconnect = 428850ns"
out_has "x Time scale for overheads"
out_has "bus_arbitration = 30us"
out_has "controller_delay = 500us"
out_has "bus_read_sector = 300us"
out_has "bus_write_sector = 186860ns"
sed -i '/^disksim_bus BUS0/,/^}/s/^type = 1,/type = 2,/' "$tmp/ts/hp_c2247a.parv"
expect_rc 0 "$NCQSIM" import disksim "$tmp/ts/hp_c2247a.parv" -o "$tmp/ts.drive"
expect_rc 0 "$NCQSIM" drives "$tmp/ts.drive" --file
out_has "bus_arbitration = 10us"	# an interleaved bus is never waited for
expect_rc 0 "$NCQSIM" validate "$ds/hp_c2247a/hp_c2247a.trace" --drive "$tmp/ts.drive"

# Values whose effect is not modelled are refused, naming file, line and key.
refused() {
	cp "$ds/hp_c2247a/"* "$tmp/ts/"
	sed -i "$2" "$tmp/ts/$1"
	expect_rc 2 "$NCQSIM" import disksim "$tmp/ts/hp_c2247a.parv"
	err_one_line
	err_has "$3"
}
refused hp_c2247a.diskspecs 's/Enable caching in buffer = 1/Enable caching in buffer = 0/' \
	"hp_c2247a.diskspecs:42: key 'Enable caching in buffer': 0 is not modelled"
refused hp_c2247a.diskspecs 's/Read any free blocks = 0/Read any free blocks = 1/' \
	"hp_c2247a.diskspecs:48: key 'Read any free blocks': 1 is not modelled"
refused hp_c2247a.diskspecs 's/Read directly to buffer = 1/Read directly to buffer = 0/' \
	"key 'Read directly to buffer': 0 is not modelled"
refused hp_c2247a.diskspecs 's/Time scale for overheads = 1.000000/Time scale for overheads = -1/' \
	"key 'Time scale for overheads': expected 0 or more"
refused hp_c2247a.diskspecs 's/Read-ahead over requested = 1/Read-ahead over requested = 2/' \
	"key 'Read-ahead over requested': expected -1, 0 or 1"
refused hp_c2247a.diskspecs 's/First reselect overhead = 0.162490/First reselect overhead = -0.1/' \
	"key 'First reselect overhead': expected 0 or more ms"
refused hp_c2247a.diskspecs 's/Minimum read-ahead (blks) = 0/Minimum read-ahead (blks) = 300/' \
	"key 'Minimum read-ahead (blks)': expected at most the segment's 256 blocks"
refused hp_c2247a.parv '/^disksim_ctlr CTLR0/,/^}/s/^type = 1,/type = 2,/' \
	"key 'type': 2 is not modelled (only the pass-through controller"
refused hp_c2247a.parv '/^disksim_bus BUS1/,/^}/s/^type = 1,/type = 3,/' \
	"key 'type': expected 1 (exclusive) or 2 (interleaved), got 3"

# The normal report, the plot, standard output without -o; deterministic.
expect_rc 0 "$NCQSIM" import disksim "$ds/dec_rz26/dec_rz26.parv"
out_has "form = measured"
out_has "zone = 0 2598 58 0 7 25 1 23142"
expect_rc 0 "$NCQSIM" validate "$ds/dec_rz26/dec_rz26.trace" --drive "$tmp/dec_rz26.drive" \
	--plot "$tmp/rz26.svg"
out_has "requests 7980"
out_has "RMS demerit"
out_has "p99"
cp "$tmp/out" "$tmp/first"
checks=$((checks + 1))
grep -q "<svg" "$tmp/rz26.svg" && grep -q "measured" "$tmp/rz26.svg" || fail "no SVG with both CDFs"
expect_rc 0 "$NCQSIM" validate "$ds/dec_rz26/dec_rz26.trace" --drive "$tmp/dec_rz26.drive"
checks=$((checks + 1))
cmp -s "$tmp/out" "$tmp/first" || fail "validate is not deterministic"

# Broken .parv files: a missing source, an unknown block, a missing '=', an
# unclosed block, a disk whose model is not a block, no disk at all.
mkdir "$tmp/p"
cp "$ds/hp_c2247a/"* "$tmp/p/"
rm "$tmp/p/hp_c2247a.diskspecs"
expect_rc 2 "$NCQSIM" import disksim "$tmp/p/hp_c2247a.parv"
err_one_line
err_has "hp_c2247a.parv:107: in 'source hp_c2247a.diskspecs'"
err_has "cannot open"
cp "$ds/hp_c2247a/hp_c2247a.diskspecs" "$tmp/p/"
printf 'disksim_frobnicator F0 {\n   Speed = 1\n}\n' >>"$tmp/p/hp_c2247a.parv"
expect_rc 2 "$NCQSIM" import disksim "$tmp/p/hp_c2247a.parv"
err_one_line
err_has "hp_c2247a.parv:181: unknown block type 'disksim_frobnicator'"
cp "$ds/hp_c2247a/hp_c2247a.parv" "$tmp/p/"
sed -i 's/^Init Seed = 42,/Init Seed 42,/' "$tmp/p/hp_c2247a.parv"
expect_rc 2 "$NCQSIM" import disksim "$tmp/p/hp_c2247a.parv"
err_has "hp_c2247a.parv:2: expected 'KEY = value' or '}'"
cp "$ds/hp_c2247a/hp_c2247a.parv" "$tmp/p/"
sed -i 's/^} # end of CTLR0 spec//' "$tmp/p/hp_c2247a.parv"
expect_rc 2 "$NCQSIM" import disksim "$tmp/p/hp_c2247a.parv"
err_has "hp_c2247a.diskspecs:1: expected ',' or '}' after a value, got 'disksim_disk' (in the file sourced at "
err_has "hp_c2247a.parv:107)"
cp "$ds/hp_c2247a/hp_c2247a.parv" "$tmp/p/"
sed -i 's/^   Model = source hp_c2247a_validate.model,/   Model = 3,/' "$tmp/p/hp_c2247a.diskspecs"
expect_rc 2 "$NCQSIM" import disksim "$tmp/p/hp_c2247a.parv"
err_has "hp_c2247a.diskspecs:2: key 'Model': expected a dm_disk block"
cp "$ds/hp_c2247a/hp_c2247a.diskspecs" "$tmp/p/"
sed -i 's/^instantiate \[ disk0 \].*//' "$tmp/p/hp_c2247a.parv"
expect_rc 2 "$NCQSIM" import disksim "$tmp/p/hp_c2247a.parv"
err_has "no disk: expected 'instantiate [ NAME ] as BLOCK'"
cp "$ds/hp_c2247a/hp_c2247a.parv" "$tmp/p/"
sed -i 's/Number of cylinders = 2051/Number of cylinders = many/' "$tmp/p/hp_c2247a_validate.model"
expect_rc 2 "$NCQSIM" import disksim "$tmp/p/hp_c2247a.parv"
err_has "hp_c2247a_validate.model:3: key 'Number of cylinders': expected an integer 2..100000000 (DiskSim reads this key as one), got 'many'"
cp "$ds/hp_c2247a/hp_c2247a_validate.model" "$tmp/p/"
# A seek curve file that says more rows than it has, and one with a bad row.
mkdir "$tmp/a"
cp "$ds/atlas_III/"* "$tmp/a/"
sed -i '$d' "$tmp/a/atlas_III.seek"
expect_rc 2 "$NCQSIM" import disksim "$tmp/a/atlas_III.parv"
err_has "atlas_III.seek: says 117 seek distances, has 116"
printf '7999 15.4\n' >>"$tmp/a/atlas_III.seek"
expect_rc 2 "$NCQSIM" import disksim "$tmp/a/atlas_III.parv"
err_has "atlas_III.seek:118: expected 'DISTANCE, MS'"
expect_rc 2 "$NCQSIM" import disksim
err_has "expected 'disksim FILE.parv'"
expect_rc 2 "$NCQSIM" import simdisk "$ds/atlas_III/atlas_III.parv"
err_has "expected 'disksim FILE.parv'"

# Broken traces: four fields, a bad direction, a request beyond the drive.
head -3 "$ds/dec_rz26/dec_rz26.trace" >"$tmp/t.trace"
echo "R Hit 547163 12" >>"$tmp/t.trace"
expect_rc 2 "$NCQSIM" validate "$tmp/t.trace" --drive "$tmp/dec_rz26.drive"
err_one_line
err_has "t.trace:4: expected 6 fields 'R|W LABEL LBN SECTORS MEASURED_US THINK_US', got 4"
echo "X Hit 547163 12 18228.0 100.0" >"$tmp/t.trace"
expect_rc 2 "$NCQSIM" validate "$tmp/t.trace" --drive "$tmp/dec_rz26.drive"
err_has "t.trace:1: field 1: expected R or W, got 'X'"
echo "R Hit 999999999 12 18228.0 100.0" >"$tmp/t.trace"
expect_rc 2 "$NCQSIM" validate "$tmp/t.trace" --drive "$tmp/dec_rz26.drive"
err_has "request 1: sectors 999999999..1000000010 are beyond the drive's 2050860"
: >"$tmp/t.trace"
expect_rc 2 "$NCQSIM" validate "$tmp/t.trace" --drive "$tmp/dec_rz26.drive"
err_has "no requests"
expect_rc 2 "$NCQSIM" validate "$ds/dec_rz26/dec_rz26.trace"
err_has "--drive NAME|FILE is required"
expect_rc 2 "$NCQSIM" validate "$ds/dec_rz26/dec_rz26.trace" --drive he8 --output-format=json+
err_one_line

# A fio latency log of a QD1 job (write_lat_log, log_offset=1): nanoseconds.
cat >"$tmp/qd1.fio" <<'JOB'
[qd1]
rw=randread
bs=4k
ioengine=psync
write_lat_log=qd1
log_offset=1
thinktime=1ms
JOB
printf '12, 8123456, 0, 4096, 1048576, 0\n25, 4000000, 0, 4096, 4096\n31, 9000000, 1, 8192, 81920\n' >"$tmp/qd1_lat.1.log"
expect_rc 0 "$NCQSIM" validate --fio-log "$tmp/qd1_lat.1.log" --job "$tmp/qd1.fio" --drive he8 \
	--output-format=json
out_has '"requests" : 3,'
out_has '"measured_mean_ms" : 7.041152,'
printf '12, 8123456, 0\n' >"$tmp/bad_lat.1.log"
expect_rc 2 "$NCQSIM" validate --fio-log "$tmp/bad_lat.1.log" --job "$tmp/qd1.fio" --drive he8
err_has "bad_lat.1.log:1: expected 'TIME_MS, LATENCY_NS, DDIR, BS, OFFSET'"
sed 's/log_offset=1/log_offset=0/' "$tmp/qd1.fio" >"$tmp/nooff.fio"
expect_rc 2 "$NCQSIM" validate --fio-log "$tmp/qd1_lat.1.log" --job "$tmp/nooff.fio" --drive he8
err_has "option 'log_offset': expected 1"
expect_rc 2 "$NCQSIM" validate --fio-log "$tmp/qd1_lat.1.log" --drive he8
err_has "--fio-log and --job go together"

# ncqsim's own latency log, replayed on the same drive: the NCQ path
# (disk.c) and validate's one-command service share the layout, seeks,
# rotation and overheads, so reads and write-through writes time the same
# to within the host's microseconds.
"$NCQSIM" drives he8 --file | sed 's/^write_cache = 1 /write_cache = 0 /' >"$tmp/he8wt.drive"
for rw in randread randwrite; do
	printf '[self]\nrw=%s\nbs=4k\nioengine=psync\ndirect=1\nruntime=10s\ntime_based=1\nwrite_lat_log=%s/self\nlog_offset=1\n' \
		"$rw" "$tmp" >"$tmp/self.fio"
	rm -f "$tmp"/self_*.log
	expect_rc 0 "$NCQSIM" run "$tmp/self.fio" --drive "$tmp/he8wt.drive" --quiet
	expect_rc 0 "$NCQSIM" validate --fio-log "$tmp/self_lat.1.log" --job "$tmp/self.fio" \
		--drive "$tmp/he8wt.drive" --output-format=json
	rms=$(grep -o '"rms_ms" *: *[0-9.e+-]*' "$tmp/out" | sed 's/.*: *//')
	checks=$((checks + 1))
	awk -v r="$rms" 'BEGIN { exit !(r < 0.05) }' || fail "$rw: ncqsim's own log replays with RMS $rms ms"
done
finish
