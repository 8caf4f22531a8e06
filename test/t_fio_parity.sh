# Details of fio 3.33's parsing and report that ncqsim follows, against
# fio's figures stored in test/data/fio-parity (re-checked against fio
# itself where it is installed): which bool values fio takes, the runtime
# rounding, the JSON's eta and elapsed, and the group's kb_base in a job's
# text.
. test/lib/sh.sh
dir=$TESTDATA/fio-parity
cd "$tmp" || exit 1
check_fio "the stored fio figures only"

# ---- bool values: ncqsim accepts and refuses what fio 3.33 does ----
while IFS='|' read -r o v want; do
	case $o in '#'* | '') continue ;; esac
	checks=$((checks + 1))
	printf '[j]\nsize=64k\nruntime=1\n%s=%s\n' "$o" "$v" >b.fio
	"$NCQSIM" run b.fio >/dev/null 2>b.err && got=ok || got=refused
	[ "$got" = "$want" ] || fail "ncqsim $o=$v: $got, fio 3.33: $want ($(head -c 200 b.err))"
	if [ "$got" = refused ]; then
		checks=$((checks + 1))
		grep -q "b.fio:4: option '$o'" b.err || fail "$o=$v: message '$(cat b.err)' names no file, line and option"
	fi
	if [ -n "$fio_ok" ]; then
		checks=$((checks + 1))
		"$fio" --name=x --ioengine=null --size=4k --"$o=$v" --parse-only >/dev/null 2>&1 &&
			got=ok || got=refused
		[ "$got" = "$want" ] || fail "fio $o=$v: $got, stored: $want"
	fi
done <"$dir/bools.txt"

# ---- runtime: whole µs rounded up to the ms (fio's update_runtime()); job_runtime floored ----
# One read and a 7.5 ms think: fio 3.33 on null gives runtime 8, job_runtime 7.
json() { "$NCQSIM" run --output-format=json "$@" 2>/dev/null; }
field() { awk -F': ' -v k="\"$1\"" '$1 ~ k { gsub(/[ ,]/, "", $2); print $2; exit }'; }
json --name=x --size=4k --thinktime=7500 >t.json
rt=$(field runtime <t.json)
jr=$(field job_runtime <t.json)
checks=$((checks + 1))
[ "$rt" -eq $((jr + 1)) ] || fail "runtime $rt, job_runtime $jr: expected runtime = job_runtime + 1 (fio: 8 and 7)"
if [ -n "$fio_ok" ]; then
	"$fio" --name=x --ioengine=null --size=4k --thinktime=7500 --output-format=json >f.json 2>/dev/null
	checks=$((checks + 1))
	[ "$(field runtime <f.json)" -gt "$(field job_runtime <f.json)" ] ||
		fail "fio: runtime $(field runtime <f.json) not above job_runtime $(field job_runtime <f.json)"
fi

# ---- eta and elapsed: one snapshot for the run ----
# Under 3 s fio makes no estimate: eta is INT_MAX, for a job an error ended as for any.
json --name=x --rw=trim --size=64k >e.json
checks=$((checks + 1))
[ "$(field error <e.json)" = 95 ] && [ "$(field eta <e.json)" = 2147483647 ] ||
	fail "errored short job: error $(field error <e.json), eta $(field eta <e.json); fio: 2147483647"
if [ -n "$fio_ok" ]; then
	"$fio" --name=x --ioengine=psync --filename=/dev/full --rw=write --size=64k \
		--output-format=json >f.json 2>/dev/null
	checks=$((checks + 1))
	[ "$(field error <f.json)" = 28 ] && [ "$(field eta <f.json)" = 2147483647 ] ||
		fail "fio errored short job: eta $(field eta <f.json)"
fi
# From 3 s on, 0 for jobs that are over; elapsed is the run's, the same for every job
# (fio 3.33: a 3.2 s and a 1 s job in parallel both show elapsed 4, eta 0).
printf '[global]\nrw=read\nsize=1g\ntime_based=1\n[a]\nruntime=3200ms\n[b]\nruntime=1s\n' >p.fio
json p.fio | grep -E '"(eta|elapsed)"' | tr -d ' ,' | paste -sd ' ' >p.out
checks=$((checks + 1))
[ "$(cat p.out)" = '"eta":0 "elapsed":4 "eta":0 "elapsed":4' ] || fail "eta/elapsed: $(cat p.out)"

# ---- kb_base: a job's text takes its group's (the last member's), unit_base its own ----
"$NCQSIM" run "$dir/kb_mixed.fio" 2>/dev/null | grep -E 'IOPS=|bw=|bw \(' |
	sed 's/[0-9.]\+/N/g; s/ \+/ /g' >kb.units
checks=$((checks + 1))
cmp -s kb.units "$dir/kb_mixed.units" || fail "kb_base mix: $(diff kb.units "$dir/kb_mixed.units" | head -5)"
if [ -n "$fio_ok" ]; then
	"$fio" --ioengine=null "$dir/kb_mixed.fio" 2>/dev/null | grep -E 'IOPS=|bw=|bw \(' |
		sed 's/[0-9.]\+/N/g; s/ \+/ /g' >f.units
	checks=$((checks + 1))
	cmp -s f.units "$dir/kb_mixed.units" || fail "fio's kb_base mix: $(diff f.units "$dir/kb_mixed.units" | head -5)"
fi
finish
