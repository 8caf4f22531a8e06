/*
 * Every broken job file under test/data/broken gives its expected one-line
 * message — naming file and line — and never crashes. Each file's last
 * line is "; expect: <text the message must contain>".
 */
#include "testlib.h"
#include "workload/job.h"

#include <dirent.h>
#include <stdlib.h>

int main(void)
{
	const char *dir = test_data("broken");
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned n = 0;

	CHECK_MSG(d != NULL, "cannot open %s", dir);
	while (d && (de = readdir(d))) {
		char path[512], *text, *expect;
		struct workload w;
		struct err e = { "" };
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".fio"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		text = test_slurp(path, NULL);
		expect = text ? strstr(text, "; expect: ") : NULL;
		CHECK_MSG(expect != NULL, "%s: no '; expect:' line", de->d_name);
		if (!expect) {
			free(text);
			continue;
		}
		expect += 10;
		expect[strcspn(expect, "\n")] = '\0';
		CHECK_MSG(workload_load(&w, path, NULL, &e) != 0, "%s: accepted", de->d_name);
		CHECK_MSG(strstr(e.msg, expect) != NULL, "%s: message '%s' lacks '%s'", de->d_name,
			  e.msg, expect);
		CHECK_MSG(strstr(e.msg, de->d_name) != NULL, "%s: message '%s' does not name the file",
			  de->d_name, e.msg);
		CHECK_MSG(!strchr(e.msg, '\n'), "%s: message is not one line", de->d_name);
		free(text);
		n++;
	}
	if (d)
		closedir(d);
	CHECK_MSG(n >= 40, "only %u broken job files", n);
	printf("%u broken job files\n", n);
	return test_done();
}
