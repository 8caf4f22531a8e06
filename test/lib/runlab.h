/*
 * runlab — running ncqsim from a test: a job file's text through the
 * runner in-process, or the built binary ($NCQSIM) with its JSON parsed.
 */
#ifndef NCQSIM_RUNLAB_H
#define NCQSIM_RUNLAB_H

#include <stdint.h>

#include "json.h"
#include "run/runner.h"

/*
 * Run `jobtext` on the default host (he8) with one --set assignment (or
 * NULL) and `seed`. A failure is a failed check; returns -1 then.
 */
int runlab_run(const char *jobtext, const char *set, uint64_t seed, struct runner_result *res);

/* Everything a shell command prints on stdout; NULL (and a message) if it fails. */
char *runlab_command(const char *cmd);
/* The same for a command that must exit with `want_status` (1: a job ended with an error). */
char *runlab_command_exit(const char *cmd, int want_status);

/*
 * `$NCQSIM ARGS --output-format=json --quiet`, parsed; NULL (a failed
 * check) when it fails or its JSON does not parse. Free with json_free().
 */
struct json *runlab_json(const char *args);

#endif
