/* ioprio: the 16-bit layout, validation, task defaults, per-I/O override. */
#include "testlib.h"
#include "host/ioprio.h"

int main(void)
{
	struct err e;

	CHECK_EQ_INT(ioprio_value(IOPRIO_CLASS_RT, 0, 0), 0x2000);
	CHECK_EQ_INT(ioprio_value(IOPRIO_CLASS_BE, 0, 4), 0x4004);
	CHECK_EQ_INT(ioprio_value(IOPRIO_CLASS_IDLE, 0, 7), 0x6007);
	CHECK_EQ_INT(ioprio_value(IOPRIO_CLASS_BE, 3, 0), 0x4018);
	CHECK_EQ_INT(ioprio_class(0x4004), IOPRIO_CLASS_BE);
	CHECK_EQ_INT(ioprio_level(0x4004), 4);
	CHECK_EQ_INT(ioprio_hint(0x4018), 3);
	CHECK_EQ_STR(ioprio_class_name(1), "rt");

	CHECK(ioprio_check(0x2000, &e) == 0);
	CHECK(ioprio_check(0x2007, &e) == 0);
	CHECK(ioprio_check(0, &e) == 0);
	CHECK(ioprio_check(0x0001, &e) != 0);		/* none with a level */
	CHECK(ioprio_check(4 << 13, &e) != 0);		/* class 4 */
	CHECK(strstr(e.msg, "invalid class 4") != NULL);
	CHECK(ioprio_check(7 << 13, &e) != 0);
	CHECK(ioprio_check(ioprio_value(IOPRIO_CLASS_BE, 8, 0), &e) != 0);	/* hint > 7 */

	/* Defaults: BE, level (nice + 20) / 5; RT for FIFO/RR; IDLE for SCHED_IDLE. */
	CHECK_EQ_INT(ioprio_task_default(0, SCHED_POLICY_NORMAL), 0x4004);
	CHECK_EQ_INT(ioprio_task_default(-20, SCHED_POLICY_NORMAL), 0x4000);
	CHECK_EQ_INT(ioprio_task_default(19, SCHED_POLICY_NORMAL), 0x4007);
	CHECK_EQ_INT(ioprio_task_default(-5, SCHED_POLICY_BATCH), 0x4003);
	CHECK_EQ_INT(ioprio_task_default(0, SCHED_POLICY_FIFO), 0x2004);
	CHECK_EQ_INT(ioprio_task_default(0, SCHED_POLICY_RR), 0x2004);
	CHECK_EQ_INT(ioprio_task_default(0, SCHED_POLICY_IDLE), 0x6004);

	/* Per-I/O over task over default. */
	CHECK_EQ_INT(ioprio_effective(0x2001, 0x4007, 0, SCHED_POLICY_NORMAL), 0x2001);
	CHECK_EQ_INT(ioprio_effective(0, 0x6000, 0, SCHED_POLICY_NORMAL), 0x6000);
	CHECK_EQ_INT(ioprio_effective(0, 0, 0, SCHED_POLICY_NORMAL), 0x4004);
	CHECK_EQ_INT(ioprio_effective(0, 0, 0, SCHED_POLICY_FIFO), 0x2004);
	return test_done();
}
