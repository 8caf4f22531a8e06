#include "host/libata.h"

#include "ata/cdl.h"
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
	PROBE_CAPABILITIES,
	PROBE_CURRENT_SETTINGS,
	PROBE_CDL_LOG,
	PROBE_CDL_ENABLE,
	PROBE_DONE,
};

struct libata {
	struct sim *sim;
	const struct libata_link_ops *ops;
	/* ops->send, copied: every command's call then loads one pointer, not two. */
	void (*send)(void *link, const uint8_t *fis, size_t len);
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
	/*
	 * Tags whose command carries a CDL index (apart from ncq_active and
	 * failed: beside either, gcc pairs their updates in SSE registers).
	 */
	uint32_t cdl_tags;

	bool ncq_on, prio_enabled, cdl_enabled;
	/*
	 * NCQ on with neither PRIO nor CDL enabled, eh EH_IDLE, no non-queued
	 * command out, the timer armed and no ATA debugging: libata_issue()'s
	 * one test of libata's state. Kept by issue_plain_update(), which
	 * eh_set(), nonqueued_set(), timer_armed_set() and libata_configure()
	 * call: nothing assigns those fields but them.
	 */
	bool issue_plain;
	/*
	 * EH idle (so `failed` is 0: EH sets it and clears it before it goes
	 * idle), CDL off (so cdl_tags is 0) and no ATA debugging:
	 * libata_receive_sdb()'s one test of libata's state, kept with
	 * issue_plain.
	 */
	bool sdb_plain;
	unsigned depth;			/* device/queue_depth: the dispatch budget */
	unsigned host_tags;		/* tags the host hands out: ATA tags 0..host_tags-1 */
	int kernel;
	int64_t timeout;
	int nonqueued_tag;		/* the tag of the outstanding non-queued command */
	uint32_t ncq_active;		/* NCQ tags outstanding (link->sactive) */
	struct libata_stats stats;

	/* Timeouts and error handling. */
	int64_t deadline[32];		/* per outstanding tag */
	bool timer_armed;		/* the one timer, as blk-mq's q->timeout */
	sim_handle_t timer;
	enum { EH_IDLE, EH_WAIT, EH_RESET, EH_REVALIDATE, EH_NCQ_LOG } eh;
	uint32_t failed;		/* tags owned by EH: timed out, or aborted by an NCQ error */
	uint32_t timed_out;		/* of those, the ones that timed out (they use up retries) */
	uint8_t dsm[ATA_SECTOR_SIZE];	/* the payload of the DSM TRIM out (one at a time) */
	/*
	 * The FIS of the NCQ command being sent: here, not on the stack, so
	 * that the send is the issue's tail call (the drive reads it within
	 * the send, and nothing sends another meanwhile).
	 */
	uint8_t ncq_fis[ATA_FIS_H2D_LEN];
	uint32_t illegal_tags;		/* refused untranslated: failed in the next event */
	uint32_t nothing_tags;		/* a VERIFY of no blocks: done well in the next event */
};

static void issue_plain_update(struct libata *la)
{
	bool debug = sim_debugging(la->sim, SIM_DBG_ATA);

	la->issue_plain = la->ncq_on && !la->prio_enabled && !la->cdl_enabled &&
		la->eh == EH_IDLE && la->nonqueued_tag < 0 && la->timer_armed && !debug;
	la->sdb_plain = la->eh == EH_IDLE && !la->cdl_enabled && !debug;
}

static void eh_set(struct libata *la, int eh)
{
	la->eh = eh;
	issue_plain_update(la);
}

static void nonqueued_set(struct libata *la, int tag)
{
	la->nonqueued_tag = tag;
	issue_plain_update(la);
}

static void timer_armed_set(struct libata *la, bool armed)
{
	la->timer_armed = armed;
	issue_plain_update(la);
}

/* sd's SD_MAX_RETRIES: scmd->allowed for disk commands. */
#define SD_MAX_RETRIES 5

struct libata *libata_new(struct sim *sim, const struct libata_link_ops *ops, void *link)
{
	struct libata *la = calloc(1, sizeof(*la));

	if (!la)
		return NULL;
	la->sim = sim;
	la->ops = ops;
	la->send = ops->send;
	la->link = link;
	la->depth = 1;
	nonqueued_set(la, -1);

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

/* A DATA SET MANAGEMENT TRIM for a discard request, as ata_scsi_write_same_xlat(). */
static void send_trim(struct libata *la, const struct blk_request *rq, unsigned tag)
{
	struct ata_taskfile tf;
	uint8_t fis[ATA_FIS_H2D_LEN];
	unsigned n = ata_dsm_trim_encode(rq->lba, rq->nlb, la->dsm, 1);

	SIM_ASSERT(n, "a discard of %u sectors beyond one DSM payload", rq->nlb);
	ata_cmd_dsm_trim(&tf, 1);
	ata_h2d_encode(&tf, fis);
	if (sim_debugging(la->sim, SIM_DBG_ATA)) {
		char line[160];

		ata_libata_line(&tf, tag, line, sizeof(line));
		sim_debug_print(la->sim, SIM_DBG_ATA, "issue %s (trim lba %llu +%u)", line,
				(unsigned long long)rq->lba, rq->nlb);
	}
	la->ops->send_data(la->link, fis, sizeof(fis), la->dsm, sizeof(la->dsm));
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

bool libata_trim_supported(const struct libata *la)
{
	return la->id.trim && la->ops->send_data;
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

	unsigned host_tags = host_kernel_host_tags(k->kernel);

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
	la->cdl_enabled = k->cdl_enable;
	/* sdb_plain's promise: with CDL off, no tag carries a CDL index. */
	SIM_ASSERT(la->cdl_enabled || !la->cdl_tags, "CDL turned off with CDL commands out (0x%x)",
		   la->cdl_tags);
	issue_plain_update(la);
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

bool libata_write_cache(const struct libata *la)
{
	return la->id.write_cache && la->id.write_cache_enabled;
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

/* --debug=ata: the command sent, in libata's one-line form (out of line: its buffers stay off the hot path). */
static __attribute__((noinline)) void debug_issue(struct libata *la, const uint8_t fis[ATA_FIS_H2D_LEN], unsigned tag)
{
	struct ata_taskfile tf;
	char line[160];

	ata_h2d_decode(fis, ATA_FIS_H2D_LEN, &tf);
	ata_libata_line(&tf, tag, line, sizeof(line));
	sim_debug_print(la->sim, SIM_DBG_ATA, "issue %s", line);
}

/* debug_issue(), then the send: one call, so that the FIS's address need not outlive it. */
static __attribute__((noinline)) void debug_issue_send(struct libata *la,
						       const uint8_t fis[ATA_FIS_H2D_LEN],
						       unsigned tag)
{
	debug_issue(la, fis, tag);
	la->send(la->link, fis, ATA_FIS_H2D_LEN);
}

static void timed_out(struct sim *sim, void *arg);

/* blk_add_timer(): the timer goes off at a deadline rounded up to a whole second. */
static void timer_arm(struct libata *la, int64_t deadline)
{
	timer_armed_set(la, true);
	la->timer = sim_at(la->sim, (deadline + SIM_SEC - 1) / SIM_SEC * SIM_SEC, timed_out, la);
}

/*
 * blk_mq_start_request() sets the request's deadline. One timer serves the
 * queue, as in blk-mq: deadlines only grow, so it is armed for the oldest
 * and, when it goes off, re-armed for the oldest still out — a completion
 * costs nothing.
 */
static uint32_t outstanding(const struct libata *la)
{
	return la->ncq_active | (la->nonqueued_tag >= 0 ? 1u << la->nonqueued_tag : 0);
}

/* Nothing out: no timer either (a pending one would only stretch the run). */
static void timer_idle(struct libata *la)
{
	/* outstanding(la) == 0, tested cheapest first: under load NCQ tags are out. */
	if (!la->ncq_active && la->nonqueued_tag < 0 && la->timer_armed) {
		sim_cancel(la->sim, la->timer);
		timer_armed_set(la, false);
	}
}

static inline void timer_start(struct libata *la, unsigned tag)
{
	la->deadline[tag] = sim_now(la->sim) + la->timeout;
	if (!la->timer_armed)
		timer_arm(la, la->deadline[tag]);
}

/*
 * The SCSI commands libata answered without the drive: those it refused
 * end with -EIO (ILLEGAL REQUEST), a VERIFY of no blocks with good status
 * (ata_scsi_verify_xlat()'s nothing_to_do).
 */
static void illegal_done(struct sim *sim, void *arg)
{
	struct libata *la = arg;
	uint32_t tags = la->illegal_tags, nothing = la->nothing_tags;
	unsigned tag;

	(void)sim;
	la->illegal_tags = la->nothing_tags = 0;
	for (tag = 0; tag < 32; tag++)
		if ((tags | nothing) & (1u << tag))
			blk_complete(la->q, (int)tag, tags & (1u << tag) ? -EIO : 0);
}

/* Answer the SCSI command on `tag` in the next event, -EIO or good, without the drive. */
static void answer_without_drive(struct libata *la, unsigned tag, bool illegal)
{
	if (!la->illegal_tags && !la->nothing_tags)
		sim_after(la->sim, 0, illegal_done, la);
	if (illegal)
		la->illegal_tags |= 1u << tag;
	else
		la->nothing_tags |= 1u << tag;
}

/*
 * An SG_IO CDB other than READ/WRITE (fio's sg_write_mode). VERIFY(10/16)
 * is ata_scsi_verify_xlat()'s: READ VERIFY SECTORS (EXT) for the CDB's
 * range, its BYTCHK and any data-out buffer ignored, a non-data command
 * that waits for the drive's queue to drain (ata_std_qc_defer()); a CDB
 * of no blocks is done without a command (nothing_to_do), a range past
 * the drive's end or over 65536 blocks fails (out_of_range). The others
 * have no translation on any kernel — WRITE AND VERIFY, WRITE SAME(10),
 * WRITE STREAM: ata_get_xlat_func() has none, so ata_scsi_simulate()
 * answers invalid opcode; WRITE SAME(16): ata_scsi_write_same_xlat()
 * takes it only with UNMAP, which fio never sets (and, where it checks
 * blk_rq_is_passthrough() first, never through SG_IO).
 * Refusals come before a command is built, so before any deferral.
 */
static __attribute__((noinline)) int issue_cdb(struct libata *la, const struct blk_request *rq,
					       unsigned tag)
{
	struct ata_taskfile tf;
	bool verify = rq->cdb == BLK_CDB_VERIFY;

	if (la->eh != EH_IDLE)
		return -EBUSY;
	if (verify && !rq->nlb) {
		answer_without_drive(la, tag, false);
		return 0;
	}
	if (!verify || rq->lba + rq->nlb > la->id.sectors ||
	    ata_cmd_read_verify(&tf, rq->lba, rq->nlb) != ATA_OK) {
		la->stats.illegal++;
		sim_debug(la->sim, SIM_DBG_ATA, "tag %u: %s lba %llu +%u: no ATA command "
			  "(ILLEGAL REQUEST)", tag, verify ? "VERIFY" : "SCSI command",
			  (unsigned long long)rq->lba, rq->nlb);
		answer_without_drive(la, tag, true);
		return 0;
	}
	if (la->nonqueued_tag >= 0 || la->ncq_active)
		return -EBUSY;
	nonqueued_set(la, (int)tag);
	la->stats.verify_cmds++;
	send_tf(la, &tf, tag);
	timer_start(la, tag);
	return 0;
}

/*
 * ata_build_rw_tf() without NCQ: ATA has no FUA read but READ FPDMA
 * QUEUED's, and before 6.3 a FUA write whose range fits 28-bit LBA was
 * given a 28-bit command, of which there is no FUA one (ata_rwcmd_protocol()
 * finds none). Only SG_IO's CDBs ask for a FUA read; sd asks for a FUA
 * write without NCQ only with libata.fua=1, from 6.2.
 */
static bool rw_untranslatable(const struct libata *la, const struct blk_request *rq)
{
	if (!rq->fua)
		return false;
	if (!rq->write)
		return true;
	return !host_kernel_has(la->kernel, HOST_KC_FUA_LBA48) &&
		rq->lba + rq->nlb < (1ULL << 28) && rq->nlb <= 256;
}

/*
 * A command ata_rw_fis_build() refuses: a bug above libata (out of line,
 * its fields from the request, so that the caller keeps nothing live for
 * it: only the priority and the CDL index are ncq_issue()'s own).
 */
static __attribute__((noinline, noreturn, cold)) void ncq_unbuildable(const struct blk_request *rq,
								     unsigned tag,
								     enum ata_prio prio,
								     uint8_t cdl)
{
	int rc = ata_rw_fis_refused(true, rq->write, rq->fua, (uint8_t)tag, prio, rq->nlb, rq->lba,
				    cdl);

	SIM_ASSERT(rc == ATA_OK, "cannot build a command for lba %llu +%u: %s",
		   (unsigned long long)rq->lba, rq->nlb, ata_strerror(rc));
	sim_assert_fail(__FILE__, __LINE__, "!ata_rw_fis_refuses(&rw)",
			"ata_rw_fis_refuses() and ata_rw_fis_refused() disagree");
}

/*
 * A read or write as READ/WRITE FPDMA QUEUED on `tag`: every I/O's
 * command, inline in libata_issue() with `plain` true (issue_plain: neither
 * device/ncq_prio_enable nor device/cdl_enable on, the timer running, no
 * debug line; and blk_rq_plain_rw(): no FUA), out of line in issue_other()
 * with it false, so that the common case keeps nothing live across its
 * calls and ends in the send.
 */
static inline __attribute__((always_inline)) void ncq_issue(struct libata *la,
							    const struct blk_request *rq,
							    unsigned tag, bool plain)
{
	/*
	 * Tags are bits of 32-bit masks (blk's, and ncq_active below): 0..31
	 * (blk_queue_attach() asserts that the host has no more), so the tag's
	 * own limit never fails, and `& 31` says so to the compiler.
	 */
	struct ata_rw rw = { .write = rq->write, .ncq = true, .tag = (uint8_t)(tag & 31),
		.sectors = rq->nlb, .lba = rq->lba, .fua = !plain && rq->fua };

	/* ata_build_rw_tf(): only the RT class sets PRIO, whatever its level. */
	if (!plain && la->prio_enabled && ioprio_class(rq->ioprio) == IOPRIO_CLASS_RT) {
		rw.prio = ATA_PRIO_HIGH;
		la->stats.prio_high_cmds++;
	}
	la->stats.ncq_cmds++;
	la->ncq_active |= 1u << tag;
	if (rw.fua) {
		la->stats.fua_cmds += rq->write;
		la->stats.fua_reads += !rq->write;
	}
	/*
	 * sd_cdl_dld() then ata_set_tf_cdl(): with device/cdl_enable on, hints
	 * 1..7 (IOPRIO_HINT_DEV_DURATION_LIMIT_1..7) name a descriptor, carried
	 * in AUXILIARY (NCQ) or FEATURE (non-NCQ) bits 2:0. cdl_tags stays 0
	 * with it off.
	 */
	if (!plain && la->cdl_enabled) {
		la->cdl_tags &= ~(1u << tag);
		if (ioprio_hint(rq->ioprio) >= 1 && ioprio_hint(rq->ioprio) <= 7) {
			rw.cdl = (uint8_t)ioprio_hint(rq->ioprio);
			la->cdl_tags |= 1u << tag;
			la->stats.cdl_cmds++;
		}
	}
	/* The FIS built straight from the fields (ata_rw_fis_build: ata_rw_build's, encoded). */
	if (ata_rw_fis_refuses(&rw))
		ncq_unbuildable(rq, tag, rw.prio, rw.cdl);
	ata_rw_fis_encode(&rw, la->ncq_fis);
	/*
	 * The deadline before the send (as blk_mq_start_request() sets it
	 * before queue_rq()); an idle timer armed after it, as before (its
	 * event's place among the drive's depends on it). The send does not
	 * move the clock, so the deadline is the same `now + timeout` after
	 * it, nor does it touch the timer (the drive answers in events of its
	 * own): the timer_armed of issue_plain, tested before the send, holds
	 * after it.
	 */
	la->deadline[tag] = sim_now(la->sim) + la->timeout;
	if (!plain && sim_debugging(la->sim, SIM_DBG_ATA))
		debug_issue_send(la, la->ncq_fis, tag);
	else
		la->send(la->link, la->ncq_fis, ATA_FIS_H2D_LEN);
	if (!plain && !la->timer_armed)
		timer_arm(la, la->deadline[tag]);
}

/* libata_issue() of anything but an NCQ read or write (out of line). */
static __attribute__((noinline)) int issue_nonqueued(struct libata *la, struct blk_request *rq,
						     unsigned tag)
{
	struct ata_rw rw = { .write = rq->write, .sectors = rq->nlb, .lba = rq->lba,
		.fua = rq->fua };
	struct ata_taskfile tf;
	uint8_t fis[ATA_FIS_H2D_LEN];
	int rc;

	/* An SG_IO CDB other than READ/WRITE takes its own way, refusals before any deferral. */
	if (rq->cdb)
		return issue_cdb(la, rq, tag);
	/* ata_std_qc_defer(): a non-NCQ command waits until no command is active. */
	if (la->eh != EH_IDLE || la->nonqueued_tag >= 0 || la->ncq_active)
		return -EBUSY;
	if (rq->flush) {
		ata_cmd_flush_ext(&tf);
		nonqueued_set(la, (int)tag);
		la->stats.flushes++;
		send_tf(la, &tf, tag);
		timer_start(la, tag);
		return 0;
	}
	if (rq->discard) {
		/* Not queued: SEND FPDMA QUEUED's DSM needs log 13h, which ncqsim's drives lack. */
		nonqueued_set(la, (int)tag);
		la->stats.trims++;
		send_trim(la, rq, tag);
		timer_start(la, tag);
		return 0;
	}
	if (rw_untranslatable(la, rq)) {
		/* The SCSI command fails with ILLEGAL REQUEST, no ATA command sent. */
		la->stats.illegal++;
		sim_debug(la->sim, SIM_DBG_ATA, "tag %u: %s FUA lba %llu +%u: no ATA command "
			  "(ILLEGAL REQUEST)", tag, rq->write ? "write" : "read",
			  (unsigned long long)rq->lba, rq->nlb);
		answer_without_drive(la, tag, true);
		return 0;
	}
	nonqueued_set(la, (int)tag);
	la->stats.dma_cmds++;
	la->stats.fua_cmds += rq->fua && rq->write;
	la->stats.fua_reads += rq->fua && !rq->write;
	la->cdl_tags &= ~(1u << tag);
	if (la->cdl_enabled && ioprio_hint(rq->ioprio) >= 1 && ioprio_hint(rq->ioprio) <= 7) {
		rw.cdl = (uint8_t)ioprio_hint(rq->ioprio);
		la->cdl_tags |= 1u << tag;
		la->stats.cdl_cmds++;
	}
	rc = ata_rw_fis_build(&rw, fis);
	SIM_ASSERT(rc == ATA_OK, "cannot build a command for lba %llu +%u: %s",
		   (unsigned long long)rq->lba, rq->nlb, ata_strerror(rc));
	if (sim_debugging(la->sim, SIM_DBG_ATA))
		debug_issue(la, fis, tag);
	la->ops->send(la->link, fis, sizeof(fis));
	timer_start(la, tag);
	return 0;
}

/* libata_issue() of all but a plain NCQ read or write when it can go (out of line). */
static int issue_other(struct libata *la, struct blk_request *rq, unsigned tag)
{
	if (!la->ncq_on || rq->flush || rq->discard || rq->cdb)
		return issue_nonqueued(la, rq, tag);
	/* ata_std_qc_defer(): an NCQ command waits while a non-NCQ one is active (and during EH). */
	if (la->eh != EH_IDLE || la->nonqueued_tag >= 0)
		return -EBUSY;
	/* Neither deferred nor plain: PRIO, CDL, FUA or ATA debugging is on, or the timer is idle. */
	ncq_issue(la, rq, tag, false);
	return 0;
}

/* libata_issue() of all but the usual command, which may be deferred (out of line). */
static __attribute__((noinline)) void issue_slow(struct libata *la, struct blk_request *rq,
						 unsigned tag)
{
	if (issue_other(la, rq, tag))
		blk_issue_deferred(la->q);
}

void libata_issue(struct libata *la, struct blk_request *rq, unsigned tag)
{
	/*
	 * Every I/O's command: an NCQ read or write, not FUA, with neither
	 * PRIO nor CDL on, nothing to defer it (ata_std_qc_defer(): la->eh !=
	 * EH_IDLE or la->nonqueued_tag >= 0), the timer running and no debug
	 * line — the libata side in one flag (issue_plain). All else is issue_other()'s,
	 * in the order of its tests (with PRIO and CDL off, its ncq_issue()
	 * is this one).
	 */
	if (la->issue_plain && blk_rq_plain_rw(rq)) {
		ncq_issue(la, rq, tag, true);
		return;
	}
	issue_slow(la, rq, tag);
}

/* ---- error handling (libata-eh.c, after the SCSI midlayer's rules) ---- */

/*
 * The SCSI host is in recovery from the first timeout: nothing new is
 * dispatched, and EH starts once every command still out has finished or
 * timed out too (scsi_eh_wakeup(): host_busy == host_failed).
 */
static void eh_maybe_start(struct libata *la)
{
	struct ata_taskfile tf;
	uint32_t out = outstanding(la);

	if (la->eh != EH_WAIT || (out & ~la->failed))
		return;
	if (!la->failed) {
		/* The timed-out commands finished after all: honoured, nothing to recover. */
		eh_set(la, EH_IDLE);
		sim_debug(la->sim, SIM_DBG_ATA, "EH: the timed-out commands completed; EH complete");
		blk_quiesce(la->q, false);
		return;
	}
	/* ata_eh_reset(): the port frozen, every command aborted by a reset of the link. */
	eh_set(la, EH_RESET);
	la->stats.resets++;
	sim_debug(la->sim, SIM_DBG_ATA, "EH: exception SAct 0x%x, tags 0x%x timed out (Emask 0x4 "
		  "timeout): resetting link", la->ncq_active, la->failed);
	ata_cmd_srst(&tf, true);
	send_tf(la, &tf, 0);
	ata_cmd_srst(&tf, false);
	send_tf(la, &tf, 0);
}

/* blk_mq_timeout_work(): every command past its deadline has timed out. */
static void timed_out(struct sim *sim, void *arg)
{
	struct libata *la = arg;
	uint32_t out = outstanding(la);
	uint32_t live = out & ~la->failed, t;
	int64_t now = sim_now(sim), next = INT64_MAX;

	timer_armed_set(la, false);
	for (t = live; t; t &= t - 1) {
		unsigned tag = (unsigned)__builtin_ctz(t);

		if (la->deadline[tag] > now) {
			next = la->deadline[tag] < next ? la->deadline[tag] : next;
			continue;
		}
		la->stats.timeouts++;
		la->failed |= 1u << tag;
		la->timed_out |= 1u << tag;
		sim_debug(sim, SIM_DBG_ATA, "tag %u timed out (device/timeout %.0f s)", tag,
			  la->timeout / 1e9);
		if (la->eh == EH_IDLE) {
			eh_set(la, EH_WAIT);
			blk_quiesce(la->q, true);
		}
	}
	if (next != INT64_MAX)
		timer_arm(la, next);
	eh_maybe_start(la);
}

/*
 * After the reset and the revalidation (IDENTIFY), each timed-out command
 * goes again while the midlayer allows (scmd->retries < SD_MAX_RETRIES),
 * else it fails with -EIO.
 */
static void eh_finish(struct libata *la, int culprit)
{
	uint32_t tags = la->failed, timed_out = la->timed_out;

	la->failed = la->timed_out = 0;
	la->ncq_active = 0;
	nonqueued_set(la, -1);
	eh_set(la, EH_IDLE);
	for (; tags; tags &= tags - 1) {
		int tag = __builtin_ctz(tags);
		struct blk_request *rq = blk_tag_request(la->q, tag);
		bool counts = (timed_out >> tag) & 1;

		/*
		 * The command the drive failed (IDNF: AC_ERR_INVALID) is not
		 * worth a retry (ata_eh_worth_retry()); the others it aborted
		 * go again without using one up (ata_eh_qc_retry()).
		 */
		if (tag != culprit && (!counts || rq->retries < SD_MAX_RETRIES)) {
			la->stats.retries++;
			blk_requeue(la->q, tag, counts);
		} else {
			la->stats.errors++;
			blk_complete(la->q, tag, -EIO);
		}
	}
	sim_debug(la->sim, SIM_DBG_ATA, "EH complete");
	blk_quiesce(la->q, false);
}

static void eh_answer(struct libata *la, const struct ata_d2h *d)
{
	struct ata_taskfile tf;

	if (la->eh == EH_RESET) {
		/* ata_eh_revalidate_and_attach(): IDENTIFY again. */
		sim_debug(la->sim, SIM_DBG_ATA, "EH: link up (status %02x), revalidating", d->status);
		eh_set(la, EH_REVALIDATE);
		ata_cmd_identify(&tf);
		send_tf(la, &tf, 0);
		return;
	}
	eh_finish(la, -1);
}

/*
 * An NCQ error (SDB with ERR): the drive has aborted every queued command.
 * ata_eh_analyze_ncq_error() reads the NCQ Command Error log (10h) to find
 * the one that failed; no reset is needed.
 */
static void eh_ncq_error(struct libata *la)
{
	struct ata_taskfile tf;

	la->stats.ncq_errors++;
	la->failed |= la->ncq_active;
	if (la->eh == EH_IDLE)
		blk_quiesce(la->q, true);
	eh_set(la, EH_NCQ_LOG);
	sim_debug(la->sim, SIM_DBG_ATA, "EH: NCQ error, tags 0x%x aborted: reading log 10h",
		  la->failed);
	ata_cmd_read_log(&tf, la->id.read_log_dma, ATA_LOG_NCQ_ERROR, 0, 1);
	send_tf(la, &tf, 0);
}

static void eh_ncq_log(struct libata *la, const struct ata_d2h *d, const uint8_t *data,
		       size_t len)
{
	struct ata_ncq_error ne;
	int culprit = -1;

	if (!(d->status & ATA_STAT_ERR) && data && len >= ATA_LOG_PAGE_BYTES &&
	    ata_ncq_error_parse(data, &ne) == ATA_OK && !ne.nq)
		culprit = ne.tag;
	sim_debug(la->sim, SIM_DBG_ATA, "EH: log 10h names tag %d (status %02x error %02x lba %llu)",
		  culprit, culprit >= 0 ? ne.status : 0, culprit >= 0 ? ne.error : 0,
		  culprit >= 0 ? (unsigned long long)ne.lba : 0ULL);
	eh_finish(la, culprit);
}

/* An SDB with ERR or SENSE: CDL ends, NCQ errors (out of line). */
static __attribute__((noinline)) void sdb_exception(struct libata *la, const struct ata_sdb *sdb)
{
	struct ata_sdb s = *sdb;
	uint32_t done;
	bool cdl_abort;

	/*
	 * ERR with ABRT on tags that carry a duration limit is the drive ending
	 * them by CDL policy 0xF; any other ERR is an NCQ error, for EH.
	 */
	cdl_abort = (s.status & ATA_STAT_ERR) && (s.error & ATA_ERR_ABRT) && s.sactive &&
		!(s.sactive & ~la->cdl_tags);
	sim_debug(la->sim, SIM_DBG_ATA, "SDB sactive %08x status %02x error %02x%s", s.sactive,
		  s.status, s.error, cdl_abort ? " (CDL abort)" : (s.status & ATA_STAT_ERR) ?
		  " (NCQ error)" : (s.status & ATA_STAT_SENSE) ? " (sense)" : "");
	for (done = s.sactive; done; done &= done - 1) {
		unsigned tag = (unsigned)__builtin_ctz(done);
		int rc = 0;

		/*
		 * A command with a duration limit that the drive ended early: aborted
		 * (policy 0xF: ERR, ABRT) or completed without data (0xD: good status
		 * with SENSE DATA AVAILABLE). The kernel reads the sense data (log 10h
		 * or the successful NCQ commands log 0Fh) and completes the request
		 * with BLK_STS_DURATION_LIMIT, -ETIME; ncqsim's libata takes the
		 * status bits for the sense data (docs/HOST.md, "CDL").
		 */
		if ((la->cdl_tags & (1u << tag)) &&
		    (cdl_abort || (!(s.status & ATA_STAT_ERR) && (s.status & ATA_STAT_SENSE))))
			rc = -ETIME;
		la->stats.cdl_timeouts += rc == -ETIME;
		la->cdl_tags &= ~(1u << tag);
		/*
		 * A completion that comes after the timeout but before EH runs
		 * is honoured (ata_scsi_cmd_error_handler()).
		 */
		la->ncq_active &= ~(1u << tag);
		la->failed &= ~(1u << tag);
		blk_complete(la->q, (int)tag, rc);
	}
	if ((s.status & ATA_STAT_ERR) && !cdl_abort) {
		eh_ncq_error(la);
		return;
	}
	timer_idle(la);
	if (la->eh == EH_WAIT)
		eh_maybe_start(la);
}

/*
 * libata_receive_sdb() of anything but good completions, or with
 * --debug=ata (out of line): -1 when it has dealt with the SDB, else the
 * tags it completes.
 */
static __attribute__((noinline)) int64_t sdb_not_plain(struct libata *la, const uint8_t *fis,
						       size_t len)
{
	struct ata_sdb s;

	SIM_ASSERT(ata_sdb_decode(fis, len, &s) == ATA_OK, "malformed SDB FIS from the drive");
	if (s.status & (ATA_STAT_ERR | ATA_STAT_SENSE)) {
		sdb_exception(la, &s);
		return -1;
	}
	sim_debug(la->sim, SIM_DBG_ATA, "SDB sactive %08x status %02x error %02x", s.sactive,
		  s.status, s.error);
	return s.sactive;
}

/* The good completion of the tags in `done`, lowest first (out of line: any number). */
static __attribute__((noinline)) void sdb_complete_tags(struct libata *la, uint32_t done)
{
	while (done) {
		/* The lowest tag as its bit: no shift, no constant kept across the call. */
		uint32_t bit = done & -done;

		done &= ~bit;
		la->cdl_tags &= ~bit;	/* stays 0 without CDL */
		la->ncq_active &= ~bit;
		la->failed &= ~bit;
		blk_complete(la->q, __builtin_ctz(bit), 0);
	}
}

/* After an SDB's completions: the timer as the commands left out want it, and EH if it waits. */
static inline void sdb_after_completions(struct libata *la)
{
	timer_idle(la);
	if (la->eh == EH_WAIT)
		eh_maybe_start(la);
}

/*
 * libata_receive_sdb() in general: any SDB, the debug line, any number of
 * tags (out of line). `good`: the fast codec took the frame as good
 * completions of `done`; an SDB that is not one, and the debug line, go
 * through sdb_not_plain(), which decodes it whole.
 */
static __attribute__((noinline)) void sdb_receive_other(struct libata *la, const uint8_t *fis,
							size_t len, bool good, uint32_t done)
{
	if (!good || sim_debugging(la->sim, SIM_DBG_ATA)) {
		int64_t tags = sdb_not_plain(la, fis, len);

		if (tags < 0)
			return;
		done = (uint32_t)tags;
	}
	sdb_complete_tags(la, done);
	sdb_after_completions(la);
}

/* The one tag's completion when it may leave nothing out or EH waiting (out of line). */
static __attribute__((noinline)) void sdb_complete_then_idle(struct libata *la, unsigned tag)
{
	blk_complete(la->q, (int)tag, 0);
	sdb_after_completions(la);
}

void libata_receive_sdb(struct libata *la, const uint8_t *fis, size_t len)
{
	uint32_t done = 0;

	/*
	 * Every I/O's completion: good status (neither a CDL abort nor sense
	 * data, nor an NCQ error) for one tag, in libata's plain state
	 * (sdb_plain) — as sdb_exception() would complete it, without its
	 * tests, and without clearing the tag from `failed` and cdl_tags,
	 * which sdb_plain says are 0. All else is sdb_receive_other()'s.
	 */
	bool good = ata_sdb_decode_good(fis, len, &done);

	if (!good || !la->sdb_plain || !done || (done & (done - 1))) {
		sdb_receive_other(la, fis, len, good, done);
		return;
	}
	la->ncq_active &= ~done;
	/*
	 * With other NCQ commands still out (and EH idle), nothing is left to
	 * do after the completion (sdb_complete_then_idle()'s tests would find
	 * nothing): the timer stays, as ncq_active only grows within
	 * blk_complete(), which issues commands but completes none (the drive
	 * answers in events of its own); and only the timer's event enters
	 * EH_WAIT. So the completion is a tail call.
	 */
	if (la->ncq_active) {
		blk_complete_good(la->q, __builtin_ctz(done));
		return;
	}
	sdb_complete_then_idle(la, (unsigned)__builtin_ctz(done));
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
	if (la->eh == EH_RESET || la->eh == EH_REVALIDATE) {
		eh_answer(la, &d);
		return;
	}
	if (la->eh == EH_NCQ_LOG) {
		eh_ncq_log(la, &d, data, data_len);
		return;
	}
	tag = la->nonqueued_tag;
	SIM_ASSERT(tag >= 0, "D2H FIS with no non-queued command outstanding");
	nonqueued_set(la, -1);
	la->failed &= ~(1u << tag);
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
	timer_idle(la);
	eh_maybe_start(la);
}
