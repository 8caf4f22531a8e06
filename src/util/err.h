/*
 * err — one error message travelling up the call chain.
 *
 * Parsers fill a struct err with the part they know ("option 'bs':
 * expected a size such as 4k, got '4q'") and return -1; callers that know
 * more prepend it ("job.fio:12: "), and main prints "ncqsim: " + message.
 */
#ifndef NCQSIM_ERR_H
#define NCQSIM_ERR_H

#include <stddef.h>

struct err {
	char msg[1024];
};

/* Set the message; returns -1 so that `return err_set(e, ...)` reads well. */
int err_set(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepend to the message; returns -1. */
int err_prefix(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
