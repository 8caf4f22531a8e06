# The man pages and the bash completion, generated from the tables --help
# comes from: a page per command and ncqsim-drive(5) with every drive key,
# each rendering without a warning under groff -man -ww; the completion
# parses and offers every command, option, drive, knob and drive key.
. test/lib/sh.sh

expect_rc 0 "$NCQSIM" help --man "$tmp/man"
commands=$("$NCQSIM" | awk '/^commands:/{on=1; next} on && /^  [a-z]/{print $1}')
for page in ncqsim.1 ncqsim-drive.5 $(for c in $commands; do echo "ncqsim-$c.1"; done); do
	checks=$((checks + 1))
	[ -s "$tmp/man/$page" ] || fail "no man page $page"
done
checks=$((checks + 1))
[ "$(ls "$tmp/man" | wc -l)" -eq $(( $(echo $commands | wc -w) + 2 )) ] ||
	fail "expected one page per command and two more, got: $(ls "$tmp/man" | tr '\n' ' ')"

# Every option of --help is in the command's page, every drive key in drive(5).
for c in $commands; do
	for opt in $("$NCQSIM" "$c" --help | grep -oE '^  --[a-z-]+' | sed 's/^  //'); do
		checks=$((checks + 1))
		grep -qF -- "\\fB$(echo "$opt" | sed 's/-/\\-/g')\\fR" "$tmp/man/ncqsim-$c.1" ||
			fail "ncqsim-$c.1 lacks option $opt"
	done
done
for key in $("$NCQSIM" drives he8 --file | grep -v '^#' | sed 's/ *=.*//'); do
	checks=$((checks + 1))
	grep -qF "\\fB$(echo "$key" | sed 's/-/\\-/g')\\fR" "$tmp/man/ncqsim-drive.5" ||
		fail "ncqsim-drive.5 lacks key $key"
done

# groff -man -ww -z says nothing about any page.
if command -v groff >/dev/null; then
	for page in "$tmp"/man/*; do
		checks=$((checks + 1))
		warnings=$(groff -man -ww -z "$page" 2>&1)
		[ -z "$warnings" ] || fail "groff warns on $(basename "$page"): $(echo "$warnings" | head -n 3)"
	done
else
	echo "groff not installed: pages not rendered (apt-get install groff-base)"
fi

# The bash completion.
expect_rc 0 "$NCQSIM" help --bash-completion
cp "$tmp/out" "$tmp/ncqsim.bash"
checks=$((checks + 1))
bash -n "$tmp/ncqsim.bash" || fail "the completion script does not parse"
complete_words() { # complete_words WORD...: what the completion offers for the last word
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ncqsim; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$tmp/ncqsim.bash" "$@" 2>/dev/null
}
for c in $commands; do
	checks=$((checks + 1))
	complete_words ncqsim "${c:0:2}" | grep -qx "$c" || fail "completion of '${c:0:2}' lacks $c"
done
checks=$((checks + 1))
complete_words ncqsim compare --va | grep -qx -- --vary || fail "completion lacks compare --vary"
checks=$((checks + 1))
complete_words ncqsim run --drive h | grep -qx he8 || fail "completion of --drive lacks he8"
checks=$((checks + 1))
complete_words ncqsim run --set device/ncq | grep -qx device/ncq_prio_enable= ||
	fail "completion of --set lacks device/ncq_prio_enable="
checks=$((checks + 1))
complete_words ncqsim compare --vary drive.age | grep -qx drive.age_limit= ||
	fail "completion of --vary lacks drive.age_limit="
checks=$((checks + 1))
complete_words ncqsim run --set queue/iosched/ | grep -qx queue/iosched/read_expire= ||
	fail "completion of --set lacks the scheduler tunables"
finish
