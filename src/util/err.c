#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int err_set(struct err *e, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int err_prefix(struct err *e, const char *fmt, ...)
{
	char prefix[512];
	size_t plen, mlen;
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	plen = strlen(prefix);
	mlen = strlen(e->msg);
	if (plen + mlen >= sizeof(e->msg))
		mlen = sizeof(e->msg) - 1 - plen;	/* plen < 512 < sizeof(msg) */
	memmove(e->msg + plen, e->msg, mlen);
	memcpy(e->msg, prefix, plen);
	e->msg[plen + mlen] = '\0';
	return -1;
}

