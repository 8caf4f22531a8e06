/*
 * Time never goes backwards: scheduling an event before sim_now() is a
 * simulator bug and must abort, not be silently accepted. Run in a child.
 */
#include "testlib.h"
#include "sim/sim.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static void noop(struct sim *sim, void *arg)
{
	(void)sim;
	(void)arg;
}

static void schedule_in_past(struct sim *sim, void *arg)
{
	(void)arg;
	sim_at(sim, sim_now(sim) - 1, noop, NULL);
}

int main(void)
{
	pid_t pid;
	int status = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sim sim;

		/* Keep the sanitizer runtime and the assertion message quiet. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		sim_init(&sim);
		sim_at(&sim, 100, schedule_in_past, NULL);
		sim_run(&sim, SIM_FOREVER);
		_exit(0);	/* reaching here is the failure */
	}
	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
		  "child should abort, status 0x%x", status);
	return test_done();
}
