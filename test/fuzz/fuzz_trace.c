/*
 * libFuzzer target: every trace format's reader (with and without
 * skip_bad, Q and D events) on the input written to a scratch file, and
 * the --prio rule parser on its first line.
 */
#include "run/replay.h"
#include "trace/trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], rule[128];
	const struct plugin *p;
	struct replay_rule r;
	struct err e;
	unsigned i, pass;
	size_t n;
	FILE *f;

	n = size < sizeof(rule) - 1 ? size : sizeof(rule) - 1;
	memcpy(rule, data, n);
	rule[n] = '\0';
	replay_rule_parse(rule, &r, &e);
	snprintf(path, sizeof(path), "/tmp/fuzz_trace.%d", (int)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	for (i = 0; (p = plugin_at(&trace_formats, i)); i++)
		for (pass = 0; pass < 3; pass++) {
			struct trace_opts o;
			struct trace_reader *rd;
			struct trace_record rec;
			unsigned k = 0;

			memset(&o, 0, sizeof(o));
			o.skip_bad = pass == 1;
			o.at_dispatch = pass == 2;
			o.replay_align = pass == 2 ? 4096 : 0;
			o.replay_scale = pass == 2 ? 3 : 0;
			rd = trace_open(path, pass ? p->name : "auto", &o, &e);
			while (rd && k++ < 100000 && trace_next(rd, &rec, &e) == 1)
				;
			trace_close(rd);
		}
	unlink(path);
	return 0;
}
