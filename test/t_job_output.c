/*
 * The output has fio 3.33's shapes: for every fio sample (same job file,
 * run by ncqsim), the JSON parses and contains every key fio wrote — per
 * job, per direction, per priority entry, and the JSON+ bins — and the
 * normal text has fio's line shapes.
 */
#include "testlib.h"
#include "json.h"
#include "run/runner.h"

#include <regex.h>
#include <stdlib.h>

static char *run_job(const char *sample, unsigned formats, const char *set)
{
	struct workload w;
	struct host_config cfg;
	struct runner_opts ro;
	struct runner_result res;
	struct err e;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(&ro, 0, sizeof(ro));
	ro.seed = 1;
	ro.runtime_cap = 1000000000LL;
	host_config_init(&cfg);
	if (set)
		host_config_set(&cfg, set, &e);
	if (workload_load(&w, test_data(sample), NULL, &e)) {
		CHECK_MSG(0, "%s: %s", sample, e.msg);
		return NULL;
	}
	if (runner_run(&w, &cfg, &ro, &res, &e)) {
		CHECK_MSG(0, "%s: %s", sample, e.msg);
		workload_free(&w);
		return NULL;
	}
	f = open_memstream(&text, &len);
	if (formats & REPORT_NORMAL)
		report_write_header(f, &res.report);
	report_write(f, &res.report, formats);
	fclose(f);
	runner_result_free(&res);
	workload_free(&w);
	return text;
}

static unsigned compared;

/* Every key of fio's object is in ours (recursively; values of percentiles not). */
static void same_keys(const struct json *fio, const struct json *ours, const char *where)
{
	size_t i;

	if (!fio || !ours)
		return;
	if (fio->type == JSON_OBJECT) {
		if (ours->type != JSON_OBJECT) {
			CHECK_MSG(0, "%s: not an object", where);
			return;
		}
		for (i = 0; i < fio->len; i++) {
			char sub[512];
			const struct json *o = json_get(ours, fio->keys[i]);

			snprintf(sub, sizeof(sub), "%s.%s", where, fio->keys[i]);
			compared++;
			CHECK_MSG(o != NULL, "%s: missing", sub);
			if (!strcmp(fio->keys[i], "percentile") || !strcmp(fio->keys[i], "bins"))
				continue;
			same_keys(fio->items[i], o, sub);
		}
	} else if (fio->type == JSON_ARRAY && fio->len) {
		if (ours->type != JSON_ARRAY || !ours->len) {
			CHECK_MSG(0, "%s: not a non-empty array", where);
			return;
		}
		same_keys(fio->items[0], ours->items[0], where);
	}
}

static void check_sample(const char *job, const char *fio_json, unsigned formats,
			 unsigned njobs)
{
	char *ours_text = run_job(job, formats, NULL), *fio_text = test_slurp(test_data(fio_json), NULL);
	struct json *ours, *fio;
	char err[256];

	if (!ours_text || !fio_text) {
		CHECK_MSG(0, "%s: nothing to compare", job);
		free(ours_text);
		free(fio_text);
		return;
	}
	ours = json_parse(ours_text, err, sizeof(err));
	CHECK_MSG(ours != NULL, "%s: our JSON does not parse: %s", job, err);
	fio = json_parse_embedded(fio_text, err, sizeof(err));
	CHECK_MSG(fio != NULL, "%s: %s", fio_json, err);
	if (ours && fio) {
		struct json *v = json_get(ours, "fio version");

		same_keys(fio, ours, job);
		CHECK(v && v->text && !strncmp(v->text, "ncqsim-", 7));
		CHECK_EQ_INT(json_get(ours, "jobs")->len, njobs);
		CHECK(json_at(ours, "ncqsim.drive") != NULL);
		CHECK(json_at(ours, "ncqsim.seed") != NULL);
		CHECK(json_at(ours, "ncqsim.simulated_seconds") != NULL);
		CHECK(json_at(ours, "jobs.0.ncqsim") != NULL);
	}
	json_free(ours);
	json_free(fio);
	free(ours_text);
	free(fio_text);
}

static void check_text(void)
{
	static const char *shapes[] = {
		"^fg: \\(g=0\\): rw=randread, bs=\\(R\\) 4096B-4096B, \\(W\\) 4096B-4096B, \\(T\\) "
		"4096B-4096B, ioengine=psync, iodepth=1$",
		"^ncqsim-0\\.1$",
		"^Starting 2 processes$",
		"^fg: \\(groupid=0, jobs=1\\): err= 0: pid=[0-9]+: ",
		"^  read: IOPS=[0-9.]+k?, BW=[0-9.]+[KM]iB/s \\([0-9.]+[kM]B/s\\)\\([0-9.]+[KM]iB/[0-9]+msec\\)$",
		"^    clat \\((nsec|usec|msec)\\): min=[0-9]+k?, max=[0-9]+k?, avg=[0-9. ]+[0-9], stdev=",
		"^     lat \\((nsec|usec|msec)\\): min=",
		"^    slat \\((nsec|usec|msec)\\): min=",
		"^    clat percentiles \\((nsec|usec|msec)\\):$",
		"^     \\|  1\\.00th=\\[ *[0-9]+\\],  5\\.00th=\\[ *[0-9]+\\], 10\\.00th=\\[ *[0-9]+\\], "
		"20\\.00th=\\[ *[0-9]+\\],$",
		"^     \\| 99\\.99th=\\[ *[0-9]+\\]$",
		"^   bw \\(  KiB/s\\): min= *[0-9]+, max= *[0-9]+, per=[0-9.]+%, avg=[0-9. ]+, stdev=[0-9. ]+, samples=[0-9]+$",
		"^   iops        : min= *[0-9]+, max= *[0-9]+, avg=[0-9. ]+, stdev=[0-9. ]+, samples=[0-9]+$",
		"^  lat \\((usec|msec)\\)   : [0-9]+=[0-9.]+%",
		"^  cpu          : usr=[0-9.]+%, sys=[0-9.]+%, ctx=[0-9]+, majf=[0-9]+, minf=[0-9]+$",
		"^  IO depths    : 1=[0-9.]+%, 2=[0-9.]+%, 4=[0-9.]+%, 8=[0-9.]+%, 16=[0-9.]+%, 32=[0-9.]+%, >=64=[0-9.]+%$",
		"^     submit    : 0=[0-9.]+%, 4=",
		"^     complete  : 0=[0-9.]+%, 4=",
		"^     issued rwts: total=[0-9]+,0,0,0 short=0,0,0,0 dropped=0,0,0,0$",
		"^     latency   : target=0, window=0, percentile=100\\.00%, depth=32$",
		"^Run status group 0 \\(all jobs\\):$",
		"^   READ: bw=[0-9.]+[KM]iB/s \\([0-9.]+[kM]B/s\\), [0-9.]+[KM]iB/s-[0-9.]+[KM]iB/s "
		"\\([0-9.]+[kM]B/s-[0-9.]+[kM]B/s\\), io=[0-9.]+[KM]iB \\([0-9.]+[kM]B\\), run=[0-9]+-[0-9]+msec$",
		"^Disk stats \\(read/write\\):$",
		"^  sda: ios=[0-9]+/[0-9]+, merge=[0-9]+/[0-9]+, ticks=[0-9]+/[0-9]+, in_queue=[0-9]+, util=[0-9.]+%$",
	};
	char *text = run_job("fio-samples/b_prio_io_uring.fio", REPORT_NORMAL, NULL);
	size_t i;

	if (!text)
		return;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		regex_t re;

		CHECK(regcomp(&re, shapes[i], REG_EXTENDED | REG_NEWLINE | REG_NOSUB) == 0);
		CHECK_MSG(regexec(&re, text, 0, NULL, 0) == 0, "no line like /%s/ in:\n%s", shapes[i],
			  i == 0 ? text : "(see above)");
		regfree(&re);
	}
	free(text);

	/* Two priorities in one job: the "clat prio C/L" blocks. */
	text = run_job("fio-samples/c_cmdprio_io_uring.fio", REPORT_NORMAL, NULL);
	if (text) {
		CHECK(strstr(text, "    clat prio 0/0 (") != NULL);
		CHECK(strstr(text, "    clat prio 1/0 (") != NULL);
		CHECK(strstr(text, "    clat prio 1/0 (") && strstr(text, "% of IOs) percentiles ("));
	}
	free(text);
}

int main(void)
{
	check_sample("fio-samples/a_randread_psync.fio", "fio-samples/a_randread_psync.json",
		     REPORT_JSON, 1);
	check_sample("fio-samples/a_randread_psync.fio", "fio-samples/a_randread_psync.jsonplus.json",
		     REPORT_JSONPLUS, 1);
	check_sample("fio-samples/b_prio_io_uring.fio", "fio-samples/b_prio_io_uring.json",
		     REPORT_JSON, 2);
	check_sample("fio-samples/c_cmdprio_io_uring.fio", "fio-samples/c_cmdprio_io_uring.json",
		     REPORT_JSON, 1);
	check_sample("fio-samples/c_cmdprio_io_uring.fio",
		     "fio-samples/c_cmdprio_io_uring.jsonplus.json", REPORT_JSONPLUS, 1);
	check_sample("fio-samples/d_prio_group_reporting.fio",
		     "fio-samples/d_prio_group_reporting.normal_json.txt", REPORT_JSON, 1);
	check_text();
	printf("%u fio keys found in ncqsim's JSON\n", compared);
	return test_done();
}
