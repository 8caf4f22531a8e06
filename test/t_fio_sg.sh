# fio's sg engine, the one whose options readfua, writefua and
# sg_write_mode are (fio 3.33 has them nowhere else). On a block device
# each I/O is a SCSI command through the SG_IO ioctl, which waits for it:
# READ/WRITE(10), which libata translates, FUA bit included, into
# READ/WRITE FPDMA QUEUED (the drive reads a FUA read from the media and
# writes a FUA write through); VERIFY, which becomes READ VERIFY SECTORS;
# WRITE AND VERIFY, WRITE SAME and WRITE STREAM, which libata refuses. On
# the sg node (/dev/sgN) fio write()s each command and reaps later: iodepth
# in flight. fio 3.33's option and value lists are checked where fio is
# installed; the outcomes follow fio's engines/sg.c and the kernel's
# libata-scsi.c, sg.c and block layer (no SCSI device here to run fio's sg
# engine on: a loop device has no SG_IO).
. test/lib/sh.sh
cd "$tmp" || exit 1

check_fio "fio's code only"

# sg RW LINES...: a 64 KiB sequential job of 4 KiB I/Os on the sg engine
sg() {
	local rw=$1
	shift
	{ printf '[s]\nfilename=/dev/sda\nioengine=sg\nrw=%s\nbs=4k\nsize=64k\n' "$rw"
		printf '%s\n' "$@"; } >s.fio
}
# key NAME: the first value of a JSON key in the last run's stdout
key() { grep -m1 "\"$1\" :" "$tmp/out" | tr -dc 0-9; }

# fio 3.33's sg options: the ones ncqsim takes; sg_write_mode's values,
# each of which ncqsim takes.
modes="write write_and_verify verify write_same same write_same_ndob verify_bytchk_00 verify_bytchk_01 verify_bytchk_11 write_stream"
if [ -n "$fio_ok" ]; then
	checks=$((checks + 2))
	[ "$("$fio" --enghelp=sg | awk '{ print $1 }' | paste -sd ' ')" = \
		"hipri readfua writefua sg_write_mode stream_id" ] ||
		fail "fio --enghelp=sg: $("$fio" --enghelp=sg | paste -sd ' ')"
	got=$("$fio" --enghelp=sg,sg_write_mode | sed -n 's/^ *\(valid values\)\{0,1\}: *\([a-z_0-9]*\) .*/\2/p' | paste -sd ' ')
	[ "$got" = "$modes" ] || fail "fio's sg_write_mode values: $got"
fi

# readfua: every read reaches the media (fio: cdb[1] |= 0x08; libata: the
# FPDMA command's DEVICE bit 7), where without it the read-ahead serves 14
# of the 16.
sg read readfua=1
expect_rc 0 "$NCQSIM" run --output-format=json s.fio
checks=$((checks + 1))
[ "$(key fua_reads)" = 16 ] && [ "$(key cache_hits)" = 0 ] && [ "$(key media_reads)" = 16 ] ||
	fail "readfua: fua_reads $(key fua_reads), cache_hits $(key cache_hits)"
expect_rc 0 "$NCQSIM" run --debug=ata s.fio
checks=$((checks + 1))
[ "$(grep -c 'issue cmd 60/08:[0-9a-f]*:[0-9a-f:]*/00:00:00:00:00/c0 tag [0-9]* ncq 4096 in' "$tmp/err")" = 16 ] ||
	fail "readfua: no READ FPDMA QUEUED with FUA ($(grep -m1 'issue cmd 60' "$tmp/err"))"
sg read readfua=0
expect_rc 0 "$NCQSIM" run --output-format=json s.fio
checks=$((checks + 1))
[ "$(key fua_reads)" = 0 ] && [ "$(key cache_hits)" -gt 10 ] ||
	fail "readfua=0: fua_reads $(key fua_reads), cache_hits $(key cache_hits)"

# writefua: written through, none cached, whatever libata.fua (a CDB's FUA
# goes to the drive on every kernel); without it the write cache takes them.
for k in 4.10 6.12; do
	sg write writefua=1
	expect_rc 0 "$NCQSIM" run --set kernel=$k --output-format=json s.fio
	checks=$((checks + 1))
	[ "$(key fua_writes)" = 16 ] && [ "$(key write_cached)" = 0 ] && [ "$(key media_writes)" = 16 ] ||
		fail "writefua on $k: fua_writes $(key fua_writes), write_cached $(key write_cached)"
done
sg write
expect_rc 0 "$NCQSIM" run --output-format=json s.fio
checks=$((checks + 1))
[ "$(key fua_writes)" = 0 ] && [ "$(key write_cached)" = 16 ] ||
	fail "writefua=0: write_cached $(key write_cached)"

# Without NCQ (queue depth 1): ATA has no FUA read, so libata refuses the
# CDB (ILLEGAL REQUEST) and fio's sg engine fails the I/O with EIO at
# fio_sgio_doio(); a FUA write at a 28-bit LBA the same before 6.3, WRITE
# DMA FUA EXT (3Dh) from then on.
sg read readfua=1
expect_rc 1 "$NCQSIM" run --set device/queue_depth=1 s.fio
out_has "s: (groupid=0, jobs=1): err= 5 (file:engines/sg.c, func=fio_sgio_doio, error=Input/output error)"
out_has "     issued rwts: total=1,0,0,0 "
err_has "fio: pid=1, err=5/file:engines/sg.c, func=fio_sgio_doio, error=Input/output error"
sg write writefua=1
expect_rc 1 "$NCQSIM" run --set device/queue_depth=1 --set kernel=6.1 s.fio
out_has "err= 5 (file:engines/sg.c, func=fio_sgio_doio"
expect_rc 0 "$NCQSIM" run --set device/queue_depth=1 --set kernel=6.12 --debug=ata s.fio
checks=$((checks + 1))
[ "$(grep -c 'issue cmd 3d/00:08:' "$tmp/err")" = 16 ] ||
	fail "writefua without NCQ on 6.12: $(grep -m1 'issue cmd' "$tmp/err")"

# fio's sg trims are UNMAP, which libata does not translate: EIO at once;
# SG_IO refuses a transfer over max_hw_sectors_kb (32767): EIO from the
# ioctl, which fio's sg engine reports at xfer.
sg trim
expect_rc 1 "$NCQSIM" run --set drive.trim=1 s.fio
out_has "err= 5 (file:engines/sg.c, func=fio_sgio_doio, error=Input/output error)"
out_has "     issued rwts: total=0,0,1,0 "
printf '[s]\nioengine=sg\nrw=read\nbs=64m\nsize=128m\n' >s.fio
expect_rc 1 "$NCQSIM" run s.fio
out_has "err= 5 (file:engines/sg.c, func=xfer, error=Input/output error)"

# fsync: SYNCHRONIZE CACHE through SG_IO, a FLUSH CACHE EXT each time; and
# no merging: 4 KiB writes stay 4 KiB requests.
sg write fsync=4
expect_rc 0 "$NCQSIM" run --output-format=json s.fio
checks=$((checks + 1))
[ "$(key flushes)" = 4 ] && [ "$(key merged)" = 0 ] || fail "sg fsync=4: flushes $(key flushes), merged $(key merged)"

# Passthrough requests skip the scheduler on blk-mq (the dispatch list),
# where 4.10's legacy queue first drains the elevator: beside a libaio job
# at depth 32 whose requests the scheduler holds (device queue depth 4),
# the sg job's reads wait far longer on 4.10.
printf '[global]\nruntime=5\ntime_based\nbs=4k\nrw=randread\n[r]\nioengine=libaio\niodepth=32\n[s]\nioengine=sg\n' >mix.fio
mean() {
	"$NCQSIM" run --set kernel="$1" --set device/queue_depth=4 --output-format=json mix.fio |
		awk '/"jobname" : "s"/ { s = 1 } s && /"clat_ns" : \{/ { c = 1 } s && c && /"mean" : / { print int($3 / 1000000); exit }'
}
old=$(mean 4.10) new=$(mean 6.12)
checks=$((checks + 1))
[ -n "$old" ] && [ -n "$new" ] && [ "$new" -gt 0 ] && [ "$old" -gt $((2 * new)) ] ||
	fail "sg beside a deep queue: clat mean $old ms on 4.10, $new ms on 6.12"
# The sg node's requests go in at the head (sg_common_write(): at_head
# without SG_FLAG_Q_AT_TAIL): on 4.10 at the front of the queue, nothing
# drained, so the same job waits far less than through SG_IO.
sed 's|^\[s\]|[s]\nfilename=/dev/sg0|' mix.fio >mixn.fio
node_old=$("$NCQSIM" run --set kernel=4.10 --set device/queue_depth=4 --output-format=json mixn.fio |
	awk '/"jobname" : "s"/ { s = 1 } s && /"clat_ns" : \{/ { c = 1 } s && c && /"mean" : / { print int($3 / 1000000); exit }')
checks=$((checks + 1))
[ -n "$node_old" ] && [ "$node_old" -gt 0 ] && [ "$old" -gt $((2 * node_old)) ] ||
	fail "the sg node beside a deep queue on 4.10: clat mean $node_old ms, SG_IO's $old ms"

# sg_write_mode: the CDB fio_sgio_prep() builds for each write, and what
# libata makes of it on a SATA disk. VERIFY(10) (BYTCHK 00b, 01b or 11b:
# libata's ata_scsi_verify_xlat() ignores BYTCHK and any data-out buffer)
# is READ VERIFY SECTORS (40h), non-data: the drive reads by its read rules
# (2 media reads, 14 read-ahead hits), writes nothing, sends nothing; fio
# counts 16 writes of 4 KiB done.
for m in verify_bytchk_00 verify_bytchk_01 verify_bytchk_11; do
	sg write sg_write_mode=$m
	expect_rc 0 "$NCQSIM" run --output-format=json s.fio
	checks=$((checks + 1))
	[ "$(key verify_commands)" = 16 ] && [ "$(key verifies)" = 16 ] &&
		[ "$(key media_reads)" = 2 ] && [ "$(key cache_hits)" = 14 ] &&
		[ "$(key media_writes)" = 0 ] && [ "$(key write_cached)" = 0 ] &&
		[ "$(key ncq_commands)" = 0 ] && [ "$(key illegal_requests)" = 0 ] ||
		fail "$m: verify_commands $(key verify_commands), verifies $(key verifies), media_reads $(key media_reads), cache_hits $(key cache_hits), media_writes $(key media_writes)"
	expect_rc 0 "$NCQSIM" run --debug=ata s.fio
	out_has "     issued rwts: total=0,16,0,0 "
	out_has "io=64.0KiB"
	checks=$((checks + 1))
	[ "$(grep -c 'issue cmd 40/00:08:[0-9a-f:]*/00:00:00:00:00/40 tag [0-9]* nodata$' "$tmp/err")" = 16 ] ||
		fail "$m: no READ VERIFY SECTORS ($(grep -m1 'issue cmd [^e]' "$tmp/err"))"
done
# Reads stay READ(10): beside the VERIFYs, READ FPDMA QUEUED.
sg randrw sg_write_mode=verify_bytchk_00
expect_rc 0 "$NCQSIM" run --output-format=json s.fio
checks=$((checks + 1))
[ "$(key verify_commands)" -gt 0 ] && [ "$(key ncq_commands)" -gt 0 ] &&
	[ $(($(key verify_commands) + $(key ncq_commands))) = 16 ] ||
	fail "randrw verify_bytchk_00: verify_commands $(key verify_commands), ncq_commands $(key ncq_commands)"
# A VERIFY(10) counts 16 bits of blocks (fio's sgio_set_be16()): 48 MiB is
# 98304 sectors, cut to 32768: READ VERIFY SECTORS EXT (42h) of 32768; and
# 64 MiB's 131072 to 0, which libata does without a command (nothing_to_do).
# BYTCHK 01b sends the I/O's data, over max_hw_sectors_kb: EIO from SG_IO.
printf '[s]\nioengine=sg\nrw=write\nbs=48m\nsize=48m\nsg_write_mode=verify_bytchk_00\n' >s.fio
expect_rc 0 "$NCQSIM" run --debug=ata s.fio
err_has "issue cmd 42/00:00:00:00:00/00:80:00:00:00/40 tag 0 nodata"
printf '[s]\nioengine=sg\nrw=write\nbs=64m\nsize=128m\nsg_write_mode=verify_bytchk_11\n' >s.fio
expect_rc 0 "$NCQSIM" run --output-format=json s.fio
checks=$((checks + 1))
[ "$(key verify_commands)" = 0 ] && [ "$(key verifies)" = 0 ] && [ "$(key error)" = 0 ] ||
	fail "a VERIFY(10) of 0 blocks: verify_commands $(key verify_commands), error $(key error)"
printf '[s]\nioengine=sg\nrw=write\nbs=64m\nsize=128m\nsg_write_mode=verify_bytchk_01\n' >s.fio
expect_rc 1 "$NCQSIM" run s.fio
out_has "err= 5 (file:engines/sg.c, func=xfer, error=Input/output error)"

# The others reach no drive: WRITE AND VERIFY (2Eh), WRITE SAME(10) (41h)
# and WRITE STREAM(16) (9Ah) have no translation (ata_get_xlat_func():
# ata_scsi_simulate() answers invalid opcode), WRITE SAME(16) with NDOB
# fails ata_scsi_write_same_xlat() (no UNMAP; where it checks
# blk_rq_is_passthrough(), none through SG_IO at all): CHECK CONDITION,
# ILLEGAL REQUEST, and fio's first write
# ends the job with EIO at fio_sgio_doio(). The same on every kernel.
for m in write_and_verify verify write_same same write_same_ndob 'write_stream|stream_id=3'; do
	IFS='|' read -r mode extra <<<"$m"
	for k in 4.10 6.12; do
		sg write sg_write_mode=$mode $extra
		expect_rc 1 "$NCQSIM" run --set kernel=$k --debug=ata s.fio
		out_has "s: (groupid=0, jobs=1): err= 5 (file:engines/sg.c, func=fio_sgio_doio, error=Input/output error)"
		out_has "     issued rwts: total=0,1,0,0 "
		err_has "fio: pid=1, err=5/file:engines/sg.c, func=fio_sgio_doio, error=Input/output error"
		err_has "SCSI command lba 0 +8: no ATA command (ILLEGAL REQUEST)"
		checks=$((checks + 1))
		! grep -q 'issue cmd [^e4]' "$tmp/err" || fail "$m on $k: a command reached the drive: $(grep -m1 'issue cmd [^e4]' "$tmp/err")"
	done
	expect_rc 1 "$NCQSIM" run --output-format=json s.fio
	checks=$((checks + 1))
	[ "$(key illegal_requests)" = 1 ] && [ "$(key ncq_commands)" = 0 ] &&
		[ "$(key dma_ext_commands)" = 0 ] && [ "$(key verify_commands)" = 0 ] &&
		[ "$(key media_writes)" = 0 ] ||
		fail "$m: illegal_requests $(key illegal_requests), ncq_commands $(key ncq_commands), dma_ext_commands $(key dma_ext_commands)"
done
# WRITE AND VERIFY sends the I/O's data, so over max_hw_sectors_kb SG_IO
# fails first; WRITE SAME sends one block, so it reaches libata.
printf '[s]\nioengine=sg\nrw=write\nbs=64m\nsize=64m\nsg_write_mode=write_and_verify\n' >s.fio
expect_rc 1 "$NCQSIM" run s.fio
out_has "err= 5 (file:engines/sg.c, func=xfer, error=Input/output error)"
printf '[s]\nioengine=sg\nrw=write\nbs=64m\nsize=64m\nsg_write_mode=write_same\n' >s.fio
expect_rc 1 "$NCQSIM" run s.fio
out_has "err= 5 (file:engines/sg.c, func=fio_sgio_doio, error=Input/output error)"

# What is refused names the file, line and option: the sg engine's options
# elsewhere (fio 3.33: Bad option), write modes not built, the sg driver's
# character device.
for c in 'psync|readfua=1|option '"'"'readfua'"'"' is an option of the sg engine, not of '"'"'psync'"'"'' \
	'libaio|writefua=1|option '"'"'writefua'"'"' is an option of the sg engine, not of '"'"'libaio'"'"'' \
	'sg|sg_write_mode=bogus|option '"'"'sg_write_mode'"'"': expected one of write, write_and_verify, verify, write_same, same, write_same_ndob, verify_bytchk_00, verify_bytchk_01, verify_bytchk_11, write_stream, got '"'"'bogus'"'"'' \
	'sg|sg_write_mode=|option '"'"'sg_write_mode'"'"': expected one of write' \
	'sg|stream_id=65536|option '"'"'stream_id'"'"''; do
	IFS='|' read -r engine line want <<<"$c"
	printf '[x]\nrw=read\nsize=64k\nioengine=%s\n%s\n' "$engine" "$line" >j.fio
	expect_rc 2 "$NCQSIM" run j.fio
	err_one_line
	err_has "j.fio:5: $want"
done
# write_stream without stream_id: fio opens a stream first (STREAM
# CONTROL), which libata refuses, and fio's file setup fails with no
# error to show; a VERIFY writes nothing for verify= to read back.
printf '[x]\nioengine=sg\nrw=write\nsize=64k\nsg_write_mode=write_stream\n' >j.fio
expect_rc 2 "$NCQSIM" run j.fio
err_one_line
err_has "j.fio:1: job 'x': option 'sg_write_mode': write_stream without stream_id"
printf '[x]\nioengine=sg\nrw=write\nsize=64k\nsg_write_mode=verify_bytchk_01\nverify=crc32c\n' >j.fio
expect_rc 2 "$NCQSIM" run j.fio
err_one_line
err_has "j.fio:1: job 'x': option 'verify': not with sg_write_mode=verify_*"

# The sg node, filename=/dev/sgN (any N: the simulated disk's, as any
# /dev/sdX names its block device). Without direct or sync (fio's default)
# fio_sgio_queue() write()s each sg header and returns: iodepth in flight,
# each write() a submit of one; fio_sgio_getevents() read()s headers back.
# A character device: fio keeps no disk stats for it (get_device_numbers()).
node() {
	{ printf '[s]\nfilename=/dev/sg%s\nioengine=sg\nrw=randread\nbs=4k\nsize=64m\nio_size=1m\n' "$1"
		shift
		printf '%s\n' "$@"; } >n.fio
}
node 0 iodepth=8
expect_rc 0 "$NCQSIM" run n.fio
out_has "  IO depths    : 1=0.4%, 2=0.8%, 4=1.6%, 8=97.3%, 16=0.0%, 32=0.0%, >=64=0.0%"
out_has "     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%"
out_has "     issued rwts: total=256,0,0,0 "
checks=$((checks + 1))
! grep -q "Disk stats" "$tmp/out" || fail "the sg node has disk stats: $(grep -A1 'Disk stats' "$tmp/out")"
node_iops=$(grep -m1 -o 'IOPS=[0-9]*' "$tmp/out" | tr -dc 0-9)
expect_rc 0 "$NCQSIM" run --output-format=json n.fio
checks=$((checks + 1))
! grep -q '"disk_util"' "$tmp/out" && [ "$(key ncq_commands)" = 256 ] ||
	fail "sg node JSON: disk_util $(grep -c '"disk_util"' "$tmp/out"), ncq_commands $(key ncq_commands)"
# The same job on the block device: SG_IO, one at a time, slower.
sed 's|/dev/sg0|/dev/sda|' n.fio >b.fio
expect_rc 0 "$NCQSIM" run b.fio
out_has "  IO depths    : 1=100.0%"
out_has "Disk stats (read/write):"
checks=$((checks + 1))
block_iops=$(grep -m1 -o 'IOPS=[0-9]*' "$tmp/out" | tr -dc 0-9)
[ -n "$node_iops" ] && [ -n "$block_iops" ] && [ "$node_iops" -gt $((block_iops * 2)) ] ||
	fail "sg node at depth 8: $node_iops IOPS, the block device's SG_IO $block_iops"
# direct=1 (or sync): write() then read() of each header, one at a time.
node 3 iodepth=8 direct=1
expect_rc 0 "$NCQSIM" run n.fio
out_has "  IO depths    : 1=100.0%"
checks=$((checks + 1))
! grep -q "slat" "$tmp/out" || fail "sg node with direct=1 has slat"
# getevents reads until it has `max` headers, each read waiting for one:
# with iodepth_batch_complete_max=8 the sg node reaps as libaio does with
# iodepth_batch_complete_min=8 too (libaio with max alone: what is there).
node 0 iodepth=16 iodepth_batch_complete_max=8
expect_rc 0 "$NCQSIM" run n.fio
grep -E '^  IO depths|^     complete' "$tmp/out" >node.hist
sed 's|ioengine=sg|ioengine=libaio|; s|/dev/sg0|/dev/sda|' n.fio >l.fio
echo iodepth_batch_complete_min=8 >>l.fio
expect_rc 0 "$NCQSIM" run l.fio
checks=$((checks + 1))
[ "$(grep -E '^  IO depths|^     complete' "$tmp/out")" = "$(cat node.hist)" ] &&
	grep -q '     complete  : 0=0.0%, 4=[0-9.]*%, 8=[5-9][0-9]' node.hist ||
	fail "the sg node's reaps: $(cat node.hist); libaio min=max=8: $(grep -E 'complete  :' "$tmp/out")"
sed -i '$d' l.fio
expect_rc 0 "$NCQSIM" run l.fio
checks=$((checks + 1))
grep -q "     complete  : 0=0.0%, 4=100.0%" "$tmp/out" ||
	fail "libaio with max alone: $(grep 'complete  :' "$tmp/out")"
# The sg driver queues 16 commands per open file not yet read back
# (SG_MAX_QUEUE); the 17th write() fails with EDOM and fio ends the job.
node 0 iodepth=32
expect_rc 1 "$NCQSIM" run n.fio
out_has "s: (groupid=0, jobs=1): err=33 (file:engines/sg.c, func=xfer, error=Numerical argument out of domain)"
out_has "     issued rwts: total=17,0,0,0 "
err_has "fio: pid=1, err=33/file:engines/sg.c, func=xfer, error=Numerical argument out of domain"
# A failed command: async, fio learns of it when it reaps (io_u error);
# with direct=1 at once in fio_sgio_rw_doio(). The same VERIFY as through
# SG_IO. A buffer over max_hw_sectors_kb: the sg driver's mapping fails
# with EINVAL (blk_rq_map_user_iov()).
node 0 iodepth=4 rw=write sg_write_mode=write_same
expect_rc 1 "$NCQSIM" run n.fio
out_has "err= 5 (file:io_u.c, func=io_u error, error=Input/output error)"
node 0 iodepth=4 rw=write sg_write_mode=write_same direct=1
expect_rc 1 "$NCQSIM" run n.fio
out_has "err= 5 (file:engines/sg.c, func=fio_sgio_doio, error=Input/output error)"
node 0 iodepth=4 rw=write sg_write_mode=verify_bytchk_00
expect_rc 0 "$NCQSIM" run --output-format=json n.fio
checks=$((checks + 1))
[ "$(key verify_commands)" = 256 ] && [ "$(key media_writes)" = 0 ] ||
	fail "VERIFY on the sg node: verify_commands $(key verify_commands)"
node 0 bs=64m size=64m io_size=64m
expect_rc 1 "$NCQSIM" run n.fio
out_has "err=22 (file:engines/sg.c, func=xfer, error=Invalid argument)"
# Trims on the sg node: fio gathers them into an UNMAP per commit, not
# modelled (and refused by libata either way).
node 0 rw=randtrim
expect_rc 2 "$NCQSIM" run n.fio
err_one_line
err_has "n.fio:1: job 's': option 'rw': trims on the sg node '/dev/sg0'"
finish
