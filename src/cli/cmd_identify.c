/*
 * ncqsim identify FILE — decode a real drive's IDENTIFY DEVICE page.
 */
#include "cli/cmd.h"
#include "cli/cli.h"

#include "ata/identify.h"
#include "util/json.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const struct option longopts[] = {
	{ "output-format", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const struct cmd_doc cmd_identify_doc = {
	.usage = (const char *const[]){ "[--output-format=normal|json] FILE", NULL },
	.text =
		"Decode an IDENTIFY DEVICE page and print what a storage engineer looks for:\n"
		"model, serial, firmware, capacity, sector sizes, rotation, NCQ and queue\n"
		"depth, NCQ priority, SATA speeds and the integrity checksum.\n"
		"\n"
		"FILE may be the raw 512 bytes, hdparm --Istdout or /sys/class/ata_device/*/id\n"
		"text (32 lines of 8 words), any text of 4-hex-digit groups (hdparm --Istdin\n"
		"style; leading lines that are not data are skipped), or a libatasmart\n"
		"'skdump --save' blob. The form is detected.\n"
		"\n"
		"A bad checksum is reported and warned about; the page is still decoded.\n",
	.options = (const struct cmd_opt *const[]){
		(const struct cmd_opt[]){
			{ "--output-format", "=F", "normal (hdparm -I style, the default) or json" },
			CMD_OPT_END,
		}, cmd_help_opt, NULL },
	.longopts = longopts,
};

static void speeds_text(uint8_t speeds, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (speeds & ATA_SATA_GEN1)
		n += (size_t)snprintf(buf + n, len - n, "1.5");
	if (speeds & ATA_SATA_GEN2)
		n += (size_t)snprintf(buf + n, len - n, "%s3.0", n ? ", " : "");
	if (speeds & ATA_SATA_GEN3)
		n += (size_t)snprintf(buf + n, len - n, "%s6.0", n ? ", " : "");
	if (!n)
		snprintf(buf, len, "not reported");
	else
		snprintf(buf + n, len - n, " Gb/s");
}

static void print_normal(FILE *out, const char *path, const struct ata_identify *id,
			 enum ata_id_form form)
{
	uint64_t bytes = id->sectors * id->logical_sector_size;
	char speeds[64];

	speeds_text(id->sata_speeds, speeds, sizeof(speeds));
	fprintf(out, "%s: IDENTIFY DEVICE page (%s)\n\n", path, ata_id_form_name(form));
	fprintf(out, "ATA device\n");
	fprintf(out, "\tModel Number:       %s\n", id->model);
	fprintf(out, "\tSerial Number:      %s\n", id->serial);
	fprintf(out, "\tFirmware Revision:  %s\n", id->firmware);
	fprintf(out, "Configuration:\n");
	fprintf(out, "\t%-6s user addressable sectors: %" PRIu64 "\n",
		id->lba48 ? "LBA48" : "LBA", id->sectors);
	fprintf(out, "\tLogical  Sector size:  %6" PRIu32 " bytes\n", id->logical_sector_size);
	fprintf(out, "\tPhysical Sector size:  %6" PRIu32 " bytes\n", id->physical_sector_size);
	fprintf(out, "\tdevice size with M = 1024*1024: %12" PRIu64 " MBytes\n", bytes >> 20);
	fprintf(out, "\tdevice size with M = 1000*1000: %12" PRIu64 " MBytes (%" PRIu64 " GB)\n",
		bytes / 1000000, bytes / 1000000000);
	if (id->rotation_rpm == 1)
		fprintf(out, "\tNominal Media Rotation Rate: Solid State Device\n");
	else if (id->rotation_rpm)
		fprintf(out, "\tNominal Media Rotation Rate: %u\n", id->rotation_rpm);
	else
		fprintf(out, "\tNominal Media Rotation Rate: not reported\n");
	fprintf(out, "Capabilities:\n");
	fprintf(out, "\t48-bit Address feature set:        %s\n", id->lba48 ? "yes" : "no");
	fprintf(out, "\tNative Command Queueing (NCQ):     %s\n", id->ncq ? "yes" : "no");
	fprintf(out, "\tQueue depth:                       %u\n", id->queue_depth);
	fprintf(out, "\tNCQ priority information (w76.12): %s\n", id->ncq_prio ? "yes" : "no");
	fprintf(out, "\tSATA signaling speeds:             %s\n", speeds);
	fprintf(out, "\tWrite cache:                       %s\n",
		!id->write_cache ? "not supported" : id->write_cache_enabled ? "enabled" : "disabled");
	fprintf(out, "\tREAD LOG DMA EXT:                  %s\n", id->read_log_dma ? "yes" : "no");
	fprintf(out, "Checksum: %s\n",
		id->checksum == ATA_CHECKSUM_VALID ? "correct" :
		id->checksum == ATA_CHECKSUM_BAD ? "BAD" : "absent (no A5h signature)");
}

static void print_json(FILE *out, const struct ata_identify *id, enum ata_id_form form)
{
	struct json_writer w;

	json_writer_init(&w, out);
	json_object_begin(&w, NULL);
	json_string(&w, "model", id->model);
	json_string(&w, "serial", id->serial);
	json_string(&w, "firmware", id->firmware);
	json_uint(&w, "sectors", id->sectors);
	json_uint(&w, "logical_sector_size", id->logical_sector_size);
	json_uint(&w, "physical_sector_size", id->physical_sector_size);
	json_uint(&w, "rotation_rpm", id->rotation_rpm);
	json_bool(&w, "ncq", id->ncq);
	json_uint(&w, "queue_depth", id->queue_depth);
	json_bool(&w, "ncq_prio", id->ncq_prio);
	json_string(&w, "checksum", ata_checksum_name(id->checksum));
	json_bool(&w, "lba48", id->lba48);
	json_array_begin(&w, "sata_gbps");
	if (id->sata_speeds & ATA_SATA_GEN1)
		json_double(&w, NULL, 1.5);
	if (id->sata_speeds & ATA_SATA_GEN2)
		json_double(&w, NULL, 3.0);
	if (id->sata_speeds & ATA_SATA_GEN3)
		json_double(&w, NULL, 6.0);
	json_array_end(&w);
	json_string(&w, "form", ata_id_form_name(form));
	json_object_end(&w);
	json_writer_finish(&w);
}

int cmd_identify(int argc, char **argv)
{
	unsigned formats = CLI_OUT_NORMAL;
	uint8_t page[ATA_ID_BYTES], *data;
	struct ata_identify id;
	enum ata_id_form form = ATA_ID_FORM_RAW;
	char why[256];
	size_t len;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (cli_output_formats(optarg, CLI_OUT_NORMAL | CLI_OUT_JSON, &formats))
				return EXIT_BAD_INPUT;
			break;
		case 'h':
			cmd_doc_help("identify", &cmd_identify_doc, stdout);
			return 0;
		default:
			return cli_bad_option("identify", "identify", c, argv[optind - 1]);
		}
	}
	if (optind != argc - 1) {
		cli_error("identify: expected one FILE, got %d arguments (see 'ncqsim identify --help')",
			  argc - optind);
		return EXIT_BAD_INPUT;
	}
	data = cli_read_file(argv[optind], 1 << 20, &len);
	if (!data)
		return EXIT_BAD_INPUT;
	if (ata_identify_load(data, len, page, &form, why, sizeof(why))) {
		cli_error("%s: not an IDENTIFY DEVICE page: %s", argv[optind], why);
		free(data);
		return EXIT_BAD_INPUT;
	}
	free(data);
	ata_identify_parse(page, &id);
	if (id.checksum == ATA_CHECKSUM_BAD)
		cli_warn("%s: IDENTIFY checksum is bad (word 255 = %04xh); decoded anyway",
			 argv[optind], ata_id_word(page, 255));
	if (formats & CLI_OUT_JSON)
		print_json(stdout, &id, form);
	else
		print_normal(stdout, argv[optind], &id, form);
	return 0;
}
