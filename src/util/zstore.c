#include "util/zstore.h"

#include <stdlib.h>
#include <string.h>

#define ADLER_MOD 65521u
/* The most bytes whose sums fit 32 bits before a reduction (zlib's NMAX). */
#define ADLER_RUN 5552

uint32_t zstore_adler32(uint32_t adler, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint32_t a = adler & 0xffff, b = adler >> 16;

	while (n) {
		size_t run = n < ADLER_RUN ? n : ADLER_RUN, i;

		for (i = 0; i < run; i++) {
			a += c[i];
			b += a;
		}
		a %= ADLER_MOD;
		b %= ADLER_MOD;
		c += run;
		n -= run;
	}
	return b << 16 | a;
}

void zstore_init(struct zstore *z, FILE *f)
{
	memset(z, 0, sizeof(*z));
	z->f = f;
}

/* A stored block of the open bytes; `last` sets BFINAL. Blocks stay byte-aligned. */
static void put_block(struct zstore *z, bool last)
{
	unsigned char h[5] = { last ? 1 : 0, (unsigned char)(z->used & 0xff),
		(unsigned char)(z->used >> 8), (unsigned char)(~z->used & 0xff),
		(unsigned char)((~z->used >> 8) & 0xff) };

	fwrite(h, 1, sizeof(h), z->f);
	if (z->used)
		fwrite(z->block, 1, z->used, z->f);
	z->used = 0;
}

int zstore_write(struct zstore *z, const void *p, size_t n)
{
	const unsigned char *c = p;

	if (!z->block && !(z->block = malloc(ZSTORE_BLOCK)))
		return -1;
	if (!z->open) {
		/* CMF 0x78: deflate, 32 KiB window; FLG 0x01: no dictionary, (CMF*256+FLG) % 31 == 0. */
		static const unsigned char header[2] = { 0x78, 0x01 };

		fwrite(header, 1, sizeof(header), z->f);
		z->adler = 1;
		z->open = true;
	}
	z->adler = zstore_adler32(z->adler, c, n);
	while (n) {
		size_t room = ZSTORE_BLOCK - z->used, k = n < room ? n : room;

		memcpy(z->block + z->used, c, k);
		z->used += k;
		c += k;
		n -= k;
		if (z->used == ZSTORE_BLOCK)
			put_block(z, false);
	}
	return 0;
}

void zstore_end(struct zstore *z)
{
	unsigned char sum[4];

	if (!z->open)
		return;
	if (z->used)
		put_block(z, false);
	put_block(z, true);	/* empty, BFINAL */
	sum[0] = (unsigned char)(z->adler >> 24);
	sum[1] = (unsigned char)(z->adler >> 16);
	sum[2] = (unsigned char)(z->adler >> 8);
	sum[3] = (unsigned char)z->adler;
	fwrite(sum, 1, sizeof(sum), z->f);
	z->open = false;
}

void zstore_close(struct zstore *z)
{
	zstore_end(z);
	free(z->block);
	z->block = NULL;
}
