/*
 * ioprio — the kernel's rules for the Linux I/O priority (block/ioprio.c);
 * the value's encoding (class, hint, level) is util/ioprio.h's alone.
 *
 * A task that never set a priority has the effective class BE (RT for a
 * SCHED_FIFO/RR task, IDLE for SCHED_IDLE) and level (nice + 20) / 5. A
 * per-I/O priority (aio_reqprio, io_uring sqe->ioprio) overrides the task's;
 * a per-I/O value of class NONE falls back to it. These are the rules of
 * Linux 6.0 and later; host_kernel_io_prio() (host/kernel.h) applies the
 * ones of the kernel the system runs.
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
