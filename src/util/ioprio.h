/*
 * ioprio — the Linux I/O priority value, encoded and decoded in this one
 * place (include/uapi/linux/ioprio.h) for every layer: the host's rules
 * (host/ioprio.h), the job engine, reports and comparisons.
 *
 *   bits 15:13  class: NONE 0, RT 1, BE 2, IDLE 3
 *   bits 12:3   hint (CDL descriptor index 1..7 since Linux 6.5)
 *   bits  2:0   level 0..7 (0 is the highest)
 *
 * `make symbols` refuses ioprio bit arithmetic anywhere else.
 */
#ifndef NCQSIM_UTIL_IOPRIO_H
#define NCQSIM_UTIL_IOPRIO_H

#include <stdint.h>

enum ioprio_class {
	IOPRIO_CLASS_NONE = 0,
	IOPRIO_CLASS_RT = 1,
	IOPRIO_CLASS_BE = 2,
	IOPRIO_CLASS_IDLE = 3,
};

#define IOPRIO_CLASS_SHIFT	13
#define IOPRIO_HINT_SHIFT	3
#define IOPRIO_NR_LEVELS	8

static inline uint16_t ioprio_value(unsigned cls, unsigned hint, unsigned level)
{
	return (uint16_t)((cls & 7) << IOPRIO_CLASS_SHIFT | (hint & 0x3ff) << IOPRIO_HINT_SHIFT |
			  (level & 7));
}

static inline unsigned ioprio_class(uint16_t v)
{
	return v >> IOPRIO_CLASS_SHIFT;
}

static inline unsigned ioprio_hint(uint16_t v)
{
	return (v >> IOPRIO_HINT_SHIFT) & 0x3ff;
}

static inline unsigned ioprio_level(uint16_t v)
{
	return v & 7;
}

/* "none", "rt", "be", "idle" (as ionice and fio print them), else "invalid". */
const char *ioprio_class_name(unsigned cls);

#endif
