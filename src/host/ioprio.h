/*
 * ioprio — the Linux I/O priority value and its rules
 * (include/uapi/linux/ioprio.h, block/ioprio.c).
 *
 *   bits 15:13  class: NONE 0, RT 1, BE 2, IDLE 3
 *   bits 12:3   hint (CDL descriptor index 1..7 since Linux 6.5)
 *   bits  2:0   level 0..7 (0 is the highest)
 *
 * A task that never set a priority has the effective class BE (RT for a
 * SCHED_FIFO/RR task, IDLE for SCHED_IDLE) and level (nice + 20) / 5. A
 * per-I/O priority (aio_reqprio, io_uring sqe->ioprio) overrides the task's;
 * a per-I/O value of class NONE falls back to it. ncqsim follows Linux 5.15
 * and later, where every request carries such an effective priority.
 */
#ifndef NCQSIM_IOPRIO_H
#define NCQSIM_IOPRIO_H

#include <stdint.h>

#include "util/err.h"
#include "util/ioprio.h"

enum sched_policy {
	SCHED_POLICY_NORMAL,
	SCHED_POLICY_FIFO,
	SCHED_POLICY_RR,
	SCHED_POLICY_BATCH,
	SCHED_POLICY_IDLE,
};

/* Validate as ioprio_check_cap() does (no capability check here). */
int ioprio_check(uint16_t v, struct err *e);

/* The priority a task gets when it never set one. */
uint16_t ioprio_task_default(int nice, enum sched_policy policy);

/* The priority an I/O carries: its own, else the task's, else the default. */
uint16_t ioprio_effective(uint16_t io_prio, uint16_t task_prio, int nice,
			  enum sched_policy policy);

#endif
