/*
 * zstore: Adler-32 against RFC 1950's definition and published values,
 * and the streams it writes read back by a reader of RFC 1950/1951 written
 * here from the RFCs (header check, block headers, LEN/NLEN, BFINAL, the
 * checksum): several streams in one file, each the bytes written into it.
 * (t_fio_logfmt.sh has zlib itself, Python's and fio's, read them.)
 */
#include "testlib.h"
#include "util/zstore.h"

#include <stdlib.h>

/* The definition, a byte at a time. */
static uint32_t adler_slow(const unsigned char *p, size_t n)
{
	uint32_t a = 1, b = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

static void test_adler(void)
{
	unsigned char *big = malloc(100000);
	size_t i;

	CHECK_EQ_U64(zstore_adler32(1, "", 0), 1);
	CHECK_EQ_U64(zstore_adler32(1, "a", 1), 0x00620062);
	CHECK_EQ_U64(zstore_adler32(1, "Wikipedia", 9), 0x11e60398);
	CHECK_EQ_U64(zstore_adler32(1, "abc", 3), 0x024d0127);
	if (!big)
		return;
	/* Long runs of 0xff: the sums wrap many times (zlib's NMAX bound). */
	for (i = 0; i < 100000; i++)
		big[i] = i % 7 ? 0xff : (unsigned char)i;
	CHECK_EQ_U64(zstore_adler32(1, big, 100000), adler_slow(big, 100000));
	/* In pieces, continuing from the last value. */
	CHECK_EQ_U64(zstore_adler32(zstore_adler32(1, big, 33333), big + 33333, 66667),
		     adler_slow(big, 100000));
	free(big);
}

/*
 * Read one zlib stream of stored blocks from p (n bytes): its data into
 * out, returns the bytes the stream took, or 0 if it is not one.
 */
static size_t read_stream(const unsigned char *p, size_t n, unsigned char *out, size_t *outlen)
{
	size_t at = 2, len;
	uint32_t sum;
	int last = 0;

	*outlen = 0;
	if (n < 2 || (p[0] & 0x0f) != 8 || (p[0] * 256 + p[1]) % 31 || (p[1] & 0x20))
		return 0;
	while (!last) {
		if (at + 5 > n || (p[at] & 0x06))	/* BTYPE must be 00: stored */
			return 0;
		last = p[at] & 1;
		len = p[at + 1] | p[at + 2] << 8;
		if ((len ^ 0xffff) != (size_t)(p[at + 3] | p[at + 4] << 8) || at + 5 + len > n)
			return 0;
		memcpy(out + *outlen, p + at + 5, len);
		*outlen += len;
		at += 5 + len;
	}
	if (at + 4 > n)
		return 0;
	sum = (uint32_t)p[at] << 24 | (uint32_t)p[at + 1] << 16 | (uint32_t)p[at + 2] << 8 | p[at + 3];
	if (sum != adler_slow(out, *outlen))
		return 0;
	return at + 4;
}

static void test_streams(void)
{
	static const size_t sizes[] = { 1, 40, ZSTORE_BLOCK - 1, ZSTORE_BLOCK, 3 * ZSTORE_BLOCK + 17 };
	unsigned char *data = malloc(4 * ZSTORE_BLOCK), *file = NULL, *got = malloc(4 * ZSTORE_BLOCK);
	size_t flen = 0, i, at = 0;
	struct zstore z;
	FILE *f;

	if (!data || !got)
		goto out;
	for (i = 0; i < 4 * ZSTORE_BLOCK; i++)
		data[i] = (unsigned char)(i * 131 + 7);
	f = open_memstream((char **)&file, &flen);
	if (!f)
		goto out;
	zstore_init(&z, f);
	zstore_end(&z);		/* nothing open: nothing written */
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t k;

		/* Written in uneven pieces, each stream the first sizes[i] bytes. */
		for (k = 0; k < sizes[i]; k += 1000)
			CHECK(zstore_write(&z, data + k, sizes[i] - k < 1000 ? sizes[i] - k : 1000) == 0);
		zstore_end(&z);
	}
	zstore_close(&z);
	fclose(f);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t glen, took = read_stream(file + at, flen - at, got, &glen);

		CHECK_MSG(took > 0, "stream %zu is not a zlib stream of stored blocks", i);
		if (!took)
			break;
		CHECK_EQ_U64(glen, sizes[i]);
		CHECK(!memcmp(got, data, glen));
		at += took;
	}
	CHECK_EQ_U64(at, flen);
out:
	free(file);
	free(data);
	free(got);
}

int main(void)
{
	test_adler();
	test_streams();
	return test_done();
}
