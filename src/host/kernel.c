#include "host/kernel.h"

#include <string.h>

const struct opt_choice host_kernel_choices[] = {
	{ "4.10", HOST_KERNEL_4_10, "the seed's kernel: legacy block layer, 4.10 deadline, 31 AHCI tags" },
	{ "5.15", HOST_KERNEL_5_15, "blk-mq only; mq-deadline still priority-blind" },
	{ "6.1", HOST_KERNEL_6_1, "mq-deadline with priority classes; ioprio from nice/policy" },
	{ "6.6", HOST_KERNEL_6_6, "FUA writes by default" },
	{ "6.12", HOST_KERNEL_6_12, "current" },
	{ NULL, 0, NULL },
};

/*
 * What changed, oldest first. Each fact was read in the kernel sources
 * (the function named), in the version before and after.
 */
static const struct host_kernel_row rows[HOST_KC_COUNT] = {
	{ HOST_KC_AHCI_32_TAGS, "host tags", HOST_KERNEL_5_15, "4.18",
	  "31 host tags: tag 31 is ATA_TAG_INTERNAL (ahci_sht .can_queue = AHCI_MAX_CMDS - 1); "
	  "device/queue_depth at most 31",
	  "32 host tags (the internal command got a tag of its own)",
	  "drivers/ata/ahci.h AHCI_SHT .can_queue; include/linux/libata.h ATA_TAG_INTERNAL" },
	{ HOST_KC_BLK_MQ, "request pool and dispatch budget", HOST_KERNEL_5_15, "5.0",
	  "legacy request queue: nr_requests 128 (BLKDEV_MAX_RQ) whatever the scheduler; "
	  "device/queue_depth limits dispatch; scheduler none does not exist (noop is not modelled)",
	  "blk-mq: nr_requests = 2 x min(host tags, 128) under a scheduler, the host tags under "
	  "none; device/queue_depth is the dispatch budget, so none's requests over it wait in "
	  "the dispatch list (clat, not slat)",
	  "block/blk-core.c blk_init_allocated_queue; block/blk-mq-sched.c blk_mq_init_sched; "
	  "drivers/scsi/scsi_lib.c scsi_mq_get_budget" },
	{ HOST_KC_BUDGET_FIRST, "when the scheduler chooses", HOST_KERNEL_5_15, "5.0",
	  "scsi_request_fn() peeks the scheduler's next request (it moves to the dispatch queue) "
	  "before asking whether the device can take one: with the device full, the choice is made "
	  "then, and nothing overtakes it",
	  "blk_mq_do_dispatch_sched() gets the device's budget first and only then asks the "
	  "scheduler, so the choice is made when a command can go",
	  "drivers/scsi/scsi_lib.c scsi_request_fn (4.10); block/blk-mq-sched.c "
	  "blk_mq_do_dispatch_sched" },
	{ HOST_KC_DEADLINE_ALIAS, "deadline", HOST_KERNEL_5_15, "5.0",
	  "deadline is the legacy single-queue scheduler (block/deadline-iosched.c)",
	  "deadline-iosched.c is gone; \"deadline\" selects mq-deadline (its elevator_alias) and "
	  "queue/scheduler reads back [mq-deadline] none",
	  "block/mq-deadline.c mq_deadline.elevator_alias; block/elevator.c elevator_match" },
	{ HOST_KC_NO_PRIO_MERGE, "merges", HOST_KERNEL_5_15, "after 4.10",
	  "requests of different priority merge; the merged one keeps the best "
	  "(attempt_merge: ioprio_best)",
	  "a bio never joins a request of another priority",
	  "block/blk-merge.c blk_rq_merge_ok, attempt_merge" },
	{ HOST_KC_NCQ_PRIO_EINVAL, "ncq_prio_enable on an unsupported drive", HOST_KERNEL_5_15, "5.15",
	  "writing 1 to ncq_prio_enable on a drive without NCQ priority fails with EIO (after an "
	  "EH revalidation); no ncq_prio_supported",
	  "it fails with EINVAL at once; device/ncq_prio_supported reads the probe's answer",
	  "drivers/ata/libata-sata.c ata_ncq_prio_enable_store (libata-scsi.c in 4.10)" },
	{ HOST_KC_MQ_DEADLINE_PRIO, "mq-deadline priority classes", HOST_KERNEL_6_1, "5.16",
	  "mq-deadline is priority-blind: one set of FIFOs and sort lists; no prio_aging_expire",
	  "mq-deadline keeps RT, BE and IDLE apart, dispatches the highest class with requests "
	  "queued or in flight, and ages lower classes after prio_aging_expire",
	  "block/mq-deadline.c dd_dispatch_request, __dd_dispatch_request" },
	{ HOST_KC_MQ_DEADLINE_LATEST_POS, "mq-deadline batches", HOST_KERNEL_6_6, "6.5",
	  "a batch continues with the sector-order successor of the request last dispatched "
	  "(next_rq per class and direction)",
	  "it continues with the first request at or beyond the class's last dispatched position "
	  "(latest_pos), so a request inserted behind the head is not skipped over",
	  "block/mq-deadline.c deadline_next_request, deadline_from_pos" },
	{ HOST_KC_TASK_IOPRIO_FROM_NICE, "default I/O priority", HOST_KERNEL_6_1, "6.0",
	  "an I/O of a task that never set an I/O priority carries class none (BE to the "
	  "scheduler, never RT), whatever its scheduling policy and nice",
	  "it carries the class of the task's policy (RT for SCHED_FIFO/RR, IDLE for SCHED_IDLE, "
	  "else BE) and level (nice + 20) / 5",
	  "block/ioprio.c __get_task_ioprio; block/blk-mq.c blk_mq_bio_to_request" },
	{ HOST_KC_FUA, "FUA", HOST_KERNEL_6_6, "6.2",
	  "libata.fua=0: no FUA; a sync=1 write is a plain write followed by FLUSH CACHE EXT "
	  "(block/blk-flush.c's post-flush)",
	  "libata.fua=1: a sync=1 write is WRITE FPDMA QUEUED with FUA",
	  "drivers/ata/libata-core.c libata_fua; block/blk-flush.c blk_flush_policy" },
	{ HOST_KC_RW_HINT, "write hints", HOST_KERNEL_5_15, "4.13",
	  "no write-life hints: fcntl F_SET_RW_HINT and F_SET_FILE_RW_HINT fail with EINVAL "
	  "(fio's write_hint: the job ends before its first I/O)",
	  "both set a hint (the open file's, the inode's); a bio carries the file's, else the "
	  "inode's, and requests of different hints never merge; the SCSI disk and libata do "
	  "nothing else with it",
	  "fs/fcntl.c fcntl_rw_hint; block/fops.c __blkdev_direct_IO (bi_write_hint); "
	  "block/blk-merge.c blk_rq_merge_ok" },
	{ HOST_KC_NOWAIT, "RWF_NOWAIT", HOST_KERNEL_5_15, "4.13",
	  "no RWF_NOWAIT: preadv2/pwritev2 fail with EOPNOTSUPP, io_submit with EINVAL (the "
	  "iocb's aio_rw_flags is still reserved)",
	  "a direct I/O with REQ_NOWAIT that finds no free request (under none, no free tag) "
	  "fails with EAGAIN instead of waiting; one that merges needs none",
	  "fs/read_write.c kiocb_set_rw_flags; block/blk-mq.c blk_mq_submit_bio, "
	  "bio_wouldblock_error" },
	{ HOST_KC_NO_FILE_RW_HINT, "per-file write hints removed", HOST_KERNEL_6_1, "5.18",
	  "F_SET_FILE_RW_HINT sets the open file's hint",
	  "F_SET_FILE_RW_HINT fails with EINVAL (fio's write_hint with direct=1: the job ends "
	  "before its first I/O); bios carry no write hint at all",
	  "fs/fcntl.c do_fcntl (5.18: fs.f_write_hint removed); include/linux/blk_types.h" },
	{ HOST_KC_BIO_WRITE_HINT, "write hints in bios again", HOST_KERNEL_6_12, "6.9",
	  "a bio carries no write hint",
	  "direct I/O to a block device carries its inode's hint (F_SET_RW_HINT), and requests "
	  "of different hints never merge",
	  "block/fops.c __blkdev_direct_IO (bi_write_hint); block/blk-merge.c blk_rq_merge_ok" },
	{ HOST_KC_POLL_EOPNOTSUPP, "polled I/O without poll queues", HOST_KERNEL_6_12, "6.12",
	  "a polled bio (io_uring with IOPOLL, fio's hipri) on a queue without poll queues (AHCI "
	  "has none) goes out unpolled and completes by interrupt while the application spins",
	  "it fails with EOPNOTSUPP",
	  "block/blk-core.c submit_bio_noacct (BLK_FEAT_POLL)" },
	{ HOST_KC_DISCARD_STATS, "discard statistics", HOST_KERNEL_5_15, "4.18",
	  "a discard counts in the disk's write fields (ios, ticks; fio's \"Disk stats\" "
	  "write column)",
	  "discards have fields of their own (12-15 of /proc/diskstats), which fio does not "
	  "show; in_queue still counts their time",
	  "block/blk-core.c blk_account_io_done (op_stat_group); block/genhd.c diskstats_show" },
	{ HOST_KC_PASSTHROUGH_BYPASS, "SG_IO requests", HOST_KERNEL_5_15, "5.6",
	  "the legacy queue adds a passthrough request (fio's sg engine) at the back after "
	  "draining the elevator into the queue (ELEVATOR_INSERT_BACK): every request the "
	  "scheduler holds goes out before it, in the scheduler's order",
	  "it goes straight to the tail of the dispatch list (hctx->dispatch), past the "
	  "scheduler and ahead of what the scheduler holds",
	  "block/elevator.c __elv_add_request (4.10); block/blk-mq-sched.c "
	  "blk_mq_sched_bypass_insert" },
	{ HOST_KC_FUA_LBA48, "non-NCQ FUA writes", HOST_KERNEL_6_6, "6.3",
	  "without NCQ (queue depth 1) a FUA write whose range fits 28-bit LBA finds no "
	  "command (there is no 28-bit FUA write) and fails: ILLEGAL REQUEST, EIO to SG_IO",
	  "a FUA write is always 48-bit: WRITE DMA FUA EXT (3Dh); a FUA read without NCQ "
	  "fails before and after (ATA has no FUA read but READ FPDMA QUEUED's)",
	  "drivers/ata/libata-core.c ata_build_rw_tf, ata_rwcmd_protocol" },
};

const char *host_kernel_name(int kernel)
{
	if (kernel < 0 || kernel >= HOST_KERNEL_COUNT)
		return "?";
	return host_kernel_choices[kernel].name;
}

bool host_kernel_has(int kernel, enum host_kernel_change c)
{
	return kernel >= (int)rows[c].first;
}

void host_kernel_print(FILE *out)
{
	unsigned i;
	int k;

	fprintf(out, "| what | since: in | before | from then on | follows |\n|---|---|---|---|---|\n");
	for (i = 0; i < HOST_KC_COUNT; i++) {
		const struct host_kernel_row *r = &rows[i];

		fprintf(out, "| %s | %s:", r->name, r->since);
		for (k = r->first; k < HOST_KERNEL_COUNT; k++)
			fprintf(out, "%s%s", k == (int)r->first ? " " : ", ", host_kernel_name(k));
		fprintf(out, " | %s | %s | %s |\n", r->before, r->after, r->follows);
	}
}

/* "5.16" < "6.1": dotted numbers (up to three) compared field by field. */
static long version_code(const char *v)
{
	unsigned a = 0, b = 0, c = 0;

	sscanf(v, "%u.%u.%u", &a, &b, &c);
	return (long)a << 20 | (long)b << 10 | c;
}

bool host_kernel_knob_exists(int kernel, const char *source)
{
	return !source || version_code(source) <= version_code(host_kernel_name(kernel));
}

unsigned host_kernel_host_tags(int kernel)
{
	return host_kernel_has(kernel, HOST_KC_AHCI_32_TAGS) ? 32 : 31;
}

uint16_t host_kernel_io_prio(int kernel, uint16_t io_prio, uint16_t task_prio, int nice,
			     enum sched_policy policy)
{
	if (host_kernel_has(kernel, HOST_KC_TASK_IOPRIO_FROM_NICE))
		return ioprio_effective(io_prio, task_prio, nice, policy);
	return ioprio_class(io_prio) != IOPRIO_CLASS_NONE ? io_prio : task_prio;
}
