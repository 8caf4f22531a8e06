#include "runlab.h"

#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int runlab_run(const char *jobtext, const char *set, uint64_t seed, struct runner_result *res)
{
	struct workload w;
	struct host_config cfg;
	struct runner_opts ro;
	struct err e;

	memset(&ro, 0, sizeof(ro));
	ro.seed = seed;
	host_config_init(&cfg);
	if (set && host_config_set(&cfg, set, &e)) {
		CHECK_MSG(0, "%s", e.msg);
		return -1;
	}
	if (workload_load_text(&w, jobtext, "t.fio", NULL, &e)) {
		CHECK_MSG(0, "%s", e.msg);
		return -1;
	}
	if (runner_run(&w, &cfg, &ro, res, &e)) {
		CHECK_MSG(0, "%s", e.msg);
		workload_free(&w);
		return -1;
	}
	workload_free(&w);
	return 0;
}

char *runlab_command(const char *cmd)
{
	return runlab_command_exit(cmd, 0);
}

char *runlab_command_exit(const char *cmd, int want_status)
{
	FILE *f = popen(cmd, "r");
	int status;
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f) {
		CHECK_MSG(0, "cannot run %s", cmd);
		return NULL;
	}
	for (;;) {
		if (len + 65536 > cap) {
			char *more;

			cap = cap ? cap * 2 : 1 << 20;
			more = realloc(buf, cap);
			if (!more)
				break;
			buf = more;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	status = pclose(f);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != want_status || !buf) {
		CHECK_MSG(0, "failed (status %d, expected exit %d): %s", status, want_status, cmd);
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

struct json *runlab_json(const char *args)
{
	const char *bin = getenv("NCQSIM");
	char cmd[2048], err[128];
	struct json *root;
	char *out;

	snprintf(cmd, sizeof(cmd), "'%s' %s --output-format=json --quiet", bin ? bin : "./ncqsim",
		 args);
	out = runlab_command(cmd);
	if (!out)
		return NULL;
	root = json_parse(out, err, sizeof(err));
	CHECK_MSG(root != NULL, "bad JSON from %s: %s", cmd, err);
	free(out);
	return root;
}
