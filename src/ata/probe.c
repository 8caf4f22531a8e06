#include "ata/probe.h"

#include "ata/cdl.h"
#include "ata/cmd.h"
#include "ata/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void note(struct probe_info *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct probe_info *p, const char *fmt, ...)
{
	va_list ap;

	if (p->nnotes == PROBE_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(p->notes[p->nnotes++], sizeof(p->notes[0]), fmt, ap);
	va_end(ap);
}

static int send(const struct probe_transport *t, const struct ata_taskfile *tf, uint8_t *buf,
		size_t len, char *why, size_t whylen)
{
	uint8_t cdb[ATA_SAT16_LEN];

	if (ata_sat16_build(tf, cdb)) {
		snprintf(why, whylen, "cannot build the pass-through CDB");
		return PROBE_FAILED;
	}
	memset(buf, 0, len);
	return t->ops->read(t->ctx, cdb, buf, len, why, whylen);
}

/* READ LOG EXT of one page; on failure a note naming the log and the reason. */
static int read_log(const struct probe_transport *t, struct probe_info *p, uint8_t log,
		    uint8_t page, const char *what, uint8_t buf[512])
{
	struct ata_taskfile tf;
	char why[256] = "";
	int rc;

	ata_cmd_read_log(&tf, false, log, page, 1);
	rc = send(t, &tf, buf, 512, why, sizeof(why));
	if (rc == PROBE_REFUSED)
		note(p, "%s (log %02Xh page %02Xh): the drive refused READ LOG EXT", what, log, page);
	else if (rc)
		note(p, "%s (log %02Xh page %02Xh): %s", what, log, page, why);
	return rc;
}

static void probe_id_data_log(const struct probe_transport *t, struct probe_info *p,
			      bool cdl_log_listed)
{
	struct ata_id_cdl_caps caps;
	uint8_t buf[512];
	bool has03 = false, has04 = false, has08 = false;

	if (read_log(t, p, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SUPPORTED,
		     "IDENTIFY DEVICE data log, list of pages", buf))
		return;
	if (ata_id_log_supported_has(buf, ATA_LOG_ID_CAPABILITIES, &has03) ||
	    ata_id_log_supported_has(buf, ATA_LOG_ID_CURRENT_SETTINGS, &has04) ||
	    ata_id_log_supported_has(buf, ATA_LOG_ID_SATA_SETTINGS, &has08)) {
		note(p, "IDENTIFY DEVICE data log, list of pages: malformed header");
		return;
	}
	/* NCQ priority as Linux reads it: page 08h byte 9 bit 3. */
	if (!has08) {
		p->ncq_prio_log = false;
		p->ncq_prio_log_known = true;
	} else if (!read_log(t, p, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SATA_SETTINGS,
			     "SATA settings", buf)) {
		if (ata_id_log_sata_settings_ncq_prio(buf, &p->ncq_prio_log))
			note(p, "SATA settings (log 30h page 08h): malformed header");
		else
			p->ncq_prio_log_known = true;
	}
	/* Command Duration Limits, as ata_dev_config_cdl() reads them. */
	if (!has03) {
		p->cdl_known = true;
		return;
	}
	if (read_log(t, p, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_CAPABILITIES,
		     "supported capabilities", buf))
		return;
	if (ata_id_log_capabilities_read(buf, &caps)) {
		note(p, "supported capabilities (log 30h page 03h): malformed header");
		return;
	}
	p->cdl_supported = caps.cdl;
	p->cdl_min_us = caps.min_us;
	p->cdl_max_us = caps.max_us;
	p->cdl_known = true;
	if (!p->cdl_supported)
		return;
	if (has04 && !read_log(t, p, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_CURRENT_SETTINGS,
			       "current settings", buf) &&
	    ata_id_log_current_settings_cdl(buf, &p->cdl_enabled))
		note(p, "current settings (log 30h page 04h): malformed header");
	if (!cdl_log_listed) {
		note(p, "CDL descriptors: CDL is supported but log 18h is not in the GPL directory");
		return;
	}
	if (!read_log(t, p, ATA_LOG_CDL, 0, "CDL descriptors", buf)) {
		ata_cdl_log_decode(buf, &p->cdl_log);
		p->cdl_log_read = true;
	}
}

int probe_drive(const struct probe_transport *t, struct probe_info *p, char *why, size_t whylen)
{
	struct ata_taskfile tf;
	uint8_t dir[512];
	int rc;

	memset(p, 0, sizeof(*p));
	ata_cmd_identify(&tf);
	rc = send(t, &tf, p->identify, sizeof(p->identify), why, whylen);
	if (rc == PROBE_REFUSED)
		snprintf(why, whylen, "the device refused IDENTIFY DEVICE (not an ATA drive, or "
			 "behind a SCSI layer that does not pass ATA commands through)");
	if (rc)
		return rc;
	ata_identify_parse(p->identify, &p->id);

	/* A drive that refuses the directory has no General Purpose Logs. */
	rc = read_log(t, p, ATA_LOG_DIRECTORY, 0, "GPL directory", dir);
	if (rc == PROBE_REFUSED) {
		p->id_data_log_known = p->ncq_prio_log_known = p->cdl_known = true;
		return PROBE_OK;
	}
	if (rc)
		return PROBE_OK;
	p->gpl_read = true;
	p->id_data_log = ata_gpl_dir_pages(dir, ATA_LOG_IDENTIFY_DEVICE) > 0;
	p->id_data_log_known = true;
	if (!p->id_data_log) {
		p->ncq_prio_log_known = p->cdl_known = true;
		return PROBE_OK;
	}
	probe_id_data_log(t, p, ata_gpl_dir_pages(dir, ATA_LOG_CDL) > 0);
	return PROBE_OK;
}
