/*
 * zstore — zlib streams (RFC 1950) whose deflate data (RFC 1951) is all
 * stored blocks (BTYPE 00): a format every zlib inflates, written with
 * libc alone. Nothing is compressed; what the format buys is that readers
 * of zlib data take it — fio's compressed logs (log_store_compressed) are
 * a file of such streams one after another, which `fio --inflate-log`
 * reads back.
 *
 *   78 01 | 00 LEN NLEN data (LEN <= ZSTORE_BLOCK) ... | 01 00 00 ff ff | adler-32
 *   header  blocks, BFINAL clear                        final empty block  big-endian
 *
 * Memory is one block per open writer, allocated at its first byte.
 * Write errors stay in the FILE's error flag (outfile_commit() reports them).
 */
#ifndef NCQSIM_ZSTORE_H
#define NCQSIM_ZSTORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ZSTORE_BLOCK 4096

struct zstore {
	FILE *f;
	unsigned char *block;	/* the open block's bytes, NULL before the first */
	size_t used;
	uint32_t adler;		/* adler-32 of the open stream */
	bool open;		/* a stream is open (its header written) */
};

void zstore_init(struct zstore *z, FILE *f);
/* Bytes into the open stream, opening one if none is: 0, or -1 out of memory. */
int zstore_write(struct zstore *z, const void *p, size_t n);
/* End the open stream, if any: its last block, the final block, the checksum. */
void zstore_end(struct zstore *z);
/* zstore_end() and the block's memory freed. */
void zstore_close(struct zstore *z);

/* Adler-32 (RFC 1950) of n bytes, continuing from adler (1 to start). */
uint32_t zstore_adler32(uint32_t adler, const void *p, size_t n);

#endif
