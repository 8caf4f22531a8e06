/*
 * cmd_doc — every piece of user documentation that describes the command
 * line, printed from one source: each command's struct cmd_doc (its usage
 * forms, text and option rows), the command table, and the option tables
 * of the drive model and the host knobs.
 *
 *   --help                cmd_doc_help()
 *   man pages             cmd_doc_man(): ncqsim(1), ncqsim-NAME(1) for each
 *                         command in the table, ncqsim-drive(5)
 *   bash completion       cmd_doc_bash()
 *
 * The Makefile runs `ncqsim help --man DIR` and `ncqsim help
 * --bash-completion` at build time, so a new command, option, drive, knob
 * or drive key reaches the pages and the completion without an edit here.
 * A command registered without a doc (it prints its own --help) still gets
 * a page and completion: both are taken from its --help text.
 *
 * Man pages use only the man(7) macros and escapes groff knows without
 * warnings (`groff -man -ww -z` is silent on them; CI checks it):
 * '-' is written \-, '\' as \e, a line may not start with '.' or '\'',
 * and every non-ASCII character becomes \[uXXXX].
 */
#include "cli/cmd.h"
#include "cli/cli.h"
#include "cli/datadir.h"

#include "disk/model.h"
#include "host/knobs.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct cmd_opt cmd_help_opt[] = {
	{ "--help", NULL, "this text" },
	CMD_OPT_END,
};

#define OPT_COLUMN 21	/* "  --drive NAME|FILE     help": help starts at column 24 */

static void opt_left(const struct cmd_opt *o, char *buf, size_t len)
{
	if (!o->arg)
		snprintf(buf, len, "%s", o->name);
	else
		snprintf(buf, len, "%s%s%s", o->name, o->arg[0] == '=' ? "" : " ", o->arg);
}

/* ---- --help ---- */

static void help_rows(FILE *out, const struct cmd_opt *o)
{
	for (; o->name; o++) {
		const char *line = o->help, *nl;
		char left[128];
		bool first = true;

		opt_left(o, left, sizeof(left));
		if (strlen(left) > OPT_COLUMN) {
			fprintf(out, "  %s\n", left);
			first = false;
		}
		for (;;) {
			int n;

			nl = strchr(line, '\n');
			n = nl ? (int)(nl - line) : (int)strlen(line);
			if (first)
				fprintf(out, "  %-*s %.*s\n", OPT_COLUMN, left, n, line);
			else
				fprintf(out, "%*s%.*s\n", OPT_COLUMN + 3, "", n, line);
			first = false;
			if (!nl || !nl[1])
				break;
			line = nl + 1;
		}
	}
}

void cmd_doc_help(const char *name, const struct cmd_doc *doc, FILE *out)
{
	unsigned i;

	for (i = 0; doc->usage[i]; i++) {
		const char *u = doc->usage[i];
		/* A form's continuation lines line up under its first word. */
		int indent = (int)(strlen("usage: ncqsim  ") + strlen(name));

		fprintf(out, "%s ncqsim %s%s", i ? "      " : "usage:", name, *u ? " " : "");
		for (; *u; u++) {
			fputc(*u, out);
			if (*u == '\n')
				fprintf(out, "%*s", indent, "");
		}
		fputc('\n', out);
	}
	if (doc->text)
		fprintf(out, "\n%s", doc->text);
	if (doc->options && doc->options[0]) {
		fprintf(out, "\noptions:\n");
		for (i = 0; doc->options[i]; i++)
			help_rows(out, doc->options[i]);
	}
	if (doc->after)
		fprintf(out, "\n%s", doc->after);
}

/* ---- man pages ---- */

/* Write `n` bytes of plain text as roff text (no request, no line end). */
static void roff_text(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	if (p < end && (*p == '.' || *p == '\''))
		fputs("\\&", out);
	while (p < end) {
		unsigned c = *p, cp, extra;

		if (c < 0x80) {
			if (c == '\\')
				fputs("\\e", out);
			else if (c == '-')
				fputs("\\-", out);
			else
				fputc((int)c, out);
			p++;
			continue;
		}
		/* UTF-8: one code point, written as groff's \[uXXXX]. */
		extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
		cp = c & (0x3f >> extra);
		for (p++; extra && p < end && (*p & 0xc0) == 0x80; extra--, p++)
			cp = cp << 6 | (*p & 0x3f);
		fprintf(out, "\\[u%04X]", cp);
	}
}

static void roff_line(FILE *out, const char *s)
{
	roff_text(out, s, strlen(s));
	fputc('\n', out);
}

/* A line with leading blanks taken off (roff would keep them as a break). */
static void roff_fill_line(FILE *out, const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && s[n - 1] == ' ')
		n--;
	if (!n)
		return;
	roff_text(out, s, n);
	fputc('\n', out);
}

/*
 * Paragraphs of plain text: filled, a blank line starting a new paragraph;
 * lines indented by two spaces kept as they are (examples, lists). With
 * `first_pp` false the first paragraph opens without .PP (right after .SH).
 */
static void roff_paragraphs(FILE *out, const char *text, bool first_pp)
{
	enum { NONE, PARA, KEEP } mode = NONE;
	const char *line = text;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		if (n == 0 || strspn(line, " ") == n) {
			if (mode == KEEP)
				fputs(".fi\n.RE\n", out);
			mode = NONE;
		} else if (n >= 2 && line[0] == ' ' && line[1] == ' ') {
			if (mode != KEEP)
				fputs(".RS\n.nf\n", out);
			mode = KEEP;
			roff_text(out, line + 2, n - 2);
			fputc('\n', out);
		} else {
			if (mode == KEEP)
				fputs(".fi\n.RE\n", out);
			if (mode != PARA && (first_pp || mode == KEEP))
				fputs(".PP\n", out);
			first_pp = true;
			mode = PARA;
			roff_fill_line(out, line, n);
		}
		if (!nl)
			break;
		line = nl + 1;
		if (mode == NONE)
			first_pp = true;
	}
	if (mode == KEEP)
		fputs(".fi\n.RE\n", out);
}

static void man_header(FILE *out, const char *name, int section, const char *summary)
{
	char upper[64];
	size_t i;

	for (i = 0; name[i] && i < sizeof(upper) - 1; i++)
		upper[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
	upper[i] = '\0';
	fprintf(out, ".\\\" Generated by 'ncqsim help --man' from the command and option tables;\n"
		".\\\" edit src/cli (or the table the text comes from), not this file.\n");
	fputs(".TH ", out);
	roff_text(out, upper, strlen(upper));
	fprintf(out, " %d \"\" \"ncqsim %s\" \"ncqsim manual\"\n.SH NAME\n", section,
		NCQSIM_VERSION);
	roff_text(out, name, strlen(name));
	fputs(" \\- ", out);
	roff_line(out, summary);
}

static void man_exit_status(FILE *out)
{
	fputs(".SH EXIT STATUS\n"
	      "0 success, 1 a run that failed, 2 bad usage or bad input (the message on\n"
	      "standard error names the file, line and option).\n", out);
}

static void man_see_also(FILE *out, const char *self)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);

	fputs(".SH SEE ALSO\n", out);
	if (strcmp(self, "ncqsim"))
		fputs(".BR ncqsim (1),\n", out);
	for (i = 0; i < n; i++) {
		char page[64];

		snprintf(page, sizeof(page), "ncqsim-%s", table[i].name);
		if (!strcmp(page, self) || !strcmp(table[i].name, "help"))
			continue;
		fputs(".BR ", out);
		roff_text(out, page, strlen(page));
		fputs(" (1),\n", out);
	}
	fputs(".BR ncqsim\\-drive (5),\n.BR fio (1)\n", out);
}

/* "--drive" and "NAME|FILE" as a .TP tag: bold name, italic argument. */
static void man_opt_tag(FILE *out, const struct cmd_opt *o)
{
	fputs(".TP\n\\fB", out);
	roff_text(out, o->name, strlen(o->name));
	fputs("\\fR", out);
	if (o->arg) {
		const char *a = o->arg[0] == '=' ? o->arg + 1 : o->arg;

		fputs(o->arg[0] == '=' ? "=" : " ", out);
		fputs("\\fI", out);
		roff_text(out, a, strlen(a));
		fputs("\\fR", out);
	}
	fputc('\n', out);
}

static void man_opt_help(FILE *out, const char *help)
{
	const char *line = help;

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);

		roff_fill_line(out, line, n);
		if (!nl)
			break;
		line = nl + 1;
	}
}

static FILE *man_open(const char *dir, const char *page, int section)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.%d", dir, page, section);
	f = fopen(path, "w");
	if (!f)
		cli_error("help: %s: cannot write: %s", path, strerror(errno));
	return f;
}

static int man_close(FILE *f, const char *dir, const char *page, int section)
{
	if (ferror(f) | fclose(f)) {
		cli_error("help: %s/%s.%d: write error", dir, page, section);
		return -1;
	}
	return 0;
}

/* A command's --help as it prints it (for a command without a doc). */
static char *captured_help(const struct cmd *c)
{
	char *argv[] = { (char *)c->name, "--help", NULL };
	FILE *tmp = tmpfile();
	char *text = NULL;
	long size;
	int saved;

	if (!tmp)
		return NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0)
		goto out;
	c->fn(2, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	if (fseek(tmp, 0, SEEK_END) || (size = ftell(tmp)) < 0 || fseek(tmp, 0, SEEK_SET))
		goto out;
	text = malloc((size_t)size + 1);
	if (text && fread(text, 1, (size_t)size, tmp) != (size_t)size) {
		free(text);
		text = NULL;
	}
	if (text)
		text[size] = '\0';
out:
	if (saved >= 0)
		close(saved);
	fclose(tmp);
	return text;
}

int cmd_doc_man_command(const char *dir, const struct cmd *c)
{
	const struct cmd_doc *doc = c->doc;
	char page[64];
	unsigned i;
	FILE *f;

	snprintf(page, sizeof(page), "ncqsim-%s", c->name);
	f = man_open(dir, page, 1);
	if (!f)
		return -1;
	man_header(f, page, 1, c->summary);
	fputs(".SH SYNOPSIS\n.nf\n", f);
	if (doc) {
		for (i = 0; doc->usage[i]; i++) {
			fprintf(f, "\\fBncqsim %s\\fR", c->name);
			if (doc->usage[i][0]) {
				const char *u = doc->usage[i], *nl;

				fputc(' ', f);
				/* A form's continuation lines indented, as in --help. */
				while ((nl = strchr(u, '\n'))) {
					roff_text(f, u, (size_t)(nl - u));
					fputs("\n    ", f);
					u = nl + 1;
				}
				roff_text(f, u, strlen(u));
			}
			fputc('\n', f);
		}
		fputs(".fi\n.SH DESCRIPTION\n", f);
		roff_paragraphs(f, doc->text ? doc->text : "", false);
		if (doc->after)
			roff_paragraphs(f, doc->after, true);
		if (doc->options && doc->options[0]) {
			const struct cmd_opt *o;

			fputs(".SH OPTIONS\n", f);
			for (i = 0; doc->options[i]; i++)
				for (o = doc->options[i]; o->name; o++) {
					man_opt_tag(f, o);
					man_opt_help(f, o->help);
				}
		}
	} else {
		/* The command's own --help, its usage lines as the synopsis. */
		char *text = captured_help(c), *line, *save = NULL;
		bool in_usage = true;

		fprintf(f, "\\fBncqsim %s\\fR\n.fi\n.SH DESCRIPTION\n.nf\n", c->name);
		for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save)) {
			if (in_usage && !strncmp(line, "usage: ", 7))
				line += 7;
			else
				in_usage = false;
			roff_line(f, line);
		}
		fputs(".fi\n", f);
		free(text);
	}
	man_exit_status(f);
	man_see_also(f, page);
	return man_close(f, dir, page, 1);
}

const char cmd_tagline[] = "a simulator of Linux ATA NCQ command priority on a hard disk";

static int man_main(const char *dir)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);
	FILE *f = man_open(dir, "ncqsim", 1);

	if (!f)
		return -1;
	man_header(f, "ncqsim", 1, cmd_tagline);
	fputs(".SH SYNOPSIS\n.nf\n"
	      "\\fBncqsim\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]\n"
	      "\\fBncqsim \\-\\-version\\fR | \\fB\\-\\-help\\fR\n"
	      ".fi\n.SH DESCRIPTION\n", f);
	roff_paragraphs(f,
		"ncqsim simulates the Linux ATA NCQ command priority path: process I/O\n"
		"priority, the block layer and its I/O scheduler, libata, and a SATA hard\n"
		"disk with its NCQ firmware queue. It reads fio job files and writes fio's\n"
		"text and JSON reports; runs are deterministic for a given seed.\n"
		"\n"
		"Every command takes --help; its page is ncqsim-COMMAND(1).\n", false);
	fputs(".SH COMMANDS\n", f);
	for (i = 0; i < n; i++) {
		fputs(".TP\n.B ", f);
		roff_line(f, table[i].name);
		roff_line(f, table[i].summary);
	}
	fputs(".SH OPTIONS\n.TP\n.B \\-\\-version\nthe version and the data directory\n"
	      ".TP\n.B \\-\\-help\nthe commands\n", f);
	fputs(".SH ENVIRONMENT\n.TP\n.B NCQSIM_DATADIR\n", f);
	roff_paragraphs(f,
		"where the installed drive files and examples are; by default the one the\n"
		"build was configured with (PREFIX/share/ncqsim, here ", false);
	roff_text(f, datadir_default(), strlen(datadir_default()));
	fputs(").\n", f);
	fputs(".SH FILES\n.TP\n.I DATADIR/drives/NAME.drive\n", f);
	roff_paragraphs(f,
		"drive files (see ncqsim-drive(5)): --drive NAME finds one there when NAME\n"
		"is neither a built-in drive nor a file in the current directory.\n", false);
	fputs(".TP\n.I DATADIR/examples/\n", f);
	roff_paragraphs(f,
		"the example job and system files (seed.fio, seed.system): a job file or\n"
		"--system file named without a '/' that is not in the current directory\n"
		"is looked up there.\n", false);
	man_exit_status(f);
	man_see_also(f, "ncqsim");
	return man_close(f, dir, "ncqsim", 1);
}

static int man_drive(const char *dir)
{
	const struct opt_def *o;
	FILE *f = man_open(dir, "ncqsim-drive", 5);
	unsigned i;

	if (!f)
		return -1;
	man_header(f, "ncqsim-drive", 5, "the drive-file format of ncqsim");
	fputs(".SH SYNOPSIS\n.nf\n# comment\nname = \\fIname\\fR\n"
	      "\\fIkey\\fR = \\fIvalue\\fR    # \\fIsource of the value\\fR\n.fi\n"
	      ".SH DESCRIPTION\n", f);
	roff_paragraphs(f,
		"A drive file describes one SATA hard disk for ncqsim: its identity, the\n"
		"ATA features it reports, its geometry, mechanics, firmware queue policy\n"
		"and cache. It is given with --drive FILE, or `drive = FILE` in a system\n"
		"file.\n"
		"\n"
		"One `key = value` per line. '#' starts a comment; a comment after a value\n"
		"is that value's source, shown by `ncqsim drives FILE`. Every key below\n"
		"must be given, at most once: a drive file is a complete description and\n"
		"nothing falls back to a default. A wrong key or value is refused with the\n"
		"file, line and key.\n"
		"\n"
		"`ncqsim drives NAME --file` prints a built-in drive as a drive file to\n"
		"start from; `ncqsim probe /dev/sdX` prints one with what a real drive\n"
		"reports filled in. Times take a unit (ms, us, s; a bare number is in the\n"
		"key's unit), sizes a suffix (k, m, g).\n", false);
	fputs(".SH KEYS\n", f);
	for (o = disk_model_options(); o->name; o++) {
		char want[512];

		fputs(".TP\n\\fB", f);
		roff_text(f, o->name, strlen(o->name));
		fputs("\\fR", f);
		if (o->unit) {
			fputs(" (", f);
			roff_text(f, o->unit, strlen(o->unit));
			fputc(')', f);
		}
		fputc('\n', f);
		roff_line(f, o->help ? o->help : "");
		opt_expectation(o, want, sizeof(want));
		fputs(".br\nValue: ", f);
		roff_line(f, want);
	}
	fputs(".SH FILES\n", f);
	roff_paragraphs(f, "The built-in drives, as drive files:\n", false);
	fputs(".RS\n.nf\n", f);
	for (i = 0; i < disk_model_builtin_count(); i++) {
		char path[512];

		snprintf(path, sizeof(path), "%s/drives/%s.drive", datadir_default(),
			 disk_model_builtin_name(i));
		roff_line(f, path);
	}
	fputs(".fi\n.RE\n.SH SEE ALSO\n.BR ncqsim (1),\n.BR ncqsim\\-drives (1),\n"
	      ".BR ncqsim\\-probe (1)\n", f);
	return man_close(f, dir, "ncqsim-drive", 5);
}

int cmd_doc_man(const char *dir)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);

	if (mkdir(dir, 0755) && errno != EEXIST) {
		cli_error("help: %s: cannot create: %s", dir, strerror(errno));
		return -1;
	}
	if (man_main(dir) || man_drive(dir))
		return -1;
	for (i = 0; i < n; i++)
		if (cmd_doc_man_command(dir, &table[i]))
			return -1;
	return 0;
}

/* ---- bash completion ---- */

void cmd_doc_bash_options(FILE *out, const struct cmd *c)
{
	unsigned i;

	if (c->doc) {
		const struct cmd_opt *o;

		for (i = 0; c->doc->options && c->doc->options[i]; i++)
			for (o = c->doc->options[i]; o->name; o++)
				fprintf(out, " %s", o->name);
	} else {
		/* From its --help: words starting "--" at the start of a line. */
		char *text = captured_help(c), *line, *save = NULL;

		for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save)) {
			line += strspn(line, " ");
			if (!strncmp(line, "--", 2))
				fprintf(out, " %.*s", (int)strcspn(line, " =\t"), line);
		}
		free(text);
	}
}

/* The --set / --vary keys: every knob `ncqsim knobs` lists, every drive.KEY. */
static void bash_set_keys(FILE *out)
{
	const struct opt_def *o;
	FILE *tmp = tmpfile();
	char line[512];

	if (tmp) {
		host_knobs_print(tmp);
		rewind(tmp);
		/* The first line is the header; each row starts with the knob's name. */
		if (fgets(line, sizeof(line), tmp))
			while (fgets(line, sizeof(line), tmp))
				if (strchr(line, '/') && line[0] != ' ')
					fprintf(out, " %.*s=", (int)strcspn(line, " \n"), line);
		fclose(tmp);
	}
	for (o = disk_model_options(); o->name; o++)
		fprintf(out, " drive.%s=", o->name);
}

/*
 * A case pattern ("\t--a|--b") of every documented option that takes a
 * value other than --drive, --set and --vary (completed on their own):
 * those whose value names a FILE or DIR when `files`, else the others.
 */
static void bash_value_options(FILE *out, bool files)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);
	const struct cmd_opt *o;
	char seen[4096] = "|";
	unsigned g;

	for (i = 0; i < n; i++) {
		if (!table[i].doc || !table[i].doc->options)
			continue;
		for (g = 0; table[i].doc->options[g]; g++)
			for (o = table[i].doc->options[g]; o->name; o++) {
				char key[80];

				if (!o->arg || !strcmp(o->name, "--drive") || !strcmp(o->name, "--set") ||
				    !strcmp(o->name, "--vary"))
					continue;
				if (files != (strstr(o->arg, "FILE") || strstr(o->arg, "DIR")))
					continue;
				snprintf(key, sizeof(key), "|%s|", o->name);
				if (strstr(seen, key) || strlen(seen) + strlen(key) >= sizeof(seen))
					continue;
				strcat(seen, key + 1);
			}
	}
	/* seen is "|--a|--b|": the pattern is "--a|--b" ("--" when empty). */
	seen[strlen(seen) - 1] = '\0';
	fprintf(out, "\t%s", seen[0] ? seen + 1 : "--");
}

void cmd_doc_bash(FILE *out)
{
	size_t i, n;
	const struct cmd *table = cmd_table(&n);

	fprintf(out,
		"# bash completion for ncqsim(1). Generated by 'ncqsim help --bash-completion'\n"
		"# from the command and option tables --help comes from: edit src/cli, not this.\n"
		"\n_ncqsim_commands='");
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? " " : "", table[i].name);
	fprintf(out, "'\n_ncqsim_drives='");
	for (i = 0; i < disk_model_builtin_count(); i++)
		fprintf(out, "%s%s", i ? " " : "", disk_model_builtin_name((unsigned)i));
	fprintf(out, "'\n_ncqsim_keys='");
	bash_set_keys(out);
	fprintf(out, "'\n\n_ncqsim()\n{\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
		"\tlocal cmd=${COMP_WORDS[1]} opts= d\n"
		"\tCOMPREPLY=()\n"
		"\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		"\t\tCOMPREPLY=($(compgen -W \"$_ncqsim_commands --help --version\" -- \"$cur\"))\n"
		"\t\treturn\n"
		"\tfi\n"
		"\tcase $cmd in\n");
	for (i = 0; i < n; i++) {
		fprintf(out, "\t%s) opts='", table[i].name);
		cmd_doc_bash_options(out, &table[i]);
		fprintf(out, " ' ;;\n");
	}
	fprintf(out, "\tesac\n"
		"\tcase $prev in\n"
		"\t--drive)\n"
		"\t\tCOMPREPLY=($(compgen -W \"$_ncqsim_drives\" -- \"$cur\"))\n"
		"\t\tif [ -n \"$NCQSIM_DATADIR\" ]; then d=$NCQSIM_DATADIR; else d='%s'; fi\n"
		"\t\tCOMPREPLY+=($(cd \"$d/drives\" 2>/dev/null && compgen -f -X '!*.drive' -- \"$cur\" | sed 's/\\.drive$//'))\n"
		"\t\tcompopt -o filenames 2>/dev/null\n"
		"\t\tCOMPREPLY+=($(compgen -f -- \"$cur\"))\n"
		"\t\treturn ;;\n"
		"\t--set|--vary)\n"
		"\t\tcompopt -o nospace 2>/dev/null\n"
		"\t\tCOMPREPLY=($(compgen -W \"$_ncqsim_keys\" -- \"$cur\"))\n"
		"\t\treturn ;;\n", datadir_default());
	/* Every other option that takes a value: a file name, or the user's to type. */
	bash_value_options(out, true);
	fprintf(out, ")\n"
		"\t\tcompopt -o filenames 2>/dev/null\n"
		"\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		"\t\treturn ;;\n");
	bash_value_options(out, false);
	fprintf(out, ")\n"
		"\t\treturn ;;\n"
		"\tesac\n"
		"\tcase $cur in\n"
		"\t-*) COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;;\n"
		"\t*)\n"
		"\t\tcase $cmd in\n"
		"\t\thelp) COMPREPLY=($(compgen -W \"$_ncqsim_commands\" -- \"$cur\")); return ;;\n"
		"\t\tdrives) COMPREPLY=($(compgen -W \"$_ncqsim_drives\" -- \"$cur\")) ;;\n"
		"\t\tesac\n"
		"\t\tcompopt -o filenames 2>/dev/null\n"
		"\t\tCOMPREPLY+=($(compgen -f -- \"$cur\")) ;;\n"
		"\tesac\n"
		"}\n"
		"complete -F _ncqsim ncqsim\n");
}
