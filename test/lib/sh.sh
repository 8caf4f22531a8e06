# Helpers for the shell tests: source this, call the checks, end with
# `finish`. Each failed check prints one line; the exit status is 1 when
# any failed.
: "${NCQSIM:?set NCQSIM to the ncqsim binary}"
: "${TESTDATA:=test/data}"
# The fio binary the fio-parity tests also run: $FIO, none by default.
# `make test` checks ncqsim against fio 3.33's figures stored beside each
# test (quick); `make test-fio` sets FIO=fio and re-checks those figures
# against a live fio as well (minutes: fio runs on the real clock).
fio=${FIO:-}
# check_fio WHAT: fio_ok=1 when $fio is fio 3.33, the oracle; otherwise
# fio_ok is empty and one line says why and what the test checks ncqsim
# against.
check_fio() {
	fio_ok=
	if command -v "$fio" >/dev/null 2>&1 && [ "$("$fio" --version)" = fio-3.33 ]; then
		fio_ok=1
	elif [ -z "$fio" ]; then
		echo "fio not run (make test-fio runs it): ncqsim is checked against $1"
	else
		echo "$fio is not fio 3.33: ncqsim is checked against $1"
	fi
}
failures=0
checks=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# run CMD...: runs it, keeping stdout in $tmp/out, stderr in $tmp/err, status in $rc
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# expect_rc N CMD...
expect_rc() {
	local want=$1
	shift
	checks=$((checks + 1))
	run "$@"
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(head -c 300 "$tmp/err")"
}

# out_has TEXT / err_has TEXT: a fixed string in the last run's stdout / stderr
out_has() {
	checks=$((checks + 1))
	grep -qF -- "$1" "$tmp/out" || fail "stdout lacks '$1'"
}
err_has() {
	checks=$((checks + 1))
	grep -qF -- "$1" "$tmp/err" || fail "stderr lacks '$1' (stderr: $(head -c 300 "$tmp/err"))"
}
# err_one_line: an error is exactly one line on stderr, starting "ncqsim: "
err_one_line() {
	checks=$((checks + 1))
	local n
	n=$(wc -l <"$tmp/err")
	[ "$n" -eq 1 ] && grep -q '^ncqsim: ' "$tmp/err" || fail "expected one 'ncqsim: ' line on stderr, got: $(cat "$tmp/err")"
}

finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$failures of $checks checks failed"
		exit 1
	fi
	echo "$checks checks passed"
	exit 0
}
