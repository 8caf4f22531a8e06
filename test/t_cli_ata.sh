# ncqsim identify and ncqsim ata: outputs, JSON, and clear errors.
. test/lib/sh.sh
id=$TESTDATA/identify

# The WDC Ultrastar from pt-tools: NCQ priority, QD 32, 7200 rpm, 4Kn.
expect_rc 0 "$NCQSIM" identify "$id/wdc-wsh722880aln604.bin"
out_has "Queue depth:                       32"
out_has "NCQ priority information (w76.12): yes"
out_has "Nominal Media Rotation Rate: 7200"
out_has "Logical  Sector size:    4096 bytes"
out_has "Checksum: correct"
expect_rc 0 "$NCQSIM" identify --output-format=json "$id/wdc-wsh722880aln604.hdparm.txt"
for kv in '"model" : "WDC  WSH722880ALN604"' '"serial" : "65GMN5GN"' '"firmware" : "LVGMWF10"' \
	'"sectors" : 6836191232' '"logical_sector_size" : 4096' '"physical_sector_size" : 4096' \
	'"rotation_rpm" : 7200' '"ncq" : true' '"queue_depth" : 32' '"ncq_prio" : true' \
	'"checksum" : "valid"'; do
	out_has "$kv"
done
expect_rc 0 "$NCQSIM" identify --output-format json "$id/INTEL_SSDSA2CW120G3--4PC10302.bin"
out_has '"rotation_rpm" : 1'
out_has '"ncq_prio" : false'
expect_rc 0 "$NCQSIM" identify --output-format=json "$id/Maxtor_96147H8--BAC51KJ0.bin"
out_has '"rotation_rpm" : 0'
out_has '"ncq" : false'
out_has '"queue_depth" : 1'

# A bad checksum: reported, warned about, still decoded, exit 0.
expect_rc 0 "$NCQSIM" identify "$id/hitachi-hua722010cla330-badsum.bin"
out_has "Checksum: BAD"
out_has "Hitachi HUA722010CLA330"
err_has "warning"
err_has "checksum is bad"

# Not an IDENTIFY page: one clear line, exit 2.
printf '' >"$tmp/empty"
expect_rc 2 "$NCQSIM" identify "$tmp/empty"
err_one_line
err_has "empty file"
head -c 300 "$id/wdc-wsh722880aln604.bin" >"$tmp/short.bin"
expect_rc 2 "$NCQSIM" identify "$tmp/short.bin"
err_one_line
err_has "300 bytes"
echo "this is not hex" >"$tmp/junk.txt"
expect_rc 2 "$NCQSIM" identify "$tmp/junk.txt"
err_has "no groups of 4 hex digits"
expect_rc 2 "$NCQSIM" identify "$tmp/does-not-exist"
err_has "cannot open"
expect_rc 2 "$NCQSIM" identify
expect_rc 2 "$NCQSIM" identify --output-format=xml "$id/wdc-wsh722880aln604.bin"
err_has "--output-format"
expect_rc 0 "$NCQSIM" identify --help
out_has "usage: ncqsim identify"

# ata encode: the example command, high priority.
expect_rc 0 "$NCQSIM" ata encode read-fpdma --lba 0x50dc13b8 --count 704 --tag 1 --prio high
out_has "27 80 60 c0 b8 13 dc 40 50 00 00 02 08 80 00 00 00 00 00 00"
out_has "cmd 60/c0:08:b8:13:dc/02:80:50:00:00/40 tag 1 ncq 360448 in"
expect_rc 0 "$NCQSIM" ata encode identify
out_has "85 08 0e 00 00 00 01 00 00 00 00 00 00 40 ec 00"
expect_rc 0 "$NCQSIM" ata encode write-fpdma --lba 8 --count 65536 --tag 31 --fua --cdl 7
out_has "tag 31 ncq 33554432 out"
expect_rc 0 "$NCQSIM" ata encode read-log --log 0x30 --page 8
out_has "cmd 2f/00:01:30:08:00/"

# Out-of-range fields are errors naming the field.
expect_rc 2 "$NCQSIM" ata encode read-fpdma --tag 32
err_one_line; err_has "'--tag'"
expect_rc 2 "$NCQSIM" ata encode read-fpdma --lba 281474976710656
err_has "'--lba'"
expect_rc 2 "$NCQSIM" ata encode read-fpdma --count 65537
err_has "'--count'"
expect_rc 2 "$NCQSIM" ata encode read-fpdma --count 0
err_has "'--count'"
expect_rc 2 "$NCQSIM" ata encode read-fpdma --cdl 8
err_has "'--cdl'"
expect_rc 2 "$NCQSIM" ata encode read-fpdma --prio urgent
err_has "'--prio'"
expect_rc 2 "$NCQSIM" ata encode read-dma --prio high
err_has "applies only to read-fpdma"
expect_rc 2 "$NCQSIM" ata encode frobnicate
err_has "unknown KIND"

# ata decode: H2D names every field; SDB lists the tags it completes.
expect_rc 0 "$NCQSIM" ata decode 27 80 60 c0 b8 13 dc 40 50 00 00 02 08 80 00 00 00 00 00 00
out_has "READ FPDMA QUEUED"
out_has "NCQ tag      1"
out_has "PRIO         high (10b)"
out_has "sectors      704 (360448 bytes)"
out_has "cmd 60/c0:08:b8:13:dc/02:80:50:00:00/40 tag 1 ncq 360448 in"
expect_rc 0 "$NCQSIM" ata decode "a1400000" "05000080"
out_has "completes    tag 0, tag 2, tag 31"
expect_rc 0 "$NCQSIM" ata decode 34 40 51 04 00 00 00 40 00 00 00 00 00 00 00 00 00 00 00 00
out_has "Register D2H FIS"
out_has "(ABRT)"
expect_rc 2 "$NCQSIM" ata decode 27 80 60
err_one_line; err_has "20 bytes, got 3"
expect_rc 2 "$NCQSIM" ata decode 99 00
err_has "not a FIS type"
expect_rc 2 "$NCQSIM" ata decode zz
err_has "not a hex digit"
expect_rc 2 "$NCQSIM" ata decode 2
err_has "odd number"
expect_rc 2 "$NCQSIM" ata decode
expect_rc 2 "$NCQSIM" ata

finish
