/*
 * Building the workload from a job file: [global] sections accumulate for
 * the jobs below them, each job applies its own lines on top, options are
 * typed through the option table, and what fio would refuse (or what
 * ncqsim cannot simulate) stops here with file, line and option.
 */
#include "workload/job.h"

#include "workload/jobfile.h"
#include "util/parse.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static void echo_opt(struct report_opt *opts, unsigned *n, const char *key, const char *value)
{
	const struct opt_def *d = opt_find(job_option_table(), key);
	unsigned i;

	if (!value)
		return;		/* fio drops bare flags from "job options" */
	if (d)
		key = d->name;	/* fio echoes an alias under the option's own name (timeout: runtime) */
	for (i = 0; i < *n; i++)
		if (!strcmp(opts[i].key, key))
			break;
	if (i == *n) {
		if (*n == REPORT_MAX_OPTS)
			return;
		(*n)++;
	}
	parse_copy(opts[i].key, sizeof(opts[i].key), key);
	parse_copy(opts[i].value, sizeof(opts[i].value), value);
}

static int apply_line(struct job_options *o, const struct jobfile_line *l, FILE *warn,
		      struct err *e)
{
	const char *w;

	if (job_option_set(o, l->key, l->value, e))
		return err_prefix(e, "%s:%d: ", l->file, l->line);
	w = job_option_warning(l->key, l->value);
	if (w && warn)
		fprintf(warn, "ncqsim: warning: %s:%d: %s\n", l->file, l->line, w);
	return 0;
}

/* kb_base changes how sizes read: apply it before anything else, as fio does. */
static int apply_lines(struct job_options *o, const struct jobfile_line *lines, size_t n,
		       FILE *warn, struct err *e)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(lines[i].key, "kb_base") && apply_line(o, &lines[i], warn, e))
			return -1;
	for (i = 0; i < n; i++)
		if (strcmp(lines[i].key, "kb_base") && apply_line(o, &lines[i], warn, e))
			return -1;
	return 0;
}

static bool uses_cmdprio(const struct job_options *o)
{
	return o->cmdprio_percentage[0] || o->cmdprio_percentage[1] || o->ncmdprio_bssplit[0] ||
		o->ncmdprio_bssplit[1];
}

/* /dev/sg followed by digits only: the name the sg driver gives a SCSI device's node. */
static bool is_sg_node(const char *filename)
{
	size_t n = strcspn(filename, ":");	/* fio's list of files: the first */

	if (n <= 7 || strncmp(filename, "/dev/sg", 7))
		return false;
	return strspn(filename + 7, "0123456789") == n - 7;
}

/*
 * fio's sg engine on the sg driver's node of the simulated disk
 * (filename=/dev/sgN, as /dev/sdX names its block device): with direct=1
 * or sync, fio_sgio_rw_doio() writes each sg header and reads its answer
 * back at once, one I/O at a time; without (fio's default) it returns and
 * fio_sgio_getevents() reaps later: an async engine, iodepth in flight.
 */
static void sg_node_setup(struct job_options *o)
{
	o->sg_node = o->sg && is_sg_node(o->filename);
	if (o->sg_node && !o->direct && !o->sync_mode)
		o->engine_kind = JOB_ENGINE_ASYNC;
}

/* Cross-option checks that need no drive. */
static int validate(const struct job_def *d, struct err *e)
{
	const struct job_options *o = &d->o;
	unsigned dir;

	if (o->engine_kind == JOB_ENGINE_SYNC && uses_cmdprio(o))
		return err_set(e, "%s:%d: job '%s': cmdprio options are options of the libaio and "
			       "io_uring engines, not of '%s'", d->file, d->line, o->name, o->ioengine);
	/* fio 3.33 aborts on an assertion (verify_io_u_pattern()) for verify=pattern without one. */
	if (o->verify == JOB_VERIFY_PATTERN && !o->verify_pattern_set)
		return err_set(e, "%s:%d: job '%s': option 'verify': pattern needs verify_pattern "
			       "(fio 3.33 aborts on an assertion without it)", d->file, d->line, o->name);
	/*
	 * fio 3.33 aborts on an assertion (fio_ro_check()) when a job that
	 * writes but does not trim issues the trims of its backlog.
	 */
	if (o->verify && o->do_verify && o->trim_backlog && o->trim_percentage &&
	    (o->rw == JOB_RW_WRITE || o->rw == JOB_RW_RANDWRITE || o->rw == JOB_RW_RW ||
	     o->rw == JOB_RW_RANDRW))
		return err_set(e, "%s:%d: job '%s': option 'trim_backlog': needs rw=trimwrite or "
			       "randtrimwrite (fio 3.33 aborts on an assertion when a job that does "
			       "not trim issues its trims)", d->file, d->line, o->name);
	/*
	 * fio 3.33 aborts on an assertion (block_state_category()) when it
	 * sorts the block states of a job that trims: its trims leave a state
	 * its report does not know.
	 */
	if (o->block_error_percentiles &&
	    (o->rw == JOB_RW_TRIM || o->rw == JOB_RW_RANDTRIM || o->rw == JOB_RW_TRIMWRITE ||
	     o->rw == JOB_RW_RANDTRIMWRITE))
		return err_set(e, "%s:%d: job '%s': option 'block_error_percentiles': not with a "
			       "job that trims (fio 3.33 aborts on an assertion when it reports "
			       "one)", d->file, d->line, o->name);
	/*
	 * fio_sgio_queue() on the sg node batches trims into one UNMAP per
	 * commit (fio_sgio_commit()), which is not modelled; on a SATA disk
	 * libata refuses UNMAP, so each fails with EIO either way.
	 */
	if (o->sg_node && (o->rw == JOB_RW_TRIM || o->rw == JOB_RW_RANDTRIM ||
			   o->rw == JOB_RW_TRIMWRITE || o->rw == JOB_RW_RANDTRIMWRITE))
		return err_set(e, "%s:%d: job '%s': option 'rw': trims on the sg node '%s': fio "
			       "gathers them into UNMAP commands at each commit, which ncqsim does "
			       "not model (libata refuses UNMAP: EIO); trim through the block device "
			       "(/dev/sdX)", d->file, d->line, o->name, o->filename);
	/*
	 * fio_sgio_open(): write_stream without a stream_id first opens one
	 * with STREAM CONTROL, which libata refuses (ata_scsi_simulate():
	 * SERVICE ACTION IN(16) is READ CAPACITY(16) only), and the open then
	 * fails with no error recorded (td->error 0), so fio's setup prints an
	 * empty error line and reaps the job unrun — output that cannot be
	 * checked without a SCSI device to run fio on.
	 */
	if (o->sg && o->sg_write_mode == JOB_SG_WRITE_STREAM && !o->stream_id)
		return err_set(e, "%s:%d: job '%s': option 'sg_write_mode': write_stream without "
			       "stream_id: fio first opens a stream (STREAM CONTROL), which libata "
			       "refuses, and fails the job's file setup without an error to report; "
			       "give stream_id (each WRITE STREAM(16) then fails with EIO)",
			       d->file, d->line, o->name);
	/*
	 * A VERIFY writes nothing: fio's read-back would check whatever the
	 * disk held before, which ncqsim does not model (it has no data).
	 */
	if (o->sg && o->verify && o->sg_write_mode >= JOB_SG_VERIFY_BYTCHK_00 &&
	    o->sg_write_mode <= JOB_SG_VERIFY_BYTCHK_11)
		return err_set(e, "%s:%d: job '%s': option 'verify': not with sg_write_mode=verify_*: "
			       "its writes are SCSI VERIFY commands that write nothing, so fio's "
			       "read-back checks what the disk held before, which ncqsim does not "
			       "model", d->file, d->line, o->name);
	if (o->verify && o->verify_only && o->time_based)
		return err_set(e, "%s:%d: job '%s': option 'verify_only': not with time_based (fio: "
			       "its read phase never starts; the dry writes take no simulated time)",
			       d->file, d->line, o->name);
	if (o->time_based && !o->runtime)
		return err_set(e, "%s:%d: job '%s': time_based needs a runtime", d->file, d->line,
			       o->name);
	/* fio: "rate and rate_iops are mutually exclusive", the minimums alike. */
	if ((o->rate_min[0] || o->rate_min[1]) && (o->rate_iops_min[0] || o->rate_iops_min[1]))
		return err_set(e, "%s:%d: job '%s': options 'rate_min' and 'rate_iops_min' both set a "
			       "minimum rate: give one", d->file, d->line, o->name);
	if (o->merge_blktrace_file[0] && !o->read_iolog[0])
		return err_set(e, "%s:%d: job '%s': option 'merge_blktrace_file': it merges the "
			       "blktrace files read_iolog names, and the job has no read_iolog",
			       d->file, d->line, o->name);
	if (!o->merge_blktrace_file[0] && (o->nmerge_scalars || o->nmerge_iters))
		return err_set(e, "%s:%d: job '%s': option '%s': it applies to merge_blktrace_file, "
			       "which the job does not give (fio ignores it then)", d->file, d->line,
			       o->name, o->nmerge_scalars ? "merge_blktrace_scalars" :
			       "merge_blktrace_iters");
	/* fio 3.33 logs memory addresses in place of a compressed histogram log's counts. */
	if (o->write_hist_log[0] && (o->log_compression || o->log_store_compressed))
		return err_set(e, "%s:%d: job '%s': option 'write_hist_log': with %s fio 3.33 writes "
			       "memory addresses in place of the histogram's counts, which a "
			       "simulation cannot reproduce; give the histogram log in a job without "
			       "it", d->file, d->line, o->name, o->log_compression ?
			       "log_compression" : "log_store_compressed");
	for (dir = 0; dir < DDIR_COUNT; dir++) {
		unsigned i, sum = 0;

		for (i = 0; i < o->ncmdprio_bssplit[dir]; i++)
			sum += o->cmdprio_bssplit[dir][i].pct;
		(void)sum;	/* entries of one size may sum to at most 100 */
		for (i = 0; i < o->ncmdprio_bssplit[dir]; i++) {
			unsigned k, same = 0;

			for (k = 0; k < o->ncmdprio_bssplit[dir]; k++)
				if (o->cmdprio_bssplit[dir][k].bs == o->cmdprio_bssplit[dir][i].bs)
					same += o->cmdprio_bssplit[dir][k].pct;
			if (same > 100)
				return err_set(e, "%s:%d: job '%s': option 'cmdprio_bssplit': the "
					       "percentages for one block size add up to %u, more than 100",
					       d->file, d->line, o->name, same);
		}
		if (o->rate[dir] && o->rate_iops[dir])
			return err_set(e, "%s:%d: job '%s': options 'rate' and 'rate_iops' both cap the "
				       "%s rate: give one", d->file, d->line, o->name,
				       dir == DDIR_READ ? "read" : "write");
		/* fio refuses these too ("minimum rate exceeds rate"). */
		if ((o->rate_min[dir] && o->rate[dir] && o->rate_min[dir] > o->rate[dir]) ||
		    (o->rate_iops_min[dir] && o->rate_iops[dir] &&
		     o->rate_iops_min[dir] > o->rate_iops[dir]))
			return err_set(e, "%s:%d: job '%s': option '%s' asks for more than '%s' allows "
				       "for %s: the minimum rate exceeds the rate", d->file, d->line,
				       o->name, o->rate_min[dir] ? "rate_min" : "rate_iops_min",
				       o->rate_min[dir] ? "rate" : "rate_iops",
				       dir == DDIR_READ ? "reads" : "writes");
		if (o->bsrange && o->bs_min[dir] == 0)
			return err_set(e, "%s:%d: job '%s': option 'bsrange' is empty", d->file, d->line,
				       o->name);
	}
	return 0;
}

/*
 * fio's wait_for_ok(): the job waited for is one defined before this one,
 * not this one itself, and the only one of its name (fio 3.33 refuses two
 * earlier ones, and waits forever for a later one of the same name).
 */
static int check_wait_for(const struct workload *w, struct err *e)
{
	unsigned i, k;

	for (i = 0; i < w->ndefs; i++) {
		const struct job_def *d = &w->defs[i];
		const char *want = d->o.wait_for;
		unsigned before = 0, all = 0;

		if (!want[0])
			continue;
		if (!strcmp(want, d->o.name))
			return err_set(e, "%s:%d: job '%s': option 'wait_for': a job cannot wait for "
				       "itself", d->file, d->line, d->o.name);
		for (k = 0; k < w->ndefs; k++) {
			if (strcmp(w->defs[k].o.name, want))
				continue;
			all++;
			before += k < i;
		}
		if (!before)
			return err_set(e, "%s:%d: job '%s': option 'wait_for': no job '%s' before this "
				       "one (fio waits only for a job defined earlier)", d->file, d->line,
				       d->o.name, want);
		if (all > 1)
			return err_set(e, "%s:%d: job '%s': option 'wait_for': %u jobs are named '%s'; "
				       "the job waited for must be the only one of its name, as fio 3.33 "
				       "requires", d->file, d->line, d->o.name, all, want);
	}
	return 0;
}

/* What fio's td_steadystate_init() keeps of the options: all zero without a window. */
static bool same_steadystate(const struct job_options *a, const struct job_options *b)
{
	if (!a->ss_dur || !b->ss_dur)
		return !a->ss_dur && !b->ss_dur;
	return a->ss_dur / 1000000000LL == b->ss_dur / 1000000000LL && a->ss_flags == b->ss_flags &&
		a->ss_limit == b->ss_limit && a->ss_ramp / 1000 == b->ss_ramp / 1000;
}

/*
 * fio: "steadystate options must be consistent within reporting groups".
 * A group's jobs follow each other, so each is compared with the one before.
 */
static int check_steadystate(const struct workload *w, struct err *e)
{
	unsigned i;

	for (i = 1; i < w->ndefs; i++) {
		const struct job_def *d = &w->defs[i], *o = &w->defs[i - 1];

		if (d->groupid == o->groupid && !same_steadystate(&d->o, &o->o))
			return err_set(e, "%s:%d: job '%s': option 'steadystate': the steady-state "
				       "options (steadystate, steadystate_duration, "
				       "steadystate_ramp_time) differ from job '%s''s in reporting group "
				       "%d; fio 3.33 rejects the job: they must be the same within a "
				       "group", d->file, d->line, d->o.name, o->o.name, d->groupid);
	}
	return 0;
}

/*
 * fio parses a section's engine options once its other lines are in (its
 * ioengine among them), against the engine in effect then, and refuses
 * one that engine lacks ("Bad option"): so a [global] engine option needs
 * the [global] engine, and a job's the job's.
 */
static int check_engine_options(const struct job_options *o, const struct jobfile_section *sec,
				struct err *e)
{
	size_t i;

	for (i = 0; i < sec->nlines; i++) {
		const struct jobfile_line *l = &sec->lines[i];
		const char *engines = job_engine_option_lacking(o, l->key);

		if (engines) {
			/* "a b c" as "a, b and c" */
			char list[128];
			const char *last = strrchr(engines, ' ');
			size_t c, n = 0;

			for (c = 0; engines[c] && n + 6 < sizeof(list); c++) {
				if (engines + c == last) {
					memcpy(list + n, " and ", 5);
					n += 5;
				} else if (engines[c] == ' ') {
					list[n++] = ',';
					list[n++] = ' ';
				} else {
					list[n++] = engines[c];
				}
			}
			list[n] = '\0';
			return err_set(e, "%s:%d: option '%s' is an option of the %s engine%s, not of "
				       "'%s' (fio 3.33: Bad option)", l->file, l->line, l->key, list,
				       last ? "s" : "", o->ioengine);
		}
	}
	return 0;
}

/*
 * Room for one more def, which build() fills in place and counts once it
 * is valid. The defs grow geometrically: a file of many sections loads in
 * linear time.
 */
static int reserve_def(struct workload *w, size_t *cap, struct err *e)
{
	if (w->ndefs == *cap) {
		size_t ncap = *cap ? 2 * *cap : 8;
		struct job_def *nd = realloc(w->defs, ncap * sizeof(*nd));

		if (!nd)
			return err_set(e, "out of memory while reading the job file (%u jobs)", w->ndefs);
		w->defs = nd;
		*cap = ncap;
	}
	return 0;
}

/*
 * Jobs past WORKLOAD_MAX_JOBS are refused before any is typed, so a huge
 * file fails at once; numjobs clones are counted as each job is built.
 */
static int count_jobs(const struct jobfile *jf, struct err *e)
{
	size_t s, n = 0;

	for (s = 0; s < jf->nsections; s++) {
		const struct jobfile_section *sec = &jf->sections[s];

		n += !sec->global;
		if (n > WORKLOAD_MAX_JOBS)
			return err_set(e, "%s:%d: job '%s': more than %d job sections; ncqsim runs at "
				       "most %d jobs", sec->file, sec->line, sec->name,
				       WORKLOAD_MAX_JOBS, WORKLOAD_MAX_JOBS);
	}
	return 0;
}

/* fio's --section: only the jobs named (every job when none is). */
struct section_filter {
	const char *const *names;
	size_t n;
	unsigned first_file;	/* the source of the first job file */
};

static bool section_wanted(const struct section_filter *f, const char *name)
{
	size_t i;

	if (!f || !f->n)
		return true;
	for (i = 0; i < f->n; i++)
		if (!strcmp(f->names[i], name))
			return true;
	return false;
}

/*
 * build() copies a job's options over its first bytes and zeroes what
 * follows its options as written (opts): those are read only up to nopts
 * (echo_opt() writes each before counting it), and zeroing the unused
 * entries would cost 41 KB a job.
 */
_Static_assert(offsetof(struct job_def, o) == 0, "struct job_def starts with its options");
_Static_assert(offsetof(struct job_def, opts) == sizeof(struct job_options),
	       "struct job_def: opts right after the options");
_Static_assert(offsetof(struct job_def, nopts) ==
	       offsetof(struct job_def, opts) + sizeof(((struct job_def *)0)->opts),
	       "struct job_def: nopts right after opts");
/* The same for a workload's global_opts, read up to nglobal. */
_Static_assert(offsetof(struct workload, nglobal) ==
	       offsetof(struct workload, global_opts) + sizeof(((struct workload *)0)->global_opts),
	       "struct workload: nglobal right after global_opts");

/* An empty workload: every member zeroed but the global options past nglobal (= 0). */
static void workload_clear(struct workload *w)
{
	memset(w, 0, offsetof(struct workload, global_opts));
	memset(&w->nglobal, 0, sizeof(*w) - offsetof(struct workload, nglobal));
}

static int build(struct workload *w, const struct jobfile *jf, const struct section_filter *only,
		 FILE *warn, struct err *e)
{
	size_t s, cap = 0;
	int groupid = 0;
	unsigned segment = 0;
	struct job_def *d;
	struct job_options *tmpl;
	unsigned stonewall_source = 0;	/* the last file whose first job was stonewalled */

	/* w: workload_clear()ed by the caller, before it read the files. */
	if (count_jobs(jf, e))
		return -1;

	tmpl = malloc(sizeof(*tmpl));
	if (!tmpl) {
		return err_set(e, "out of memory");
	}
	job_options_defaults(tmpl);
	for (s = 0; s < jf->nsections; s++) {
		const struct jobfile_section *sec = &jf->sections[s];
		size_t i;

		/*
		 * fio reads every job file after the first from its defaults: the
		 * [global] sections of earlier files and the command line's global
		 * options do not reach it.
		 */
		if (only && sec->source > only->first_file && s &&
		    jf->sections[s - 1].source != sec->source)
			job_options_defaults(tmpl);
		if (sec->global) {
			/* Typed once, into the template the jobs below start from (fio's def_thread). */
			if (apply_lines(tmpl, sec->lines, sec->nlines, warn, e) ||
			    check_engine_options(tmpl, sec, e))
				goto fail;
			for (i = 0; i < sec->nlines; i++) {
				echo_opt(w->global_opts, &w->nglobal, sec->lines[i].key,
					 sec->lines[i].value);
			}
			continue;
		}
		if (!section_wanted(only, sec->name))
			continue;
		if (reserve_def(w, &cap, e))
			goto fail;
		d = &w->defs[w->ndefs];
		/* The options from the template, the rest but opts zeroed (see the asserts above). */
		d->o = *tmpl;
		memset(&d->nopts, 0, sizeof(*d) - offsetof(struct job_def, nopts));
		/* fio names a job after its section; a name= in [global] does not rename it. */
		parse_copy(d->o.name, sizeof(d->o.name), sec->name);
		parse_copy(d->file, sizeof(d->file), sec->file);
		d->line = sec->line;
		if (apply_lines(&d->o, sec->lines, sec->nlines, warn, e) ||
		    check_engine_options(&d->o, sec, e))
			goto fail;
		/* fio: the first job of every job file after the first waits for those before. */
		if (only && sec->source > only->first_file && sec->source != stonewall_source) {
			d->o.stonewall = true;
			stonewall_source = sec->source;
		}
		for (i = 0; i < sec->nlines; i++)
			echo_opt(d->opts, &d->nopts, sec->lines[i].key, sec->lines[i].value);
		if (w->ndefs && (d->o.stonewall || d->o.new_group))
			groupid++;
		if (w->ndefs && d->o.stonewall)
			segment++;
		d->groupid = groupid;
		d->segment = segment;
		for (i = 0; i < w->ndefs; i++)
			d->occurrence += !strcmp(w->defs[i].o.name, d->o.name);
		sg_node_setup(&d->o);
		if (validate(d, e))
			goto fail;
		w->ndefs++;
		w->njobs += d->o.numjobs;
		if (w->njobs > WORKLOAD_MAX_JOBS) {
			err_set(e, "%s:%d: job '%s': %u jobs counting numjobs clones; ncqsim runs at "
				"most %d", d->file, d->line, d->o.name, w->njobs, WORKLOAD_MAX_JOBS);
			goto fail;
		}
	}
	free(tmpl);
	if (!w->ndefs)
		return err_set(e, "%s: no jobs (only [global] sections, or nothing at all)",
			       jf->nfiles ? jf->files[0] : "job file");
	if (check_wait_for(w, e) || check_steadystate(w, e)) {
		workload_free(w);
		return -1;
	}
	if (jf->keywords_used && warn) {
		char note[160];

		/* The machine's values make the run depend on the machine: say which were taken. */
		jobfile_keyword_note(jf->keywords_used, note, sizeof(note));
		fprintf(warn, "ncqsim: note: the job files take this machine's %s (fio's keywords)\n",
			note);
	}
	return 0;
fail:
	free(tmpl);
	workload_free(w);
	return -1;
}

int workload_load(struct workload *w, const char *path, FILE *warn, struct err *e)
{
	struct jobfile jf;
	int rc;

	workload_clear(w);
	if (jobfile_read(path, &jf, e))
		return -1;
	rc = build(w, &jf, NULL, warn, e);
	if (!rc) {
		/* The files read are the workload's inputs from now on. */
		w->inputs = jf.files;
		w->ninputs = jf.nfiles;
		jf.files = NULL;
		jf.nfiles = 0;
	}
	jobfile_free(&jf);
	return rc;
}

int workload_load_text(struct workload *w, const char *text, const char *name, FILE *warn,
		       struct err *e)
{
	struct jobfile jf;
	int rc;

	workload_clear(w);
	if (jobfile_parse(text, name, &jf, e))
		return -1;
	rc = build(w, &jf, NULL, warn, e);
	jobfile_free(&jf);
	return rc;
}

int workload_load_sources(struct workload *w, const struct workload_sources *src, FILE *warn,
			  struct err *e)
{
	struct jobfile jf;
	struct section_filter only = { src->sections, src->nsections, src->cmdline ? 1 : 0 };
	size_t i;
	int rc;

	workload_clear(w);
	memset(&jf, 0, sizeof(jf));
	if (src->cmdline && jobfile_add_text(&jf, src->cmdline, "command line", e))
		goto fail;
	for (i = 0; i < src->npaths; i++)
		if (jobfile_add(&jf, src->paths[i], e))
			goto fail;
	if (!jf.nsections) {
		err_set(e, "no jobs: neither a job file nor --name");
		goto fail;
	}
	rc = build(w, &jf, &only, warn, e);
	if (!rc) {
		w->inputs = jf.files;
		w->ninputs = jf.nfiles;
		jf.files = NULL;
		jf.nfiles = 0;
	}
	jobfile_free(&jf);
	return rc;
fail:
	jobfile_free(&jf);
	return -1;
}

void workload_free(struct workload *w)
{
	size_t i;

	for (i = 0; i < w->ninputs; i++)
		free(w->inputs[i]);
	free(w->inputs);
	free(w->defs);
	workload_clear(w);
}
