# ncqsim probe: refuses what is not a whole disk, clearly; reads real drives'
# recorded IDENTIFY pages (test/data/identify) through the same code path as
# a device (the replay transport) and prints a drive-file skeleton that,
# once the keys marked "to be measured" are filled in, loads as a drive.
. test/lib/sh.sh
id=$TESTDATA/identify

# Not a disk: one line naming why, exit 2.
expect_rc 2 "$NCQSIM" probe /dev/null
err_one_line
err_has "/dev/null: not a block device or an sg node (a character device, 1:3)"
expect_rc 2 "$NCQSIM" probe "$id/wdc-wsh722880aln604.bin"
err_has "not a block device or an sg node (a regular file)"
err_has "--replay"
expect_rc 2 "$NCQSIM" probe "$tmp"
err_has "(a directory)"
expect_rc 2 "$NCQSIM" probe "$tmp/missing"
err_has "No such file or directory"
expect_rc 2 "$NCQSIM" probe
err_has "expected one DEVICE, got 0 arguments"
expect_rc 2 "$NCQSIM" probe /dev/sda /dev/sdb
err_has "got 2 arguments"
expect_rc 2 "$NCQSIM" probe --bogus
err_has "unknown option '--bogus'"
expect_rc 2 "$NCQSIM" probe --replay "$tmp/missing"
err_one_line
printf 'not an identify page\n' >"$tmp/junk"
expect_rc 2 "$NCQSIM" probe --replay "$tmp/junk"
err_has "not an IDENTIFY DEVICE page"

# Without root, a clear "permission denied" that says what it takes (run
# only where a block device and setpriv are at hand, as root).
dev=$(for d in /dev/loop0 /dev/sda /dev/vda; do [ -b "$d" ] && echo "$d" && break; done)
if [ "$(id -u)" -eq 0 ] && [ -n "$dev" ] && command -v setpriv >/dev/null; then
	expect_rc 1 setpriv --reuid=65534 --regid=65534 --clear-groups "$NCQSIM" probe "$dev"
	err_one_line
	err_has "$dev: permission denied"
	err_has "sudo ncqsim probe $dev"
fi

# check_key FILE KEY VALUE: the skeleton fills KEY with VALUE.
check_key() {
	checks=$((checks + 1))
	grep -qE "^$2 = $3( |\$)" "$1" || fail "$(basename "$1"): expected '$2 = $3', got: $(grep -E "^#?$2 =" "$1")"
}
# check_tbd FILE KEY: KEY is commented out, to be measured.
check_tbd() {
	checks=$((checks + 1))
	grep -qE "^#$2 = +# to be measured" "$1" || fail "$(basename "$1"): '$2' should be to be measured"
}

# Real drives. The WDC Ultrastar (pt-tools): 4Kn, NCQ priority, 7200 rpm.
expect_rc 0 "$NCQSIM" probe --replay "$id/wdc-wsh722880aln604.bin"
cp "$tmp/out" "$tmp/wdc.drive"
for kv in "name wdc-wsh722880aln604" "model WDC  WSH722880ALN604" "serial 65GMN5GN" \
	"firmware LVGMWF10" "sectors 6836191232" "logical_sector_size 4096" \
	"physical_sector_size 4096" "ncq 1" "queue_depth 32" "ncq_prio 1" "sata_gen 3" \
	"rpm 7200" "interface_mbs 600" "trim 0"; do
	check_key "$tmp/wdc.drive" $kv
done
# An SSD says it has DSM TRIM (word 169 bit 0), which the skeleton keeps.
expect_rc 0 "$NCQSIM" probe --replay "$id/INTEL_SSDSA2CW120G3--4PC10302.bin"
cp "$tmp/out" "$tmp/intel.drive"
check_key "$tmp/intel.drive" trim 1
check_tbd "$tmp/intel.drive" trim_time
# An IDENTIFY page alone says nothing about the logs: not guessed.
for k in ncq_prio_log id_data_log heads seek_avg_read fw_sched cache_size; do
	check_tbd "$tmp/wdc.drive" "$k"
done
out_has "not recorded (an IDENTIFY page alone was replayed)"
# The same page kept as hdparm --Istdout text decodes the same.
expect_rc 0 "$NCQSIM" probe --replay "$id/wdc-wsh722880aln604.hdparm.txt"
sed 1d "$tmp/out" >"$tmp/a"
sed 1d "$tmp/wdc.drive" >"$tmp/b"
checks=$((checks + 1))
cmp -s "$tmp/a" "$tmp/b" || fail "the hdparm text form of the WDC page gives another skeleton"

# Hitachi Deskstar: 512-byte sectors, NCQ priority, 7200 rpm, SATA 3 Gb/s.
expect_rc 0 "$NCQSIM" probe --replay "$id/hitachi-hde721010sla330.bin"
cp "$tmp/out" "$tmp/hitachi.drive"
for kv in "model Hitachi HDE721010SLA330" "sectors 1953525168" "logical_sector_size 512" \
	"queue_depth 32" "ncq_prio 1" "rpm 7200"; do
	check_key "$tmp/hitachi.drive" $kv
done
# Samsung HD501LJ: NCQ without priority; no rotation rate in word 217.
expect_rc 0 "$NCQSIM" probe --replay "$id/SAMSUNG_HD501LJ--CR100-12.bin"
cp "$tmp/out" "$tmp/samsung.drive"
for kv in "sectors 976773168" "ncq 1" "queue_depth 32" "ncq_prio 0"; do
	check_key "$tmp/samsung.drive" $kv
done
check_tbd "$tmp/samsung.drive" rpm
# Maxtor 96147H8: parallel ATA, no NCQ: queue depth 1.
expect_rc 0 "$NCQSIM" probe --replay "$id/Maxtor_96147H8--BAC51KJ0.bin"
cp "$tmp/out" "$tmp/maxtor.drive"
for kv in "ncq 0" "queue_depth 1" "ncq_prio 0" "sectors 120060864"; do
	check_key "$tmp/maxtor.drive" $kv
done
# An SSD is said to be one.
expect_rc 0 "$NCQSIM" probe --replay "$id/INTEL_SSDSA2CW120G3--4PC10302.bin"
out_has "non-rotating media (a solid-state drive)"
# A bad checksum: warned about, decoded anyway.
expect_rc 0 "$NCQSIM" probe --replay "$id/hitachi-hua722010cla330-badsum.bin"
err_has "checksum is bad"
out_has "# IDENTIFY checksum: BAD"

# A drive that refuses READ LOG EXT has no CDL: the skeleton says so, with why.
mkdir "$tmp/nolog"
cp "$id/wdc-wsh722880aln604.bin" "$tmp/nolog/identify"
expect_rc 0 "$NCQSIM" probe --replay "$tmp/nolog"
out_has "no IDENTIFY DEVICE data log (30h): no CDL"
out_has "cdl_t2a = none"

# Filled in (here with the he8's figures for what is to be measured), the
# skeleton loads as a drive: probe writes a drive file, not something like one.
"$NCQSIM" drives he8 --file >"$tmp/he8.drive"
for f in wdc hitachi samsung; do
	awk -v ref="$tmp/he8.drive" '
		BEGIN { while ((getline l < ref) > 0) if (l !~ /^#/) { k = l; sub(/ .*/, "", k); v[k] = l } }
		/^#[a-z0-9_]+ =/ { k = substr($1, 2); if (k in v) { print v[k]; next } }
		{ print }' "$tmp/$f.drive" >"$tmp/$f.filled.drive"
	expect_rc 0 "$NCQSIM" drives "$tmp/$f.filled.drive"
	expect_rc 0 "$NCQSIM" knobs --drive "$tmp/$f.filled.drive"
done
# Unfilled, it is refused by the first missing key.
expect_rc 2 "$NCQSIM" drives "$tmp/wdc.drive"
err_has "key 'ncq_prio_log' is missing"
finish
