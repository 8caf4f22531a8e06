/*
 * cdlpage — a drive's Command Duration Limits descriptor pages, read from the
 * text form `cdladm show` prints and `cdladm upload` takes
 * (../shared/reference/cdl/T2A.cdl):
 *
 *   cdlp: T2A
 *   perf-vs-duration-guideline: 0xc          T2A only
 *   == descriptor: 1                         1..7, each once, all seven
 *   t2cdlunits: 0xa                          0x0 none, 0x6 500 ns, 0x8 1 us,
 *                                            0xa 10 ms, 0xe 500 ms
 *   max-inactive-time: 0                     0..65535 units, 0 = no limit
 *   max-inactive-time-policy: 0x0            0x0, 0xd, 0xf
 *   max-active-time: 0
 *   max-active-time-policy: 0x0              0x0, 0xd, 0xe, 0xf
 *   duration-guideline: 5
 *   duration-guideline-policy: 0x0           0x0, 0x1, 0x2, 0xd, 0xf
 *
 * '#' starts a comment. Every field of a descriptor is given, once. The
 * times go into the drive's Command Duration Limits log (18h) in
 * microseconds (500 ns units round up), T2A into its read descriptors and
 * T2B into its write descriptors.
 *
 * Built-in pages are the drives/NAME.cdl files, compiled in; a drive model
 * names its pages (cdl_t2a, cdl_t2b) by built-in name or file path.
 */
#ifndef NCQSIM_DISK_CDLPAGE_H
#define NCQSIM_DISK_CDLPAGE_H

#include <stdbool.h>

#include "ata/cdl.h"
#include "util/err.h"

/* Parse a page; `file` names it in messages ("t2a.cdl:7: ..."). t2a selects the page kind. */
int disk_cdl_page_parse(const char *text, const char *file, bool t2a, struct ata_cdl_log *l,
			struct err *e);

/* "none" (no limits), a built-in page name, or a file; into l's read (T2A) or write side. */
int disk_cdl_page_load(const char *name_or_path, bool t2a, struct ata_cdl_log *l,
		       struct err *e);

#endif
