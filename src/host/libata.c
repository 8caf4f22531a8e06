#include "host/libata.h"

#include "ata/cmd.h"
#include "ata/fis.h"
#include "ata/log.h"
#include "host/blk.h"
#include "host/ioprio.h"
#include "host/kernel.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum probe_step {
	PROBE_IDLE,
	PROBE_IDENTIFY,
	PROBE_LOG_DIR,
	PROBE_ID_PAGES,
	PROBE_SATA_SETTINGS,
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

	bool ncq_on, prio_enabled;
	unsigned depth;			/* device/queue_depth: the dispatch budget */
	unsigned host_tags;		/* tags the host hands out: ATA tags 0..host_tags-1 */
	int kernel;
	int64_t timeout;
	int nonqueued_tag;		/* the tag of the outstanding non-queued command */
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
	sim_debug(la->sim, SIM_DBG_ATA, "probe done: %s, NCQ %s (depth %u), NCQ priority %s",
		  la->id.model, la->id.ncq ? "yes" : "no", la->id.queue_depth,
		  la->prio_supported ? "supported" : "not supported");
	la->probe_done(la->probe_ctx, error);
}

static void read_log(struct libata *la, uint8_t log, uint16_t page, enum probe_step step)
{
	struct ata_taskfile tf;

	la->step = step;
	ata_cmd_read_log(&tf, la->id.read_log_dma, log, page, 1);
	send_tf(la, &tf, 0);
}

static void probe_answer(struct libata *la, const struct ata_d2h *d, const uint8_t *data,
			 size_t dlen)
{
	bool ok = !(d->status & ATA_STAT_ERR) && data && dlen >= ATA_LOG_PAGE_BYTES, has, prio;

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
		/* ata_dev_config_ncq_prio() runs only when word 76 bit 12 says so. */
		if (la->id.ncq && la->id.ncq_prio)
			read_log(la, ATA_LOG_DIRECTORY, 0, PROBE_LOG_DIR);
		else
			probe_finish(la, 0);
		return;
	case PROBE_LOG_DIR:
		if (ok && ata_gpl_dir_pages(data, ATA_LOG_IDENTIFY_DEVICE))
			read_log(la, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SUPPORTED, PROBE_ID_PAGES);
		else
			probe_finish(la, 0);
		return;
	case PROBE_ID_PAGES:
		if (ok && !ata_id_log_supported_has(data, ATA_LOG_ID_SATA_SETTINGS, &has) && has)
			read_log(la, ATA_LOG_IDENTIFY_DEVICE, ATA_LOG_ID_SATA_SETTINGS,
				 PROBE_SATA_SETTINGS);
		else
			probe_finish(la, 0);
		return;
	case PROBE_SATA_SETTINGS:
		la->prio_supported = ok && !ata_id_log_sata_settings_ncq_prio(data, &prio) && prio;
		probe_finish(la, 0);
		return;
	default:
		return;
	}
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

int libata_configure(struct libata *la, struct host_knobs *k, struct err *e)
{
	unsigned depth = k->queue_depth;

	unsigned host_tags = host_kernel_host_tags(k->kernel);

	k->ncq_prio_supported = la->prio_supported;
	/* ata_ncq_prio_enable_store(): EIO after an EH revalidation before 5.15, then EINVAL. */
	if (k->ncq_prio_enable && !la->prio_supported)
		return err_set(e, "knob 'device/ncq_prio_enable': writing 1 failed with %s: the "
			       "drive does not support NCQ priority (%s)",
			       host_kernel_has(k->kernel, HOST_KC_NCQ_PRIO_EINVAL) ? "EINVAL" : "EIO",
			       !la->id.ncq_prio ? "IDENTIFY word 76 bit 12 is clear" :
			       "log 30h page 08h does not confirm it");
	/*
	 * ata_scsi_change_queue_depth(): capped by the drive's depth and the
	 * host's tags (31 before 4.18); 1 without NCQ.
	 */
	if (!la->id.ncq)
		depth = 1;
	else if (depth > la->id.queue_depth)
		depth = la->id.queue_depth;
	if (depth > host_tags)
		depth = host_tags;
	k->queue_depth = depth;
	la->depth = depth;
	la->host_tags = la->id.ncq && la->id.queue_depth < host_tags ? la->id.queue_depth : host_tags;
	la->kernel = k->kernel;
	la->timeout = k->timeout;
	la->ncq_on = la->id.ncq && depth > 1;
	la->prio_enabled = k->ncq_prio_enable;
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

unsigned libata_host_tags(const struct libata *la)
{
	return la->ncq_on ? la->host_tags : 1;
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
	sim_debug(la->sim, SIM_DBG_ATA, "SDB sactive %08x status %02x%s", s.sactive, s.status,
		  error ? " (error)" : "");
	la->stats.errors += error ? (unsigned)__builtin_popcount(s.sactive) : 0;
	for (done = s.sactive; done; done &= done - 1)
		blk_complete(la->q, __builtin_ctz(done), error);
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
	if (d.status & ATA_STAT_ERR)
		la->stats.errors++;
	blk_complete(la->q, tag, (d.status & ATA_STAT_ERR) ? -EIO : 0);
}
