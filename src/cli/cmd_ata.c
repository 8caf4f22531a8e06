/*
 * ncqsim ata encode|decode — build or take apart ATA frames by hand.
 */
#include "cli/cmd.h"
#include "cli/cli.h"

#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/sat.h"
#include "util/parse.h"

#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <string.h>

/* encode's options; decode takes none. */
static const struct option encode_longopts[] = {
	{ "lba", required_argument, NULL, 'l' },
	{ "count", required_argument, NULL, 'c' },
	{ "tag", required_argument, NULL, 't' },
	{ "prio", required_argument, NULL, 'p' },
	{ "fua", no_argument, NULL, 'f' },
	{ "cdl", required_argument, NULL, 'd' },
	{ "icc", required_argument, NULL, 'i' },
	{ "log", required_argument, NULL, 'L' },
	{ "page", required_argument, NULL, 'P' },
	{ "dma", no_argument, NULL, 'D' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_doc cmd_ata_doc = {
	.usage = (const char *const[]){
		"encode KIND [--lba N] [--count N] [--tag N]\n"
		"[--prio normal|isochronous|high] [--fua] [--cdl N] [--icc N]",
		"encode read-log --log N [--page N] [--count N] [--dma]",
		"decode HEX...",
		NULL },
	.text =
		"encode prints the Register H2D FIS's 20 bytes, libata's one-line form of the\n"
		"command and the SCSI ATA PASS-THROUGH(16) CDB that carries it.\n"
		"KIND: read-fpdma, write-fpdma (READ/WRITE FPDMA QUEUED, NCQ), read-dma,\n"
		"write-dma (READ/WRITE DMA EXT), identify, read-log.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--lba", "N", "first sector, 0..2^48-1 (decimal or 0x hex;\n"
			  "default 0)" },
			{ "--count", "N", "sectors, 1..65536 (default 8); pages for\n"
			  "read-log (default 1)" },
			{ "--tag", "N", "NCQ tag, 0..31 (default 0)" },
			{ "--prio", "P", "NCQ PRIO field: normal (default), isochronous, high" },
			{ "--fua", NULL, "force unit access" },
			{ "--cdl", "N", "Command Duration Limit index, 0..7 (default 0)" },
			{ "--icc", "N", "isochronous command completion, 0..255\n"
			  "(default 0)" },
			{ "--log", "N", "log address (read-log)" },
			{ "--page", "N", "the log's page (read-log)" },
			{ "--dma", NULL, "READ LOG DMA EXT instead of READ LOG EXT (read-log)" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.after =
		"decode takes the bytes of one FIS (H2D 27h, D2H 34h or Set Device Bits A1h)\n"
		"as hex, in one or several arguments (\"27 80 60 c0 ...\" or \"2780 60c0...\"),\n"
		"and names every field.\n",
	.longopts = encode_longopts,
};

static void usage(FILE *out)
{
	cmd_doc_help("ata", &cmd_ata_doc, out);
}

static void print_hex(const char *label, const uint8_t *b, size_t n)
{
	size_t i;

	printf("%s", label);
	for (i = 0; i < n; i++)
		printf("%s%02x", i ? " " : "", b[i]);
	printf("\n");
}

static int number_opt(const char *opt, const char *value, uint64_t max, uint64_t *out,
		      const char *range)
{
	if (parse_u64(value, out) || *out > max) {
		cli_error("ata: option '--%s': expected %s, got '%s'", opt, range, value);
		return -1;
	}
	return 0;
}

static int encode(int argc, char **argv)
{
	struct ata_rw rw = { .sectors = 8 };
	struct ata_taskfile tf;
	uint8_t fis[ATA_FIS_H2D_LEN], cdb[ATA_SAT16_LEN];
	uint64_t v, log = 0, page = 0, count = 0;
	bool have_log = false, have_count = false, dma = false, ncq_only = false;
	const char *kind, *ncq_opt = NULL;
	char line[160];
	int c, rc;

	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && !strcmp(argv[1], "--help")) {
			usage(stdout);
			return 0;
		}
		cli_error("ata encode: expected a KIND (read-fpdma, write-fpdma, read-dma, "
			  "write-dma, identify, read-log)");
		return EXIT_BAD_INPUT;
	}
	kind = argv[1];
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", encode_longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (number_opt("lba", optarg, ATA_LBA48_LIMIT - 1, &v, "0..2^48-1"))
				return EXIT_BAD_INPUT;
			rw.lba = v;
			break;
		case 'c':
			if (number_opt("count", optarg, 65536, &count, "1..65536") || !count) {
				if (!count)
					cli_error("ata: option '--count': expected 1..65536, got '%s'", optarg);
				return EXIT_BAD_INPUT;
			}
			have_count = true;
			break;
		case 't':
			if (number_opt("tag", optarg, 31, &v, "a tag 0..31"))
				return EXIT_BAD_INPUT;
			rw.tag = (uint8_t)v;
			ncq_only = true;
			ncq_opt = "--tag";
			break;
		case 'p':
			if (!strcmp(optarg, "normal"))
				rw.prio = ATA_PRIO_NORMAL;
			else if (!strcmp(optarg, "isochronous"))
				rw.prio = ATA_PRIO_ISOCHRONOUS;
			else if (!strcmp(optarg, "high"))
				rw.prio = ATA_PRIO_HIGH;
			else {
				cli_error("ata: option '--prio': expected normal, isochronous or high, "
					  "got '%s'", optarg);
				return EXIT_BAD_INPUT;
			}
			ncq_only = true;
			ncq_opt = "--prio";
			break;
		case 'f':
			rw.fua = true;
			break;
		case 'd':
			if (number_opt("cdl", optarg, 7, &v, "a CDL index 0..7"))
				return EXIT_BAD_INPUT;
			rw.cdl = (uint8_t)v;
			break;
		case 'i':
			if (number_opt("icc", optarg, 255, &v, "0..255"))
				return EXIT_BAD_INPUT;
			rw.icc = (uint8_t)v;
			break;
		case 'L':
			if (number_opt("log", optarg, 255, &log, "a log address 0..255"))
				return EXIT_BAD_INPUT;
			have_log = true;
			break;
		case 'P':
			if (number_opt("page", optarg, 65535, &page, "a page 0..65535"))
				return EXIT_BAD_INPUT;
			break;
		case 'D':
			dma = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return cli_bad_option("ata encode", "ata", c, argv[optind - 1]);
		}
	}
	if (optind != argc) {
		cli_error("ata encode: unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (have_count)
		rw.sectors = (uint32_t)count;

	if (!strcmp(kind, "read-fpdma") || !strcmp(kind, "write-fpdma") ||
	    !strcmp(kind, "read-dma") || !strcmp(kind, "write-dma")) {
		rw.ncq = strstr(kind, "fpdma") != NULL;
		rw.write = !strncmp(kind, "write", 5);
		if (!rw.ncq && ncq_only) {
			cli_error("ata encode: option '%s' applies only to read-fpdma and write-fpdma",
				  ncq_opt);
			return EXIT_BAD_INPUT;
		}
		if (rw.lba + rw.sectors > ATA_LBA48_LIMIT) {
			cli_error("ata encode: options '--lba' + '--count' run past sector 2^48-1");
			return EXIT_BAD_INPUT;
		}
		rc = ata_rw_build(&rw, &tf);
		if (rc) {
			cli_error("ata encode: %s", ata_strerror(rc));
			return EXIT_BAD_INPUT;
		}
	} else if (!strcmp(kind, "identify")) {
		ata_cmd_identify(&tf);
	} else if (!strcmp(kind, "read-log")) {
		if (!have_log) {
			cli_error("ata encode: read-log needs --log N");
			return EXIT_BAD_INPUT;
		}
		if (have_count && count > 65535) {
			cli_error("ata: option '--count': expected 1..65535 pages, got '%" PRIu64 "'", count);
			return EXIT_BAD_INPUT;
		}
		ata_cmd_read_log(&tf, dma, (uint8_t)log, (uint16_t)page,
				 (uint16_t)(have_count ? count : 1));
	} else {
		cli_error("ata encode: unknown KIND '%s' (expected read-fpdma, write-fpdma, read-dma, "
			  "write-dma, identify, read-log)", kind);
		return EXIT_BAD_INPUT;
	}
	ata_h2d_encode(&tf, fis);
	ata_libata_line(&tf, 0, line, sizeof(line));
	print_hex("H2D FIS:  ", fis, sizeof(fis));
	printf("libata:   %s\n", line);
	if (ata_sat16_build(&tf, cdb) == ATA_OK)
		print_hex("SAT CDB:  ", cdb, sizeof(cdb));
	return 0;
}

/* Hex bytes from the arguments: any mix of spaces; pairs of hex digits. */
static int collect_hex(int argc, char **argv, uint8_t *out, size_t max, size_t *n)
{
	int i;
	int half = -1;

	*n = 0;
	for (i = 0; i < argc; i++) {
		const char *p = argv[i];

		if (!strncmp(p, "0x", 2) || !strncmp(p, "0X", 2))
			p += 2;
		for (; *p; p++) {
			int d;

			if (isspace((unsigned char)*p) || *p == ':' || *p == ',') {
				if (half >= 0) {
					cli_error("ata decode: odd number of hex digits before '%s'", p);
					return -1;
				}
				continue;
			}
			if (!isxdigit((unsigned char)*p)) {
				cli_error("ata decode: '%c' in '%s' is not a hex digit", *p, argv[i]);
				return -1;
			}
			d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
			if (half < 0) {
				half = d;
				continue;
			}
			if (*n >= max) {
				cli_error("ata decode: more than %zu bytes: no FIS is that long", max);
				return -1;
			}
			out[(*n)++] = (uint8_t)(half << 4 | d);
			half = -1;
		}
		if (half >= 0) {
			cli_error("ata decode: odd number of hex digits in '%s'", argv[i]);
			return -1;
		}
	}
	if (!*n) {
		cli_error("ata decode: expected the bytes of a FIS in hex");
		return -1;
	}
	return 0;
}

static void decode_h2d(const struct ata_taskfile *tf)
{
	const char *name = ata_command_name(tf->command);
	struct ata_rw rw;
	char line[160];

	printf("Register H2D FIS (27h), 20 bytes\n");
	printf("  C bit        %d (%s)\n", tf->c_bit, tf->c_bit ? "command" : "control");
	printf("  PM port      %u\n", tf->pm_port);
	printf("  command      %02xh %s\n", tf->command, name ? name : "(not known to ncqsim)");
	printf("  features     %04xh\n", tf->features);
	printf("  count        %04xh\n", tf->count);
	printf("  lba          %012" PRIx64 "h (%" PRIu64 ")\n", tf->lba, tf->lba);
	printf("  device       %02xh\n", tf->device);
	printf("  icc          %02xh\n", tf->icc);
	printf("  control      %02xh\n", tf->control);
	printf("  auxiliary    %08" PRIx32 "h\n", tf->auxiliary);
	if (ata_rw_parse(tf, &rw) == ATA_OK || (ata_is_ncq(tf->command) && rw.prio > ATA_PRIO_HIGH)) {
		if (rw.ncq) {
			printf("  NCQ tag      %u\n", rw.tag);
			printf("  PRIO         %s (%u%ub)\n", ata_prio_name(rw.prio),
			       (rw.prio >> 1) & 1, rw.prio & 1);
		}
		printf("  sectors      %" PRIu32 " (%" PRIu64 " bytes)\n", rw.sectors,
		       (uint64_t)rw.sectors * ATA_SECTOR_SIZE);
		printf("  FUA          %s\n", rw.fua ? "yes" : "no");
		printf("  CDL index    %u\n", rw.cdl);
	}
	ata_libata_line(tf, 0, line, sizeof(line));
	printf("libata: %s\n", line);
}

static void decode_sdb(const struct ata_sdb *s)
{
	unsigned t;
	bool any = false;

	printf("Set Device Bits FIS (A1h), 8 bytes\n");
	printf("  PM port      %u\n", s->pm_port);
	printf("  interrupt    %d\n", s->interrupt);
	printf("  notification %d\n", s->notification);
	printf("  status       %02xh%s\n", s->status, s->status & ATA_STAT_ERR ? " (ERR)" : "");
	printf("  error        %02xh%s\n", s->error, s->error & ATA_ERR_ABRT ? " (ABRT)" : "");
	printf("  SActive      %08" PRIx32 "h\n", s->sactive);
	printf("  completes    ");
	for (t = 0; t < 32; t++)
		if (s->sactive & (1u << t)) {
			printf("%stag %u", any ? ", " : "", t);
			any = true;
		}
	printf("%s\n", any ? "" : "no tag");
}

static void decode_d2h(const struct ata_d2h *d)
{
	printf("Register D2H FIS (34h), 20 bytes\n");
	printf("  PM port      %u\n", d->pm_port);
	printf("  interrupt    %d\n", d->interrupt);
	printf("  status       %02xh%s\n", d->status, d->status & ATA_STAT_ERR ? " (ERR)" : "");
	printf("  error        %02xh%s\n", d->error, d->error & ATA_ERR_ABRT ? " (ABRT)" : "");
	printf("  lba          %012" PRIx64 "h\n", d->lba);
	printf("  device       %02xh\n", d->device);
	printf("  count        %04xh\n", d->count);
}

static int decode(int argc, char **argv)
{
	uint8_t bytes[64];
	size_t n;
	size_t want;
	const char *what;

	if (argc >= 2 && !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (collect_hex(argc - 1, argv + 1, bytes, sizeof(bytes), &n))
		return EXIT_BAD_INPUT;
	switch (bytes[0]) {
	case ATA_FIS_REG_H2D: want = ATA_FIS_H2D_LEN; what = "Register H2D FIS"; break;
	case ATA_FIS_REG_D2H: want = ATA_FIS_D2H_LEN; what = "Register D2H FIS"; break;
	case ATA_FIS_SDB: want = ATA_FIS_SDB_LEN; what = "Set Device Bits FIS"; break;
	default:
		cli_error("ata decode: first byte %02xh is not a FIS type ncqsim decodes "
			  "(27h H2D, 34h D2H, A1h Set Device Bits)", bytes[0]);
		return EXIT_BAD_INPUT;
	}
	if (n != want) {
		cli_error("ata decode: a %s is %zu bytes, got %zu", what, want, n);
		return EXIT_BAD_INPUT;
	}
	if (bytes[0] == ATA_FIS_REG_H2D) {
		struct ata_taskfile tf;

		ata_h2d_decode(bytes, n, &tf);
		decode_h2d(&tf);
	} else if (bytes[0] == ATA_FIS_SDB) {
		struct ata_sdb s;

		ata_sdb_decode(bytes, n, &s);
		decode_sdb(&s);
	} else {
		struct ata_d2h d;

		ata_d2h_decode(bytes, n, &d);
		decode_d2h(&d);
	}
	return 0;
}

int cmd_ata(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : 0;
	}
	if (!strcmp(argv[1], "encode"))
		return encode(argc - 1, argv + 1);
	if (!strcmp(argv[1], "decode"))
		return decode(argc - 1, argv + 1);
	cli_error("ata: unknown action '%s' (expected encode or decode)", argv[1]);
	return EXIT_BAD_INPUT;
}
