/*
 * libata — the host's ATA driver, as Linux's libata does it.
 *
 * Probe (at start, before any I/O), learning what the drive supports the way
 * the kernel does — never by looking at the drive model:
 *   1. IDENTIFY DEVICE: NCQ when word 76 bit 8 is set (word 76 trusted only
 *      when neither 0000h nor FFFFh), queue depth (word 75) + 1.
 *   2. If word 76 bit 12 (NCQ priority) is set, ata_dev_config_ncq_prio():
 *      the GPL directory (log 00h) must list log 30h, log 30h page 00h must
 *      list page 08h, and page 08h byte 9 bit 3 must be set. READ LOG DMA
 *      EXT when IDENTIFY says the drive has it, else READ LOG EXT.
 *
 * Then each request becomes one command:
 *   NCQ on  (drive has NCQ and device/queue_depth > 1): READ/WRITE FPDMA
 *           QUEUED on the request's tag, PRIO = high exactly when
 *           device/ncq_prio_enable is on and the request's class is RT (any
 *           level), else normal;
 *   NCQ off: READ/WRITE DMA EXT, one at a time, no priority — silently,
 *           as the kernel does.
 * Completions arrive as Set Device Bits FISes (queued) or Register D2H
 * FISes (non-queued); the tag maps back to the request.
 *
 * libata talks to the drive only through a link (send one H2D FIS); whoever
 * builds the system wires the link to the drive and the drive's answers to
 * libata_receive_*(): host and drive share nothing but ATA.
 */
#ifndef NCQSIM_LIBATA_H
#define NCQSIM_LIBATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ata/cdl.h"
#include "ata/identify.h"
#include "host/knobs.h"
#include "sim/sim.h"
#include "util/err.h"

struct blk_queue;
struct blk_request;
struct libata;

struct libata_link_ops {
	void (*send)(void *link, const uint8_t *fis, size_t len);
	/* A DMA data-out command with its data (DATA SET MANAGEMENT's ranges); NULL: none. */
	void (*send_data)(void *link, const uint8_t *fis, size_t len, const uint8_t *data,
			  size_t data_len);
};

/*
 * libata's discard limit: one 512-byte DSM payload of ATA_MAX_TRIM_RNUM (64)
 * ranges of 65535 sectors (ata_scsiop_inq_b0(), the WRITE SAME(16) limit sd
 * takes as max_discard_sectors).
 */
#define LIBATA_MAX_TRIM_SECTORS (65535ULL * 64)

struct libata_stats {
	uint64_t ncq_cmds, prio_high_cmds, dma_cmds, errors;
	uint64_t flushes, fua_cmds;		/* FLUSH CACHE EXT sent; writes with FUA */
	uint64_t fua_reads;			/* reads with FUA (SG_IO's READ with its FUA bit) */
	uint64_t illegal;			/* SCSI commands refused untranslated (ILLEGAL REQUEST) */
	uint64_t trims;				/* DATA SET MANAGEMENT TRIM sent */
	uint64_t verify_cmds;			/* READ VERIFY SECTORS (EXT) sent (SCSI VERIFY) */
	uint64_t timeouts, resets, retries;	/* error handling */
	uint64_t ncq_errors;			/* SDB FISes with ERR */
	uint64_t cdl_cmds, cdl_timeouts;	/* commands with a CDL index; ended with -ETIME */
};

struct libata *libata_new(struct sim *sim, const struct libata_link_ops *ops, void *link);
void libata_free(struct libata *la);

/*
 * Probe the drive; done(ctx, 0) when finished, done(ctx, -1) with a message
 * in libata_probe_error() when the drive did not answer IDENTIFY.
 */
void libata_probe(struct libata *la, void (*done)(void *ctx, int error), void *ctx);
const char *libata_probe_error(const struct libata *la);
const struct ata_identify *libata_identify(const struct libata *la);
bool libata_ncq_prio_supported(const struct libata *la);
/* IDENTIFY word 169 bit 0 (ata_id_has_trim()), and the link can carry the payload. */
bool libata_trim_supported(const struct libata *la);
/* CDL: the drive passed ata_dev_config_cdl()'s checks and its log 18h was read. */
bool libata_cdl_supported(const struct libata *la);
const struct ata_cdl_log *libata_cdl_log(const struct libata *la);
/*
 * After libata_configure(): make the drive's CDL state follow device/cdl_enable
 * (SET FEATURES 0Dh). Returns false when nothing needs sending; else
 * done(ctx, 0 or -1) follows, with a message in libata_probe_error().
 */
bool libata_cdl_sync(struct libata *la, void (*done)(void *ctx, int error), void *ctx);

/*
 * Apply the knobs after the probe, as writes to sysfs: queue_depth is capped
 * by the drive's; ncq_prio_enable = 1 on a drive without NCQ priority fails
 * with EINVAL as in the kernel. Updates k (queue_depth, ncq_prio_supported)
 * to what the kernel would read back.
 */
int libata_configure(struct libata *la, struct host_knobs *k, struct err *e);
void libata_attach(struct libata *la, struct blk_queue *q);

/* device/queue_depth as configured: how many commands may be outstanding. */
unsigned libata_queue_depth(const struct libata *la);
/* The tags the host allocates from (ATA tags 0..n-1): 1 with NCQ off. */
unsigned libata_host_tags(const struct libata *la);
/* The drive's volatile write cache is on (IDENTIFY words 82/85 bit 5): flushes mean something. */
bool libata_write_cache(const struct libata *la);
bool libata_ncq_enabled(const struct libata *la);
unsigned libata_logical_sector_size(const struct libata *la);
uint64_t libata_capacity(const struct libata *la);

/*
 * blk: send the request as one command on `tag` (FLUSH CACHE EXT for a
 * flush step, else a read or write, FUA when the request says so) — or,
 * when libata defers it as ata_std_qc_defer() does, call
 * blk_issue_deferred() before it returns: a non-NCQ command waits until no
 * NCQ command is active, an NCQ one while a non-NCQ one is, anything
 * during error handling. (No return value: the usual command's send is
 * then a tail call.)
 *
 * Each command has device/timeout to finish. When one times out, nothing
 * new is sent; once every other command has finished or timed out too,
 * error handling resets the link (SRST: the drive aborts everything),
 * revalidates the drive (IDENTIFY) and sends each timed-out command again,
 * up to 5 times (sd's SD_MAX_RETRIES), after which it fails with -EIO.
 */
void libata_issue(struct libata *la, struct blk_request *rq, unsigned tag);

void libata_receive_sdb(struct libata *la, const uint8_t *fis, size_t len);
void libata_receive_d2h(struct libata *la, const uint8_t *fis, size_t len,
			const uint8_t *data, size_t data_len);

const struct libata_stats *libata_get_stats(const struct libata *la);

#endif
