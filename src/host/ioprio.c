#include "host/ioprio.h"

int ioprio_check(uint16_t v, struct err *e)
{
	unsigned cls = ioprio_class(v), hint = ioprio_hint(v), level = ioprio_level(v);

	switch (cls) {
	case IOPRIO_CLASS_NONE:
		if (level || hint)
			return err_set(e, "ioprio 0x%04x: class none takes no level or hint", v);
		return 0;
	case IOPRIO_CLASS_RT:
	case IOPRIO_CLASS_BE:
	case IOPRIO_CLASS_IDLE:
		/* The hint is a CDL descriptor index: 1..7, or 0 for none. */
		if (hint > 7)
			return err_set(e, "ioprio 0x%04x: hint %u is not a CDL index (0..7)", v, hint);
		return 0;
	}
	return err_set(e, "ioprio 0x%04x: invalid class %u (expected 0 none, 1 rt, 2 be, 3 idle)",
		       v, cls);
}

uint16_t ioprio_task_default(int nice, enum sched_policy policy)
{
	unsigned cls = IOPRIO_CLASS_BE;
	int level;

	if (policy == SCHED_POLICY_FIFO || policy == SCHED_POLICY_RR)
		cls = IOPRIO_CLASS_RT;
	else if (policy == SCHED_POLICY_IDLE)
		cls = IOPRIO_CLASS_IDLE;
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	level = (nice + 20) / 5;
	return ioprio_value(cls, 0, (unsigned)level);
}

uint16_t ioprio_effective(uint16_t io_prio, uint16_t task_prio, int nice,
			  enum sched_policy policy)
{
	if (ioprio_class(io_prio) != IOPRIO_CLASS_NONE)
		return io_prio;
	if (ioprio_class(task_prio) != IOPRIO_CLASS_NONE)
		return task_prio;
	return ioprio_task_default(nice, policy);
}
