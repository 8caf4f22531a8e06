# ncqsim knobs: the list, values on a drive, and the kernel's refusals.
. test/lib/sh.sh

expect_rc 0 "$NCQSIM" knobs
out_has "device/ncq_prio_enable"
out_has "queue/iosched/prio_aging_expire"
out_has "4.10"

expect_rc 0 "$NCQSIM" knobs --set device/queue_depth=31 --set queue/scheduler=deadline
out_has "device/ncq_prio_supported          1"
out_has "device/queue_depth                 31"

# The command line wins over the system file.
printf 'drive = he8\nqueue/scheduler = none  # comment\ndevice/queue_depth = 4\n' >"$tmp/s.system"
expect_rc 0 "$NCQSIM" knobs --system "$tmp/s.system" --set device/queue_depth=8
out_has "queue/scheduler                    mq-deadline [none]"
out_has "device/queue_depth                 8"

expect_rc 2 "$NCQSIM" knobs --drive desktop1t --set device/ncq_prio_enable=1
err_one_line
err_has "EINVAL"
expect_rc 0 "$NCQSIM" knobs --drive desktop1t
out_has "device/ncq_prio_supported          0"

expect_rc 2 "$NCQSIM" knobs --set device/queue_depth=64
err_one_line
err_has "knob 'device/queue_depth': expected an integer 1..32, got '64'"
printf 'queue/scheduler = cfq\n' >"$tmp/bad.system"
expect_rc 2 "$NCQSIM" knobs --system "$tmp/bad.system"
err_has "bad.system:1: knob 'queue/scheduler'"
expect_rc 2 "$NCQSIM" knobs --system "$tmp/none.system"
err_has "cannot open"
expect_rc 2 "$NCQSIM" knobs --bogus
finish
