/*
 * probe_dev — the two transports `ncqsim probe` reads a drive through
 * (ata/probe.h), and the kernel's view of the drive from sysfs.
 *
 *   probe_dev_open()     a real device: a block device (/dev/sda) or an sg
 *                        node (/dev/sg0), opened read-only; commands go out
 *                        as SG_IO ATA PASS-THROUGH(16), and only IDENTIFY
 *                        DEVICE and READ LOG EXT, data-in, are let through.
 *   probe_replay_open()  recorded replies: an IDENTIFY page file (any form
 *                        `ncqsim identify` reads), or a folder holding
 *                        `identify` (same forms), `log-XX.bin` (log XXh page
 *                        0) or `log-XX-PP.bin` (page PPh) of 512 bytes each,
 *                        and `sysfs/` laid out as /sys/block/sdX/ (device/
 *                        queue_depth, queue/scheduler, ...). A command with
 *                        no recorded reply is refused, as by a drive that
 *                        lacks the log.
 */
#ifndef NCQSIM_PROBE_DEV_H
#define NCQSIM_PROBE_DEV_H

#include "ata/probe.h"
#include "util/err.h"

#define PROBE_PATH_MAX 4096

struct probe_dev {
	struct probe_transport t;
	int fd;					/* the device; -1 for a replay */
	char path[PROBE_PATH_MAX];		/* the device, for messages */
	char sysfs[PROBE_PATH_MAX];		/* sysfs folder of the disk, "" if none */
	char replay[PROBE_PATH_MAX];		/* replay folder, "" for one file */
	uint8_t identify[ATA_ID_BYTES];		/* replay: the recorded page */
};

/*
 * Open a device. Errors (in `e`): not a block device or sg node, a
 * partition, no permission (with what it takes). Returns 0, -1 for bad
 * input (exit 2), -2 for an environment problem (permission; exit 1).
 */
int probe_dev_open(struct probe_dev *d, const char *path, struct err *e);
int probe_replay_open(struct probe_dev *d, const char *path, struct err *e);
void probe_dev_close(struct probe_dev *d);

/* The kernel's view: each value as sysfs reads it (trimmed), "" when absent. */
struct probe_sysfs {
	char queue_depth[32];
	char ncq_prio_supported[8], ncq_prio_enable[8];
	char cdl_supported[8], cdl_enable[8];
	char scheduler[128];
};
void probe_sysfs_read(const struct probe_dev *d, struct probe_sysfs *s);

#endif
