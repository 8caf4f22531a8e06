# fio's own example job files: ncqsim runs each, or refuses it with one line
# naming the file, the line and the first option it cannot simulate, or
# ends a job with the I/O error fio would meet — never a crash or a hang.
. test/lib/sh.sh
ran=0
refused=0
cd "$tmp" || exit 1
for f in "$TESTDATA"/fio-examples/*.fio; do
	name=$(basename "$f")
	timeout 60 "$NCQSIM" run --runtime 1s --output-format=json "$f" >out.json 2>err.txt
	rc=$?
	checks=$((checks + 1))
	case $rc in
	0)
		ran=$((ran + 1))
		grep -q '"jobs" : \[' out.json || fail "$name: ran but wrote no jobs"
		;;
	1)
		# A job ended by an I/O error, as fio's would be (fio's sg
		# examples on a SATA disk: libata refuses WRITE SAME): fio's
		# "fio: pid=N, err=" line, and the report all the same.
		ran=$((ran + 1))
		grep -q '"jobs" : \[' out.json || fail "$name: failed and wrote no jobs"
		grep -q '^fio: pid=[0-9]*, err=[0-9]*/' err.txt || fail "$name: exit 1 without fio's error line: $(head -c 300 err.txt)"
		;;
	2)
		refused=$((refused + 1))
		# Warnings may come first; the error is the last line.
		msg=$(grep -v '^ncqsim: warning: ' err.txt)
		[ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] || fail "$name: the refusal is not one line: $msg"
		printf '%s\n' "$msg" | grep -qE "^ncqsim: .*$name:[0-9]+: " || fail "$name: the refusal names no file and line: $msg"
		;;
	*)
		fail "$name: exit $rc: $(head -c 300 err.txt)"
		;;
	esac
done
echo "$ran ran, $refused refused"
[ "$ran" -ge 8 ] || fail "only $ran of fio's examples ran"
finish
