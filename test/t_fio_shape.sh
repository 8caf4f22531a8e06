# fio's I/O-shaping options against fio 3.33: percentage_random,
# bs_is_seq_rand, fill_device (and fio's random map with directions of
# different block sizes). Where fio draws at random, what is compared is
# the shape of the I/Os (test/lib/io-shape.awk over write_iolog files),
# within bands fio's own runs fall in; where fio is installed its runs are
# checked against the same bands (a sparse file as large as the drive
# stands for it). Each figure fio 3.33 gave is in a comment.
. test/lib/sh.sh
dir=$TESTDATA/fio-shape
shape="$(dirname "$TESTDATA")/lib/io-shape.awk"
cd "$tmp" || exit 1

check_fio "fio's figures only"
# The 8 GiB drive of the jobs at the drive's end (he8 with fewer sectors).
small="--set drive.sectors=16777216"
truncate -s 8g "$tmp/dev8g"

# ours FILE S A [SEED [ARGS]]: the shape of ncqsim's I/Os for FILE (a
# failed run's message instead, which no check accepts)
ours() {
	rm -f "$tmp/ours.log"
	{ cat "$1"; echo "write_iolog=$tmp/ours.log"; } >"$tmp/ours.fio"
	# shellcheck disable=SC2086
	if ! "$NCQSIM" run --seed "${4:-1}" $5 "$tmp/ours.fio" >/dev/null 2>"$tmp/err"; then
		echo "failed: $(head -c 200 "$tmp/err")"
		return
	fi
	awk -v S="$2" -v A="$3" -f "$shape" "$tmp/ours.log"
}
# theirs FILE S A: the same for fio on the sparse 8 GiB file
theirs() {
	rm -f "$tmp/fio.log"
	{ cat "$1"; echo "write_iolog=$tmp/fio.log"; } >"$tmp/fio.fio"
	"$fio" --ioengine=psync --filename="$tmp/dev8g" "$tmp/fio.fio" >/dev/null 2>&1
	awk -v S="$2" -v A="$3" -f "$shape" "$tmp/fio.log"
}
# field SHAPE DIR K: the K-th figure (1 N, 2 FOLLOW, 3 SIZED, 4 ALIGNED) of DIR; "end" 1: the end
field() {
	echo "$1" | awk -v d="$2" -v k="$3" '{ for (i = 1; i <= NF; i++) if ($i == d) print $(i + k) }'
}
# within WHAT VALUE LO HI
within() {
	checks=$((checks + 1))
	[ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || fail "$1: '$2', expected $3..$4"
}

# percentage_random=30 over 4 MiB: 70 % of the reads continue the last one
# (fio 3.33: 69 %, 1024 reads). The sequential share does not mark the
# random map, and a pass is over once it reaches the region's end: a run
# does 4 MiB, or ends with a read ending at 4 MiB (fio's runs of 1024 and
# 690 reads).
full=0 early=0
for seed in 1 2 3 4 5 6; do
	s=$(ours "$dir/perc_rand.fio" 4096 4096 "$seed")
	n=$(field "$s" read 1)
	[ "$n" -gt 200 ] && within "perc_rand seed $seed: follow-on %" "$(field "$s" read 2)" 62 78
	checks=$((checks + 1))
	if [ "$n" = 1024 ]; then
		full=$((full + 1))
	elif [ "$(field "$s" end 1)" = 4194304 ]; then
		early=$((early + 1))
	else
		fail "perc_rand seed $seed: $n reads, the last ending at $(field "$s" end 1)"
	fi
done
checks=$((checks + 1))
[ "$full" -gt 0 ] && [ "$early" -gt 0 ] || fail "perc_rand: $full full runs, $early ended at the region's end"
if [ -n "$fio_ok" ]; then
	s=$(theirs "$dir/perc_rand.fio" 4096 4096)
	within "fio perc_rand follow-on %" "$(field "$s" read 2)" 62 78
	checks=$((checks + 1))
	[ "$(field "$s" read 1)" = 1024 ] || [ "$(field "$s" end 1)" = 4194304 ] ||
		fail "fio perc_rand: $s"
fi
# At the drive's end the sequential share takes a random offset instead:
# every run does its 4 MiB (fio: 1024 reads, 69 % following on).
for seed in 1 2 3; do
	s=$(ours "$dir/perc_rand_end.fio" 4096 4096 "$seed" "$small")
	within "perc_rand_end seed $seed: reads" "$(field "$s" read 1)" 1024 1024
done
if [ -n "$fio_ok" ]; then
	s=$(theirs "$dir/perc_rand_end.fio" 4096 4096)
	within "fio perc_rand_end: reads" "$(field "$s" read 1)" 1024 1024
fi
# Per direction: reads all random, writes all sequential (fio: 0 % and 100 %).
for who in ours theirs; do
	[ $who = theirs ] && [ -z "$fio_ok" ] && continue
	s=$($who "$dir/perc_rand_dirs.fio" 4096 4096)
	within "$who perc_rand_dirs: reads following on %" "$(field "$s" read 2)" 0 3
	within "$who perc_rand_dirs: writes following on %" "$(field "$s" write 2)" 100 100
done

# bs_is_seq_rand: random reads take the write size, 64 KiB, at offsets
# aligned to the read size, 4 KiB; fio's random map cuts some short (fio:
# 80 reads, 63 % of 64 KiB, 6 % following on).
for who in ours theirs; do
	[ $who = theirs ] && [ -z "$fio_ok" ] && continue
	s=$($who "$dir/bs_seq_rand.fio" 65536 65536)
	within "$who bs_seq_rand: reads" "$(field "$s" read 1)" 70 100
	within "$who bs_seq_rand: 64 KiB reads %" "$(field "$s" read 3)" 45 75
	within "$who bs_seq_rand: 64 KiB-aligned offsets %" "$(field "$s" read 4)" 0 30
done
# With percentage_random=50 the sequential half takes 4 KiB, the random
# half 64 KiB (fio: 146 reads and 151 writes over 16 MiB, 45 % and 53 %
# of 64 KiB, half of each following on).
for who in ours theirs; do
	[ $who = theirs ] && [ -z "$fio_ok" ] && continue
	s=$($who "$dir/bs_seq_rand_mix.fio" 65536 4096)
	for d in read write; do
		within "$who bs_seq_rand_mix: $d following on %" "$(field "$s" $d 2)" 35 65
		within "$who bs_seq_rand_mix: $d of 64 KiB %" "$(field "$s" $d 3)" 20 65
	done
done

# fio's map with directions of different sizes: randread bs=64k,4k has a
# map bit per 4 KiB and reads it in 64 KiB units, so a pass ends once a
# read lands where every later 64 KiB bit is set (fio: 10 of 16 reads).
for seed in 1 2 3; do
	s=$(ours "$dir/map_units.fio" 65536 65536 "$seed")
	within "map_units seed $seed: reads" "$(field "$s" read 1)" 6 15
done
if [ -n "$fio_ok" ]; then
	within "fio map_units: reads" "$(field "$(theirs "$dir/map_units.fio" 65536 65536)" read 1)" 6 15
fi

# fill_device without size writes on to the drive's end (fio's ENOSPC on
# a block device is its end); with a size it changes nothing. fio fills a
# file system, not a file, so these follow fio's code (fixup_options()
# sets size to -1 when it is unset; setup_files() keeps the device's size).
for opt in fill_device fill_fs; do
	printf '[j]\nrw=write\nbs=1m\noffset=16m\n%s=1\n' $opt >fill.fio
	s=$(ours fill.fio 1048576 1048576 1 "$small")
	within "$opt: writes" "$(field "$s" write 1)" 8176 8176
	within "$opt: the end" "$(($(field "$s" end 1) >> 20))" 8192 8192
done
printf '[j]\nrw=write\nbs=1m\nsize=64m\nfill_device=1\n' >fill.fio
within "fill_device with size: writes" "$(field "$(ours fill.fio 1 1 1 "$small")" write 1)" 64 64
# Sizes that vary: the first drawn is taken, and one past the drive's end
# ends the pass (fio's region has no end but the device's).
printf '[j]\nrw=write\nbsrange=1m-4m\nfill_device=1\noffset=8128m\n' >fill.fio
s=$(ours fill.fio 1 1 1 "$small")
within "fill_device bsrange: MiB short of the end" $((8192 - ($(field "$s" end 1) >> 20))) 0 3

# verify: the order fio reads back what it wrote (test/lib/verify-order.awk):
# after the pass, every write in issue order where the random map is in use,
# else each block once in offset order (an overwrite replaces the older
# log entry); verify_backlog interleaves batches of the oldest entries.
# Each line is fio 3.33's own result for the job.
order_ours() {
	{ printf '[j]\nbs=4k\nsize=256k\nverify=crc32c\n%b\n' "$1"; echo "write_iolog=$tmp/v.log"; } >v.fio
	"$NCQSIM" run v.fio >/dev/null 2>&1 || { echo "failed: $1"; return; }
	awk -f "$(dirname "$TESTDATA")/lib/verify-order.awk" "$tmp/v.log"
}
order_fio() {
	rm -f "$tmp/f.log"
	printf '[j]\nbs=4k\nsize=256k\nverify=crc32c\n%b\n' "$1" >f.fio
	"$fio" --ioengine=psync --filename="$tmp/dev8g" --write_iolog="$tmp/f.log" f.fio >/dev/null 2>&1
	awk -f "$(dirname "$TESTDATA")/lib/verify-order.awk" "$tmp/f.log"
}
while IFS='|' read -r job want; do
	[ -n "$job" ] || continue
	got=$(order_ours "$job")
	checks=$((checks + 1))
	case $want in
	*'~'*) # the number of distinct blocks is random: compare the rest
		[ "${got#* * }" = "${want#* * }" ] && [ "${got%% *}" = "${want%% *}" ] ||
			fail "verify order '$job': '$got', fio '$want'" ;;
	*) [ "$got" = "$want" ] || fail "verify order '$job': '$got', fio '$want'" ;;
	esac
	if [ -n "$fio_ok" ]; then
		theirs=$(order_fio "$job")
		checks=$((checks + 1))
		case $want in
		*'~'*) [ "${theirs#* * }" = "${want#* * }" ] || fail "fio verify order '$job': '$theirs'" ;;
		*) [ "$theirs" = "$want" ] || fail "fio verify order '$job': '$theirs'" ;;
		esac
	fi
done <<'TABLE'
rw=write|w64 r64 fifo=1 sorted=1 unique=1
rw=randwrite|w64 r64 fifo=1 sorted=0 unique=1
rw=randwrite\nnorandommap|w64 r~40 fifo=0 sorted=1 unique=1
rw=randwrite\nverify_backlog=10\nverify_backlog_batch=4|w10 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w4 r4 w2 r8 fifo=1 sorted=0 unique=0
rw=write\nioengine=libaio\niodepth=8\nverify_backlog=16|w16 r16 w16 r16 w16 r16 w16 r16 fifo=1 sorted=1 unique=0
TABLE
# verify_only: nothing reaches the drive but the read-back (each write is
# counted done at once, as fio's dry run counts it); a read job's verify
# adds no I/O. (fio fails both at their first read over data it did not
# write — "bad magic header"; ncqsim has no data, and every check passes.)
printf '[j]\nrw=write\nbs=4k\nsize=1m\nverify=crc32c\nverify_only\nwrite_iolog=%s\n' "$tmp/vo.log" >vo.fio
"$NCQSIM" run --output-format=json vo.fio >vo.json
checks=$((checks + 1))
[ "$(awk -f "$(dirname "$TESTDATA")/lib/fio-figures.awk" vo.json)" = 'j 0 256 1048576 256 1048576' ] &&
	[ "$(grep -c ' write ' "$tmp/vo.log")" = 0 ] && [ "$(grep -c ' read ' "$tmp/vo.log")" = 256 ] &&
	grep -q '"media_writes" : 0,' vo.json || fail "verify_only: $(awk -f "$(dirname "$TESTDATA")/lib/fio-figures.awk" vo.json)"
printf '[j]\nrw=read\nbs=4k\nsize=1m\nverify=crc32c\n' >vr.fio
checks=$((checks + 1))
[ "$("$NCQSIM" run --output-format=json vr.fio | awk -f "$(dirname "$TESTDATA")/lib/fio-figures.awk")" = 'j 0 256 1048576 0 0' ] ||
	fail "verify on a read job added I/O"

# The read-back starts with do_verify()'s fsync, a cache flush on the drive
# (fio does not count it in its sync figures), and reads count their own
# runtime: the read-back phases.
printf '[j]\nrw=write\nbs=64k\nsize=4m\nverify=md5\n' >v.fio
"$NCQSIM" run --output-format=json v.fio >v.json
checks=$((checks + 1))
grep -q '"flushes" : 1,' v.json || fail "verify: no flush before the read-back ($(grep -m1 flushes v.json))"
rts=$(awk '/^      "(read|write|trim|sync)" : \{/ { dir = $1 } /^        "runtime" : / { rt[dir] = $3 + 0 }
	/^        "total_ios" : / && dir ~ /sync/ { sync = $3 + 0 }
	END { print rt["\"read\""], rt["\"write\""], sync }' v.json)
set -- $rts
checks=$((checks + 1))
[ "$#" = 3 ] && [ "$1" -gt 0 ] && [ "$1" != "$2" ] && [ "$3" = 0 ] ||
	fail "verify: read runtime $1, write $2, sync I/Os $3 (fio: its own read runtime, no sync)"

# Trims (fio's BLKDISCARD ioctl, synchronous in every engine): the order of
# trims, writes and read-backs, one token per I/O (t/w/r and its 4 KiB
# block), over 64 KiB. fio trims a file with BLKDISCARD too, which fails
# (ENOTTY): it runs them with ignore_error, and a failed trim never counts
# as completed (fio's td->last_ddir); ncqsim runs them on a drive with TRIM
# (ARGS), or on one without, where each trim fails with EOPNOTSUPP and
# continue_on_error with ignore_error=,95 carries on (EOPNOTSUPP is not one
# of the EIO, EILSEQ fio carries on past by default). Each line is fio
# 3.33's result.
tokens() { awk '$3 == "trim" || $3 == "write" || $3 == "read" { printf "%s%s%d", sep, substr($3, 1, 1), $4 / 4096; sep = " " } END { print "" }' "$1"; }
# pairs: a randtrimwrite's trims each followed by the write of that block, every block once
pairs() { echo "$1" | awk '{ for (i = 1; i < NF; i += 2) if (substr($i, 2) != substr($(i + 1), 2) || $i !~ /^t/ || $(i + 1) !~ /^w/ || seen[$i]++) bad = 1; print (bad || NF != 32) ? "bad" : "pairs" }'; }
while IFS='|' read -r job args want; do
	[ -n "$job" ] || continue
	printf '[j]\nbs=4k\nsize=64k\n%b\nwrite_iolog=%s\n' "$job" "$tmp/t.log" >t.fio
	rm -f "$tmp/t.log"
	# shellcheck disable=SC2086
	"$NCQSIM" run $args t.fio >/dev/null 2>"$tmp/err" || { echo "failed: $(head -c 200 "$tmp/err")" >"$tmp/t.log"; }
	got=$(tokens "$tmp/t.log")
	[ "$want" = pairs ] && got=$(pairs "$got")
	checks=$((checks + 1))
	[ "$got" = "$want" ] || fail "trim order '$job': '$got', fio '$want'"
	if [ -n "$fio_ok" ]; then
		rm -f "$tmp/f.log"
		printf '[j]\nbs=4k\nsize=64k\n%b\ncontinue_on_error=all\nignore_error=,ENOTTY\n' "$job" >f.fio
		"$fio" --ioengine=psync --filename="$tmp/dev8g" --write_iolog="$tmp/f.log" f.fio >/dev/null 2>&1
		theirs=$(tokens "$tmp/f.log")
		[ "$want" = pairs ] && theirs=$(pairs "$theirs")
		checks=$((checks + 1))
		[ "$theirs" = "$want" ] || fail "fio trim order '$job': '$theirs'"
	fi
done <<'TABLE'
rw=trim|--set drive.trim=1|t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 t10 t11 t12 t13 t14 t15
rw=trimwrite|--set drive.trim=1|t0 w0 t1 w1 t2 w2 t3 w3 t4 w4 t5 w5 t6 w6 t7 w7 t8 w8 t9 w9 t10 w10 t11 w11 t12 w12 t13 w13 t14 w14 t15 w15
rw=randtrimwrite|--set drive.trim=1|pairs
rw=trimwrite\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=2\ntrim_verify_zero=0|--set drive.trim=1|t0 w0 t1 w1 t0 t1 t2 w2 t2 t3 w3 t4 w4 t3 t4 t5 w5 t5 t6 w6 t7 w7 t6 t7 t8 w8 t8 t9 w9 t10 w10 t9 t10 t11 w11 t11 t12 w12 t13 w13 t12 t13 t14 w14 t14 t15 w15 r15
rw=trimwrite\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=3\ntrim_verify_zero=0|--set drive.trim=1|t0 w0 t1 w1 t2 w2 t0 t1 t2 t3 w3 t3 t4 w4 t5 w5 t6 w6 t4 t5 t6 t7 w7 t7 t8 w8 t9 w9 t10 w10 t8 t9 t10 t11 w11 t11 t12 w12 t13 w13 t14 w14 t12 t13 t14 t15 w15 t15
rw=trimwrite\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=4\ntrim_backlog_batch=3\ntrim_verify_zero=0|--set drive.trim=1|t0 w0 t1 w1 t2 w2 t3 w3 t0 t1 t2 t3 t4 w4 t5 w5 t6 w6 t7 w7 t4 t5 t6 t7 t8 w8 t9 w9 t10 w10 t11 w11 t8 t9 t10 t11 t12 w12 t13 w13 t14 w14 t15 w15 t12 t13 t14 t15
rw=trimwrite\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=2|--set drive.trim=1|t0 w0 t1 w1 t0 t1 t2 w2 t2 t3 w3 t3 t4 w4 t4 t5 w5 t5 t6 w6 t7 w7 t6 t7 t8 w8 t8 t9 w9 t9 t10 w10 t10 t11 w11 t11 t12 w12 t13 w13 t12 t13 t14 w14 t14 t15 w15 t15 r0 r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r14 r15
rw=trimwrite\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=2\ntrim_verify_zero=0\nverify_only=1|--set drive.trim=1|r15
rw=trimwrite\nverify=crc32c\ntrim_percentage=100\ntrim_backlog=2\ntrim_verify_zero=0\nioengine=libaio\niodepth=4\ncontinue_on_error=all\nignore_error=,95||t0 w0 t1 w1 t2 w2 t3 w3 t0 t1 t2 t4 w4 t3 t4 t5 w5 t5 t6 w6 t7 w7 t6 t7 t8 w8 t8 t9 w9 t10 w10 t9 t10 t11 w11 t11 t12 w12 t13 w13 t12 t13 t14 w14 t14 t15 w15 r15
TABLE
# A trimwrite reports its trims apart (JSON "trim", issued rwts T) and its
# writes' count is the region's, not halved; the drive sees one DSM TRIM
# per trim, non-queued (06h), each behind the queued reads of another job.
printf '[j]\nrw=trimwrite\nbs=64k\nsize=1m\n' >tw.fio
"$NCQSIM" run --set drive.trim=1 --output-format=json tw.fio >tw.json
checks=$((checks + 1))
[ "$(awk '/^      "(read|write|trim|sync)" : \{/ { dir = $1 } /^        "total_ios" : / { n[dir] = $3 + 0 }
	END { print n["\"read\""], n["\"write\""], n["\"trim\""] }' tw.json)" = "0 16 16" ] &&
	[ "$(grep -c '"trims" : 16,' tw.json)" = 2 ] || fail "trimwrite: $(grep -E '"(total_ios|trims)"' tw.json | head -8)"
"$NCQSIM" run --set drive.trim=1 --debug=ata tw.fio 2>tw.err >tw.out
checks=$((checks + 1))
[ "$(grep -c 'issue cmd 06/01:01:.* dma 512 out (trim lba [0-9]* +128)' tw.err)" = 16 ] &&
	grep -q '     issued rwts: total=0,16,16,0 ' tw.out && grep -q '^   TRIM: bw=' tw.out ||
	fail "trimwrite: no DSM TRIM per trim ($(grep -m2 'cmd 06' tw.err))"

# On a drive without TRIM (every built-in one) BLKDISCARD fails with
# EOPNOTSUPP and the job ends; its block counts the one trim tried. fio 3.33
# on a block device without discard (a loop device, discard_max_bytes=0)
# prints the same: "err=95 (file:ioengines.c:399, func=td_io_queue, error=
# Operation not supported)", complete 0=50.0%, 4=50.0%, issued rwts
# total=0,0,1,0, and "fio: pid=N, err=95/file:ioengines.c:399,
# func=td_io_queue, ..." on stderr; its JSON's trim total_ios is 1.
printf '[t]\nrw=trim\nbs=64k\nsize=1m\n' >t1.fio
expect_rc 1 "$NCQSIM" run t1.fio
out_has "t: (groupid=0, jobs=1): err=95 (file:ioengines.c, func=td_io_queue, error=Operation not supported)"
out_has "     complete  : 0=50.0%, 4=50.0%, 8=0.0%"
out_has "     issued rwts: total=0,0,1,0 short=0,0,0,0 dropped=0,0,0,0"
err_has "fio: pid=1, err=95/file:ioengines.c, func=td_io_queue, error=Operation not supported"
err_has "job 't' ended with error 95 (Operation not supported)"
"$NCQSIM" run --output-format=json t1.fio >t1.json 2>/dev/null
checks=$((checks + 1))
[ "$(awk '/^      "(read|write|trim|sync)" : \{/ { dir = $1 } /^        "total_ios" : / { n[dir] = $3 + 0 }
	END { print n["\"read\""], n["\"write\""], n["\"trim\""] }' t1.json)" = "0 0 1" ] &&
	grep -q '^      "error" : 95,' t1.json || fail "trim without TRIM: $(grep -m3 -E '"(error|total_ios)"' t1.json)"

# Broken values name the file, line and option.
for c in 'percentage_random=101|option '"'"'percentage_random'"'"': expected a percentage 0..100' \
	'percentage_random=50,x|option '"'"'percentage_random'"'"': expected a percentage 0..100, got '"'"'x'"'"'' \
	'bs_is_seq_rand=2|option '"'"'bs_is_seq_rand'"'"'' \
	'fill_device=maybe|option '"'"'fill_device'"'"''; do
	printf '[j]\nrw=randread\nsize=1m\n%s\n' "${c%%|*}" >bad.fio
	expect_rc 2 "$NCQSIM" run bad.fio
	err_one_line
	err_has "bad.fio:4: ${c#*|}"
done
finish
