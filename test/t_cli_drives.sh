# ncqsim drives: the list, one model's parameters, the file form and its
# round trip, and broken model files.
. test/lib/sh.sh

expect_rc 0 "$NCQSIM" drives
out_has "he8 "
out_has "desktop1t"
[ "$(head -c 4 "$tmp/out")" = "he8 " ] || fail "the list does not start with a name"

expect_rc 0 "$NCQSIM" drives he8
out_has "rpm                    7200"
out_has "data sheet"
out_has "age_limit"
out_has "cylinders"

expect_rc 0 "$NCQSIM" drives hc570 --file
cp "$tmp/out" "$tmp/my.drive"
expect_rc 0 "$NCQSIM" drives "$tmp/my.drive"
out_has "hc570"

sed 's/^rpm = .*/rpm = fast/' "$tmp/my.drive" >"$tmp/bad.drive"
expect_rc 2 "$NCQSIM" drives "$tmp/bad.drive"
err_one_line
err_has "bad.drive:"
err_has "key 'rpm': expected an integer 3600..20000, got 'fast'"
grep -v '^heads' "$tmp/my.drive" >"$tmp/missing.drive"
expect_rc 2 "$NCQSIM" drives "$tmp/missing.drive"
err_has "key 'heads' is missing"
expect_rc 2 "$NCQSIM" drives nosuchdrive
err_has "not a built-in drive"
expect_rc 2 "$NCQSIM" drives --file
expect_rc 2 "$NCQSIM" drives --frob
finish
