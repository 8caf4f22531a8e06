#include "host/libata.h"

#include "ata/cdl.h"
#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/log.h"
#include "host/blk.h"
#include "host/ioprio.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum probe_step {
	PROBE_IDLE,
	PROBE_IDENTIFY,
	PROBE_LOG_DIR,
	PROBE_ID_PAGES,
	PROBE_SATA_SETTINGS,
	PROBE_CAPABILITIES,
	PROBE_CURRENT_SETTINGS,
	PROBE_CDL_LOG,
	PROBE_CDL_ENABLE,
	PROBE_DONE,
};

struct libata {
	struct sim *sim;
	const struct libata_link_ops *ops;
	void *link;
	struct blk_queue *q;

	enum probe_step step;
	void (*probe_done)(void *ctx, int error);
	void *probe_ctx;
	char probe_error[256];
	struct ata_identify id;
	bool prio_supported;
	/* What the probe learnt, for the next step to decide on. */
	bool has_id_log, has_cdl_log, has_sata_settings, has_capabilities, has_current_settings;
	bool cdl_capable;		/* page 03h says CDL (and IDENTIFY says NCQ autosense) */
	bool cdl_supported;		/* ... and log 18h was read */
	bool cdl_on_drive;		/* page 04h: CDL enabled on the drive */
	struct ata_cdl_log cdl;		/* the descriptors (dev->cdl in the kernel) */

	bool ncq_on, prio_enabled, cdl_enabled;
	unsigned depth;
	int nonqueued_tag;		/* the tag of the outstanding non-queued command */
	uint32_t cdl_tags;		/* tags whose command carries a CDL index */
	struct libata_stats stats;
};

struct libata *libata_new(struct sim *sim, const struct libata_link_ops *ops, void *link)
{
	struct libata *la = calloc(1, sizeof(*la));

	if (!la)
		return NULL;
	la->sim = sim;
	la->ops = ops;
	la->link = link;
	la->depth = 1;
	la->nonqueued_tag = -1;
	return la;
}

void libata_free(struct libata *la)
{
	free(la);
}

static void send_tf(struct libata *la, const struct ata_taskfile *tf, unsigned tag)
{
	uint8_t fis[ATA_FIS_H2D_LEN];

	ata_h2d_encode(tf, fis);
	if (sim_debugging(la->sim, SIM_DBG_ATA)) {
		char line[160];

		ata_libata_line(tf, tag, line, sizeof(line));
		sim_debug_print(la->sim, SIM_DBG_ATA, "issue %s", line);
	}
	la->ops->send(la->link, fis, sizeof(fis));
}

/* ---- probe ---- */

static void probe_finish(struct libata *la, int error)
{
	la->step = PROBE_DONE;
	sim_debug(la->sim, SIM_DBG_ATA, "probe done: %s, NCQ %s (depth %u), NCQ priority %s, CDL %s",
		  la->id.model, la->id.ncq ? "yes" : "no", la->id.queue_depth,
		  la->prio_supported ? "supported" : "not supported",
		  la->cdl_supported ? "supported" : "not supported");
	la->probe_done(la->probe_ctx, error);
}

static void read_log(struct libata *la, uint8_t log, uint16_t page, enum probe_step step)
{
	struct ata_taskfile tf;

	la->step = step;
	ata_cmd_read_log(&tf, la->id.read_log_dma, log, page, 1);
	send_tf(la, &tf, 0);
}

/*
 * The highest ATA major version IDENTIFY word 80 lists (ata_id_major_version()):
 * 12 is ACS-5, the first with CDL.
 */
static unsigned major_version(const struct ata_identify *id)
{
	unsigned v;

	for (v = 14; v > 0; v--)
		if (id->major_version != 0xffff && (id->major_version & (1u << v)))
			return v;
	return 0;
}

/* Whether ata_dev_config_cdl() would look at the drive at all (Linux 6.5). */
static bool cdl_worth_probing(const struct libata *la)
{
	return la->id.ncq && major_version(&la->id) >= 12;
}

/*
 * The next probe step from what is known so far, in ata_dev_configure()'s
 * order: NCQ priority (ata_dev_config_ncq_prio()), then CDL
 * (ata_dev_config_cdl()).
 */
static void probe_next(struct libata *la)
{
	bool want_prio = la->id.ncq && la->id.ncq_prio;

	switch (la->step) {
	case PROBE_IDENTIFY:
		if (want_prio || cdl_worth_probing(la)) {
			read_log(la, ATA_LOG_DIRECTORY, 0, PROBE_LOG_DIR);
			return;
		}
		break;
	case PROBE_LOG_DIR:
		if (la->has_id_log) {
			read_log(la, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SUPPORTED, PROBE_ID_PAGES);
			return;
		}
		break;
	case PROBE_ID_PAGES:
		if (want_prio && la->has_sata_settings) {
			read_log(la, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SATA_SETTINGS,
				 PROBE_SATA_SETTINGS);
			return;
		}
		/* fall through */
	case PROBE_SATA_SETTINGS:
		if (cdl_worth_probing(la) && la->has_capabilities && la->has_current_settings) {
			read_log(la, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_CAPABILITIES,
				 PROBE_CAPABILITIES);
			return;
		}
		break;
	case PROBE_CAPABILITIES:
		if (la->cdl_capable) {
			read_log(la, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_CURRENT_SETTINGS,
				 PROBE_CURRENT_SETTINGS);
			return;
		}
		break;
	case PROBE_CURRENT_SETTINGS:
		if (la->has_cdl_log) {
			read_log(la, ATA_LOG_CDL, 0, PROBE_CDL_LOG);
			return;
		}
		break;
	default:
		break;
	}
	probe_finish(la, 0);
}

static void probe_answer(struct libata *la, const struct ata_d2h *d, const uint8_t *data,
			 size_t dlen)
{
	bool ok = !(d->status & ATA_STAT_ERR) && data && dlen >= ATA_LOG_PAGE_BYTES, flag;

	switch (la->step) {
	case PROBE_IDENTIFY:
		if (!ok) {
			snprintf(la->probe_error, sizeof(la->probe_error),
				 "the drive failed IDENTIFY DEVICE (status %02xh, error %02xh)",
				 d->status, d->error);
			la->step = PROBE_DONE;
			la->probe_done(la->probe_ctx, -1);
			return;
		}
		ata_identify_parse(data, &la->id);
		break;
	case PROBE_LOG_DIR:
		la->has_id_log = ok && ata_gpl_dir_pages(data, ATA_LOG_IDENTIFY_DEVICE);
		la->has_cdl_log = ok && ata_gpl_dir_pages(data, ATA_LOG_CDL);
		break;
	case PROBE_ID_PAGES:
		la->has_sata_settings = ok && !ata_id_log_supported_has(data, ATA_LOG_ID_SATA_SETTINGS,
									&flag) && flag;
		la->has_capabilities = ok && !ata_id_log_supported_has(data, ATA_LOG_ID_CAPABILITIES,
								       &flag) && flag;
		la->has_current_settings = ok && !ata_id_log_supported_has(data,
									   ATA_LOG_ID_CURRENT_SETTINGS,
									   &flag) && flag;
		break;
	case PROBE_SATA_SETTINGS:
		la->prio_supported = ok && !ata_id_log_sata_settings_ncq_prio(data, &flag) && flag;
		break;
	case PROBE_CAPABILITIES:
		/* Without NCQ autosense the successful-NCQ sense data is useless: no CDL. */
		la->cdl_capable = ok && !ata_id_log_capabilities_cdl(data, &flag) && flag &&
			la->id.ncq_autosense;
		break;
	case PROBE_CURRENT_SETTINGS:
		la->cdl_on_drive = ok && !ata_id_log_current_settings_cdl(data, &flag) && flag;
		break;
	case PROBE_CDL_LOG:
		la->cdl_supported = ok && !ata_cdl_log_parse(data, &la->cdl);
		break;
	case PROBE_CDL_ENABLE:
		la->step = PROBE_DONE;
		if (d->status & ATA_STAT_ERR)
			snprintf(la->probe_error, sizeof(la->probe_error),
				 "the drive failed SET FEATURES 0Dh (CDL) (status %02xh, error %02xh)",
				 d->status, d->error);
		la->cdl_on_drive = la->cdl_enabled && !(d->status & ATA_STAT_ERR);
		la->probe_done(la->probe_ctx, (d->status & ATA_STAT_ERR) ? -1 : 0);
		return;
	default:
		return;
	}
	probe_next(la);
}

void libata_probe(struct libata *la, void (*done)(void *ctx, int error), void *ctx)
{
	struct ata_taskfile tf;

	la->probe_done = done;
	la->probe_ctx = ctx;
	la->step = PROBE_IDENTIFY;
	ata_cmd_identify(&tf);
	send_tf(la, &tf, 0);
}

const char *libata_probe_error(const struct libata *la)
{
	return la->probe_error;
}

const struct ata_identify *libata_identify(const struct libata *la)
{
	return &la->id;
}

bool libata_ncq_prio_supported(const struct libata *la)
{
	return la->prio_supported;
}

bool libata_cdl_supported(const struct libata *la)
{
	return la->cdl_supported;
}

const struct ata_cdl_log *libata_cdl_log(const struct libata *la)
{
	return la->cdl_supported ? &la->cdl : NULL;
}

bool libata_cdl_sync(struct libata *la, void (*done)(void *ctx, int error), void *ctx)
{
	struct ata_taskfile tf;

	if (la->cdl_enabled == la->cdl_on_drive)
		return false;
	/* ata_mselect_control_ata_feature(): SET FEATURES 0Dh, COUNT 1 enable or 0 disable. */
	la->probe_done = done;
	la->probe_ctx = ctx;
	la->step = PROBE_CDL_ENABLE;
	ata_cmd_set_features(&tf, ATA_SF_CDL, la->cdl_enabled ? 1 : 0);
	send_tf(la, &tf, 0);
	return true;
}

int libata_configure(struct libata *la, struct host_knobs *k, struct err *e)
{
	unsigned depth = k->queue_depth;

	k->ncq_prio_supported = la->prio_supported;
	k->cdl_supported = la->cdl_supported;
	/* CDL and NCQ priority exclude each other; the later write is the one refused. */
	if (k->cdl_enable && k->ncq_prio_enable && k->cdl_written_last)
		return err_set(e, "knob 'device/cdl_enable': writing 1 failed with EINVAL: NCQ "
			       "priority must be disabled to enable CDL (device/ncq_prio_enable is 1)");
	if (k->cdl_enable && k->ncq_prio_enable)
		return err_set(e, "knob 'device/ncq_prio_enable': writing 1 failed with EINVAL: CDL "
			       "must be disabled to enable NCQ priority (device/cdl_enable is 1)");
	if (k->cdl_enable && !la->cdl_supported)
		return err_set(e, "knob 'device/cdl_enable': writing 1 failed with EOPNOTSUPP: the "
			       "drive does not support Command Duration Limits (%s)",
			       !cdl_worth_probing(la) ? "IDENTIFY word 80 lists no ACS-5" :
			       !la->cdl_capable ? "log 30h page 03h does not report it, or NCQ "
			       "autosense is missing" : "log 18h could not be read");
	if (k->ncq_prio_enable && !la->prio_supported)
		return err_set(e, "knob 'device/ncq_prio_enable': writing 1 failed with EINVAL: the "
			       "drive does not support NCQ priority (%s)",
			       !la->id.ncq_prio ? "IDENTIFY word 76 bit 12 is clear" :
			       "log 30h page 08h does not confirm it");
	/* ata_scsi_change_queue_depth(): capped by the drive's depth; 1 without NCQ. */
	if (!la->id.ncq)
		depth = 1;
	else if (depth > la->id.queue_depth)
		depth = la->id.queue_depth;
	k->queue_depth = depth;
	la->depth = depth;
	la->ncq_on = la->id.ncq && depth > 1;
	la->prio_enabled = k->ncq_prio_enable;
	la->cdl_enabled = k->cdl_enable;
	return 0;
}

void libata_attach(struct libata *la, struct blk_queue *q)
{
	la->q = q;
}

unsigned libata_queue_depth(const struct libata *la)
{
	return la->depth;
}

bool libata_ncq_enabled(const struct libata *la)
{
	return la->ncq_on;
}

unsigned libata_logical_sector_size(const struct libata *la)
{
	return la->id.logical_sector_size ? la->id.logical_sector_size : 512;
}

uint64_t libata_capacity(const struct libata *la)
{
	return la->id.sectors;
}

const struct libata_stats *libata_get_stats(const struct libata *la)
{
	return &la->stats;
}

/* ---- I/O ---- */

void libata_issue(struct libata *la, struct blk_request *rq, unsigned tag)
{
	struct ata_rw rw = { .write = rq->write, .sectors = rq->nlb, .lba = rq->lba };
	struct ata_taskfile tf;
	int rc;

	if (la->ncq_on) {
		rw.ncq = true;
		rw.tag = (uint8_t)tag;
		/* ata_build_rw_tf(): only the RT class sets PRIO, whatever its level. */
		if (la->prio_enabled && ioprio_class(rq->ioprio) == IOPRIO_CLASS_RT) {
			rw.prio = ATA_PRIO_HIGH;
			la->stats.prio_high_cmds++;
		}
		la->stats.ncq_cmds++;
	} else {
		la->nonqueued_tag = (int)tag;
		la->stats.dma_cmds++;
	}
	/*
	 * sd_cdl_dld() then ata_set_tf_cdl(): with device/cdl_enable on, hints
	 * 1..7 (IOPRIO_HINT_DEV_DURATION_LIMIT_1..7) name a descriptor, carried
	 * in AUXILIARY (NCQ) or FEATURE (non-NCQ) bits 2:0.
	 */
	la->cdl_tags &= ~(1u << tag);
	if (la->cdl_enabled && ioprio_hint(rq->ioprio) >= 1 && ioprio_hint(rq->ioprio) <= 7) {
		rw.cdl = (uint8_t)ioprio_hint(rq->ioprio);
		la->cdl_tags |= 1u << tag;
		la->stats.cdl_cmds++;
	}
	rc = ata_rw_build(&rw, &tf);
	SIM_ASSERT(rc == ATA_OK, "cannot build a command for lba %llu +%u: %s",
		   (unsigned long long)rq->lba, rq->nlb, ata_strerror(rc));
	send_tf(la, &tf, tag);
}

void libata_receive_sdb(struct libata *la, const uint8_t *fis, size_t len)
{
	struct ata_sdb s;
	uint32_t done;
	int error;

	SIM_ASSERT(ata_sdb_decode(fis, len, &s) == ATA_OK, "malformed SDB FIS from the drive");
	error = (s.status & ATA_STAT_ERR) ? -EIO : 0;
	sim_debug(la->sim, SIM_DBG_ATA, "SDB sactive %08x status %02x error %02x%s", s.sactive,
		  s.status, s.error, error ? " (error)" : (s.status & ATA_STAT_SENSE) ? " (sense)" : "");
	for (done = s.sactive; done; done &= done - 1) {
		unsigned tag = (unsigned)__builtin_ctz(done);
		int rc = error;

		/*
		 * A command with a duration limit that the drive ended early: aborted
		 * (policy 0xF: ERR, ABRT) or completed without data (0xD: good status
		 * with SENSE DATA AVAILABLE). The kernel reads the sense data (log 10h
		 * or the successful NCQ commands log 0Fh) and completes the request
		 * with BLK_STS_DURATION_LIMIT, -ETIME; ncqsim's libata takes the
		 * status bits for the sense data (docs/HOST.md, "CDL").
		 */
		if ((la->cdl_tags & (1u << tag)) &&
		    ((error && (s.error & ATA_ERR_ABRT)) || (!error && (s.status & ATA_STAT_SENSE))))
			rc = -ETIME;
		la->stats.errors += rc == -EIO;
		la->stats.cdl_timeouts += rc == -ETIME;
		la->cdl_tags &= ~(1u << tag);
		blk_complete(la->q, (int)tag, rc);
	}
}

void libata_receive_d2h(struct libata *la, const uint8_t *fis, size_t len,
			const uint8_t *data, size_t data_len)
{
	struct ata_d2h d;
	int tag;

	SIM_ASSERT(ata_d2h_decode(fis, len, &d) == ATA_OK, "malformed D2H FIS from the drive");
	if (la->step != PROBE_DONE) {
		probe_answer(la, &d, data, data_len);
		return;
	}
	tag = la->nonqueued_tag;
	SIM_ASSERT(tag >= 0, "D2H FIS with no non-queued command outstanding");
	la->nonqueued_tag = -1;
	sim_debug(la->sim, SIM_DBG_ATA, "D2H status %02x error %02x", d.status, d.error);
	{
		bool cdl = la->cdl_tags & (1u << tag);
		int rc = (d.status & ATA_STAT_ERR) ? -EIO : 0;

		if (cdl && ((rc && (d.error & ATA_ERR_ABRT)) || (!rc && (d.status & ATA_STAT_SENSE))))
			rc = -ETIME;
		la->cdl_tags &= ~(1u << tag);
		la->stats.errors += rc == -EIO;
		la->stats.cdl_timeouts += rc == -ETIME;
		blk_complete(la->q, tag, rc);
	}
}
