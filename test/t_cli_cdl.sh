# CDL from the command line: the sysfs knobs (listed, refused in either
# direction with the kernel's message, exit 2), log_prio writing the full
# ioprio in hex with its hint bits (class 2, hint 1: 0x4008, as fio), and `ncqsim drives`
# showing the pages a drive holds and their descriptors.
. test/lib/sh.sh

run "$NCQSIM" knobs
checks=$((checks + 1))
grep -q '^device/cdl_enable' "$tmp/out" || fail "ncqsim knobs does not list device/cdl_enable"
checks=$((checks + 1))
grep -q '^device/cdl_supported' "$tmp/out" || fail "ncqsim knobs does not list device/cdl_supported"

expect_rc 2 "$NCQSIM" run examples/cdl.fio --system examples/cdl.system \
	--set device/ncq_prio_enable=1 --runtime 1s
checks=$((checks + 1))
grep -q "CDL must be disabled to enable NCQ priority" "$tmp/err" ||
	fail "no kernel message for ncq_prio_enable after cdl_enable: $(cat "$tmp/err")"
expect_rc 2 "$NCQSIM" run examples/cdl.fio --drive hc570 --set device/ncq_prio_enable=1 \
	--set device/cdl_enable=1 --runtime 1s
checks=$((checks + 1))
grep -q "NCQ priority must be disabled to enable CDL" "$tmp/err" ||
	fail "no kernel message for cdl_enable after ncq_prio_enable: $(cat "$tmp/err")"

cat >"$tmp/log.fio" <<JOB
[j]
rw=randread
bs=128k
ioengine=libaio
iodepth=4
runtime=2
time_based=1
cmdprio_percentage=50
cmdprio_class=2
cmdprio_hint=1
write_lat_log=$tmp/cdl
log_prio=1
JOB
expect_rc 0 "$NCQSIM" run "$tmp/log.fio" --system examples/cdl.system
checks=$((checks + 1))
grep -q ', 0x4008$' "$tmp/cdl_clat.1.log" || fail "log_prio: no ioprio 0x4008 (BE, hint 1) in the clat log"
checks=$((checks + 1))
grep -q 'clat prio 2/0/1' "$tmp/out" || fail "no 'clat prio 2/0/1' block in the normal output"

run "$NCQSIM" drives hc570
checks=$((checks + 1))
grep -q '^cdl_t2a *hc570-t2a' "$tmp/out" || fail "ncqsim drives hc570 does not name its T2A page"
checks=$((checks + 1))
grep -q "T2A 1 *guideline   50.000 ms" "$tmp/out" || fail "ncqsim drives hc570 does not list descriptor 1 (50 ms)"
finish
