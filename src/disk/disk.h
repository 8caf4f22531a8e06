/*
 * disk — the simulated SATA hard disk. It speaks ATA and nothing else: the
 * host hands it the 20 bytes of a Register H2D FIS and gets back Set Device
 * Bits FISes (NCQ completions, several tags at once when they finish at the
 * same instant) or Register D2H FISes (non-queued commands, with the data of
 * IDENTIFY DEVICE and READ LOG). The host never reads the drive's
 * internals; what the drive supports it learns from IDENTIFY and the logs.
 *
 * Inside: layout (LBA → zone/cylinder/head/sector), mechanics (seek,
 * rotation, transfer), the firmware queue and its policy (fwq), the cache.
 *
 * Commands:
 *   READ/WRITE FPDMA QUEUED   queued, PRIO honoured per the model
 *   READ/WRITE DMA EXT, WRITE DMA FUA EXT   one at a time, no PRIO
 *   IDENTIFY DEVICE, READ LOG EXT, READ LOG DMA EXT (logs 00h, 10h, 30h)
 *   SET FEATURES 02h/82h (write cache), AAh/55h (read look-ahead)
 *   FLUSH CACHE EXT: answered once every dirty sector is on the media
 *   DATA SET MANAGEMENT TRIM (with the model's trim): ranges leave the read cache
 *   FUA: a FUA write is written through; a FUA read (READ FPDMA QUEUED) is read
 *   from the media, never served from the cache
 *   a soft reset (Device Control SRST): aborts every command unanswered
 * Anything else is aborted (status ERR, error ABRT), as is a non-queued
 * command while queued ones are outstanding. A queued command on a tag that
 * is in use, or beyond the drive's queue depth, is a host bug: it aborts the
 * simulation.
 */
#ifndef NCQSIM_DISK_H
#define NCQSIM_DISK_H

#include <stddef.h>
#include <stdint.h>

#include "disk/fwq.h"
#include "disk/mech.h"
#include "disk/model.h"
#include "sim/sim.h"
#include "util/err.h"

struct disk;

struct disk_host_ops {
	/* A Set Device Bits FIS (8 bytes). */
	void (*sdb)(void *host, const uint8_t *fis, size_t len);
	/*
	 * A Register D2H FIS (20 bytes) ending a non-queued command, with the
	 * data a PIO or DMA data-in command returned (NULL, 0 for none).
	 */
	void (*d2h)(void *host, const uint8_t *fis, size_t len, const uint8_t *data,
		    size_t data_len);
};

struct disk_stats {
	uint64_t commands;		/* every command received */
	uint64_t media_reads, media_writes, destages;
	uint64_t cache_hits, write_cached;
	uint64_t stream_reads;		/* reads that continued the read before them or read-ahead */
	uint64_t coalesced_writes;	/* cached writes that joined the newest dirty range */
	uint64_t dirty_overwrites;	/* cached writes over dirty sectors (they replace them) */
	uint64_t in_place_writes;	/* ... of those, wholly inside one dirty range */
	uint64_t room_waits;		/* cached writes that waited for room in the buffer */
	uint64_t written_through;	/* ... and went to the media instead (age_limit, CDL) */
	uint64_t dirty_bytes_max;	/* the most the buffer held dirty or was taking in */
	uint64_t stream_writes;		/* writes and destages that continued the write before them */
	uint64_t aborted, errors;
	uint64_t flushes, resets;	/* FLUSH CACHE EXT received; soft resets */
	uint64_t trims;			/* DATA SET MANAGEMENT TRIM commands done */
	uint64_t verifies;		/* READ VERIFY SECTORS (EXT) commands taken */
	uint64_t picks, picks_aged, picks_prio, picks_soft_normal;
	int64_t busy_ns, seek_ns, rotate_ns, transfer_ns, overhead_ns;
	uint64_t cdl_commands, cdl_timeouts;	/* under a CDL descriptor; ended by a limit */
};

/* One firmware choice, for tests and the debug trace. */
struct disk_pick_event {
	int64_t now;
	const struct fwq_ctx *ctx;
	const struct fwq_cmd *const *cands;
	unsigned n, chosen;
	uint32_t batch_end;		/* batched policies: fwq_queue.batch_end */
	enum fwq_reason reason;
	const struct disk_access *acc;
};
typedef void (*disk_pick_fn)(void *ctx, const struct disk_pick_event *ev);

struct disk *disk_new(struct sim *sim, const struct disk_model *m,
		      const struct disk_host_ops *ops, void *host, struct err *e);
void disk_free(struct disk *d);

/* A command: the 20 bytes of a Register H2D FIS. */
void disk_submit(struct disk *d, const uint8_t *fis, size_t len);
/* A DMA data-out command with its data (DATA SET MANAGEMENT's ranges). */
void disk_submit_data(struct disk *d, const uint8_t *fis, size_t len, const uint8_t *data,
		      size_t data_len);

/*
 * The counts so far. picks* and media_* are summed from counters of their
 * own at each call: a pointer kept shows them as of the last call.
 */
const struct disk_stats *disk_get_stats(struct disk *d);
void disk_set_pick_observer(struct disk *d, disk_pick_fn fn, void *ctx);

#endif
