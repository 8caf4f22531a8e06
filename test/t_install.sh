# make install PREFIX=/usr/local DESTDIR=... and make uninstall, through
# test/check-install (which CI runs too). Needs make and groff.
. test/lib/sh.sh
command -v make >/dev/null && command -v groff >/dev/null || { echo "make or groff missing"; exit 77; }
checks=$((checks + 1))
test/check-install PREFIX=/usr/local || fail "test/check-install failed"
finish
