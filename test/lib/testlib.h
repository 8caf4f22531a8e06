/*
 * testlib — the few helpers every test program uses.
 *
 * A test program is one test: it runs its checks, prints a line for each
 * failure (file:line, the expression, the values) and exits 0 when all
 * passed, 1 otherwise (77 = skipped). test/run-tests counts the programs.
 */
#ifndef NCQSIM_TESTLIB_H
#define NCQSIM_TESTLIB_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern int test_failures;
extern int test_checks;

void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int test_done(void);

/* Path of a file under test/data (TESTDATA overrides the directory). */
const char *test_data(const char *rel);
/* Read a whole file; returns malloc'd bytes (NUL-terminated) or NULL. */
char *test_slurp(const char *path, size_t *len);

#define CHECK(cond) do { test_checks++; if (!(cond)) \
	test_fail(__FILE__, __LINE__, "%s", #cond); } while (0)

#define CHECK_MSG(cond, ...) do { test_checks++; if (!(cond)) \
	test_fail(__FILE__, __LINE__, __VA_ARGS__); } while (0)

#define CHECK_EQ_INT(a, b) do { long long _a = (long long)(a), _b = (long long)(b); \
	test_checks++; if (_a != _b) test_fail(__FILE__, __LINE__, \
	"%s == %s: %lld != %lld", #a, #b, _a, _b); } while (0)

#define CHECK_EQ_U64(a, b) do { unsigned long long _a = (a), _b = (b); \
	test_checks++; if (_a != _b) test_fail(__FILE__, __LINE__, \
	"%s == %s: %llu != %llu", #a, #b, _a, _b); } while (0)

#define CHECK_EQ_STR(a, b) do { const char *_a = (a), *_b = (b); \
	test_checks++; if (!_a || !_b || strcmp(_a, _b)) test_fail(__FILE__, __LINE__, \
	"%s == %s: \"%s\" != \"%s\"", #a, #b, _a ? _a : "(null)", _b ? _b : "(null)"); } while (0)

#define CHECK_NEAR(a, b, tol) do { double _a = (a), _b = (b), _t = (tol); \
	test_checks++; if (!(_a - _b <= _t && _b - _a <= _t)) test_fail(__FILE__, __LINE__, \
	"%s ~ %s: %.9g vs %.9g (tol %.3g)", #a, #b, _a, _b, _t); } while (0)

/* Relative tolerance: |a - b| <= rel * |b|. */
#define CHECK_REL(a, b, rel) do { double _a = (a), _b = (b), _r = (rel); \
	double _d = _a > _b ? _a - _b : _b - _a; double _m = _b < 0 ? -_b : _b; \
	test_checks++; if (!(_d <= _r * _m)) test_fail(__FILE__, __LINE__, \
	"%s ~ %s: %.9g vs %.9g (rel %.3g, off by %.3g%%)", #a, #b, _a, _b, _r, \
	_m ? 100.0 * _d / _m : 0.0); } while (0)

#endif
