#include "cli/probe_dev.h"

#include "ata/cmd.h"
#include "util/input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SCSI_GENERIC_MAJOR	21	/* /dev/sgN (Linux Documentation/admin-guide/devices.txt) */
#define SAM_CHECK_CONDITION	0x02
#define DRIVER_SENSE		0x08	/* driver_status: sense data is valid */
#define SENSE_ILLEGAL_REQUEST	0x05
#define SENSE_ABORTED_COMMAND	0x0b
#define SG_TIMEOUT_MS		15000

static void permission_help(char *buf, size_t len, const char *path)
{
	if (geteuid() == 0)
		snprintf(buf, len, "the kernel refused SG_IO even to root (a disk that is not "
			 "SCSI or SATA, such as virtio-blk, or a security policy); probe reads SATA "
			 "drives behind libata or a SAT layer");
	else
		snprintf(buf, len, "sending ATA commands through SG_IO takes root (CAP_SYS_RAWIO "
			 "and read access to the device): run 'sudo ncqsim probe %.200s'. probe only "
			 "reads (IDENTIFY DEVICE and READ LOG EXT); it never writes or changes a "
			 "setting", path);
}

/* ---- the SG_IO transport ---- */

/* The sense key of fixed (70h/71h) or descriptor (72h/73h) sense data. */
static int sense_key(const uint8_t *sense, unsigned len, uint8_t *asc, uint8_t *ascq)
{
	uint8_t code = sense[0] & 0x7f;

	*asc = *ascq = 0;
	if ((code == 0x72 || code == 0x73) && len >= 4) {
		*asc = sense[2];
		*ascq = sense[3];
		return sense[1] & 0xf;
	}
	if ((code == 0x70 || code == 0x71) && len >= 14) {
		*asc = sense[12];
		*ascq = sense[13];
		return sense[2] & 0xf;
	}
	return -1;
}

static int sg_read(void *ctx, const uint8_t cdb[ATA_SAT16_LEN], uint8_t *buf, size_t len,
		   char *why, size_t whylen)
{
	struct probe_dev *d = ctx;
	struct ata_taskfile tf;
	uint8_t cmd[ATA_SAT16_LEN], sense[64];
	struct sg_io_hdr io;
	bool from_device;
	uint8_t asc, ascq;
	int key;

	/* The guard that makes probe read-only whatever its caller builds. */
	if (ata_sat16_parse(cdb, &tf, &from_device) || !from_device ||
	    (tf.command != ATA_CMD_IDENTIFY && tf.command != ATA_CMD_READ_LOG_EXT)) {
		snprintf(why, whylen, "refusing to send anything but IDENTIFY DEVICE and READ LOG EXT");
		return PROBE_FAILED;
	}
	memcpy(cmd, cdb, sizeof(cmd));
	memset(&io, 0, sizeof(io));
	memset(sense, 0, sizeof(sense));
	io.interface_id = 'S';
	io.cmd_len = ATA_SAT16_LEN;
	io.cmdp = cmd;
	io.dxfer_direction = SG_DXFER_FROM_DEV;
	io.dxfer_len = (unsigned)len;
	io.dxferp = buf;
	io.mx_sb_len = sizeof(sense);
	io.sbp = sense;
	io.timeout = SG_TIMEOUT_MS;
	if (ioctl(d->fd, SG_IO, &io) < 0) {
		if (errno == EPERM || errno == EACCES) {
			char help[512];

			permission_help(help, sizeof(help), d->path);
			snprintf(why, whylen, "permission denied: %s", help);
		}
		else if (errno == ENOTTY || errno == EINVAL)
			snprintf(why, whylen, "the device does not take SCSI commands (SG_IO: %s); "
				 "probe reads SATA drives behind libata or a SAT layer, not NVMe, "
				 "virtio or loop devices", strerror(errno));
		else
			snprintf(why, whylen, "SG_IO failed: %s", strerror(errno));
		return PROBE_FAILED;
	}
	if (io.host_status || (io.driver_status & ~DRIVER_SENSE)) {
		snprintf(why, whylen, "transport error (host status %#x, driver status %#x)",
			 io.host_status, io.driver_status);
		return PROBE_FAILED;
	}
	if (io.status == 0)
		return PROBE_OK;
	key = (io.status & 0x7e) == SAM_CHECK_CONDITION ? sense_key(sense, io.sb_len_wr, &asc, &ascq) : -1;
	if (key == SENSE_ABORTED_COMMAND || key == SENSE_ILLEGAL_REQUEST)
		return PROBE_REFUSED;
	if (key == 0 || key == 1)	/* no sense / recovered: the data came */
		return PROBE_OK;
	snprintf(why, whylen, "SCSI status %#x, sense key %#x, ASC/ASCQ %02x/%02x", io.status, key,
		 key < 0 ? 0 : asc, key < 0 ? 0 : ascq);
	return PROBE_FAILED;
}

static const struct probe_transport_ops sg_ops = { .name = "SG_IO", .read = sg_read };

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* An sg node's disk: /sys/dev/char/21:N/device/block/sdX, if it has one. */
static void sg_sysfs(char *out, size_t len, unsigned minor_no)
{
	char dir[256];
	struct dirent *de;
	DIR *dh;

	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u/device/block", SCSI_GENERIC_MAJOR, minor_no);
	snprintf(out, len, "/sys/dev/char/%u:%u", SCSI_GENERIC_MAJOR, minor_no);
	dh = opendir(dir);
	if (!dh)
		return;
	while ((de = readdir(dh)))
		if (de->d_name[0] != '.') {
			snprintf(out, len, "%s/%s", dir, de->d_name);
			break;
		}
	closedir(dh);
}

int probe_dev_open(struct probe_dev *d, const char *path, struct err *e)
{
	struct stat st;
	char part[PROBE_PATH_MAX + 16];

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (stat(path, &st)) {
		err_set(e, "%s: %s", path, strerror(errno));
		return errno == EACCES ? -2 : -1;
	}
	if (S_ISBLK(st.st_mode)) {
		snprintf(d->sysfs, sizeof(d->sysfs), "/sys/dev/block/%u:%u", major(st.st_rdev),
			 minor(st.st_rdev));
		snprintf(part, sizeof(part), "%s/partition", d->sysfs);
		if (!access(part, F_OK)) {
			err_set(e, "%s: a partition; probe the whole disk (such as /dev/sda)", path);
			return -1;
		}
	} else if (S_ISCHR(st.st_mode) && major(st.st_rdev) == SCSI_GENERIC_MAJOR) {
		sg_sysfs(d->sysfs, sizeof(d->sysfs), minor(st.st_rdev));
	} else {
		const char *kind = S_ISCHR(st.st_mode) ? "a character device" :
				   S_ISDIR(st.st_mode) ? "a directory" :
				   S_ISREG(st.st_mode) ? "a regular file" : "not a device";

		if (S_ISCHR(st.st_mode))
			err_set(e, "%s: not a block device or an sg node (%s, %u:%u); probe needs a "
				"disk such as /dev/sda or /dev/sg0", path, kind, major(st.st_rdev),
				minor(st.st_rdev));
		else
			err_set(e, "%s: not a block device or an sg node (%s); probe needs a disk "
				"such as /dev/sda or /dev/sg0%s", path, kind,
				S_ISREG(st.st_mode) ? " (for an IDENTIFY page in a file, --replay FILE)" :
				"");
		return -1;
	}
	d->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (d->fd < 0) {
		int err = errno;

		if (err == EACCES || err == EPERM) {
			char help[512];

			permission_help(help, sizeof(help), path);
			err_set(e, "%s: permission denied: %s", path, help);
			return -2;
		}
		err_set(e, "%s: cannot open: %s", path, strerror(err));
		return -2;
	}
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->t.ops = &sg_ops;
	d->t.ctx = d;
	return 0;
}

/* ---- the replay transport ---- */

static int replay_read(void *ctx, const uint8_t cdb[ATA_SAT16_LEN], uint8_t *buf, size_t len,
		       char *why, size_t whylen)
{
	struct probe_dev *d = ctx;
	struct ata_taskfile tf;
	char path[PROBE_PATH_MAX + 32], *data;
	bool from_device;
	uint16_t page, pages;
	uint8_t log;
	size_t n;
	struct err e;

	if (ata_sat16_parse(cdb, &tf, &from_device) || !from_device) {
		snprintf(why, whylen, "replay: not a data-in ATA PASS-THROUGH(16) CDB");
		return PROBE_FAILED;
	}
	if (tf.command == ATA_CMD_IDENTIFY) {
		memcpy(buf, d->identify, len < sizeof(d->identify) ? len : sizeof(d->identify));
		return PROBE_OK;
	}
	if (ata_cmd_read_log_parse(&tf, &log, &page, &pages))
		return PROBE_REFUSED;
	if (!d->replay[0]) {
		/* An IDENTIFY page alone says nothing about the logs either way. */
		snprintf(why, whylen, "not recorded (an IDENTIFY page alone was replayed)");
		return PROBE_FAILED;
	}
	if (page)
		snprintf(path, sizeof(path), "%s/log-%02x-%02x.bin", d->replay, log, page);
	else
		snprintf(path, sizeof(path), "%s/log-%02x.bin", d->replay, log);
	if (access(path, F_OK))
		return PROBE_REFUSED;
	if (input_read(path, "recorded log page", 1 << 16, false, &data, &n, &e)) {
		snprintf(why, whylen, "%s", e.msg);
		return PROBE_FAILED;
	}
	if (n != len) {
		snprintf(why, whylen, "%s: a recorded log page is %zu bytes, got %zu", path, len, n);
		free(data);
		return PROBE_FAILED;
	}
	memcpy(buf, data, len);
	free(data);
	return PROBE_OK;
}

static const struct probe_transport_ops replay_ops = { .name = "replay", .read = replay_read };

int probe_replay_open(struct probe_dev *d, const char *path, struct err *e)
{
	char file[PROBE_PATH_MAX + 16], why[256], *data;
	enum ata_id_form form;
	size_t n;
	int rc;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (strlen(path) >= PROBE_PATH_MAX)
		return err_set(e, "%s: path too long", path);
	snprintf(file, sizeof(file), "%s", path);
	if (is_dir(path)) {
		snprintf(d->replay, sizeof(d->replay), "%s", path);
		snprintf(file, sizeof(file), "%s/identify", path);
		snprintf(d->sysfs, sizeof(d->sysfs), "%s/sysfs", path);
		if (!is_dir(d->sysfs))
			d->sysfs[0] = '\0';
	}
	if (input_read(file, "IDENTIFY page", 1 << 20, false, &data, &n, e))
		return -1;
	rc = ata_identify_load((const uint8_t *)data, n, d->identify, &form, why, sizeof(why));
	free(data);
	if (rc)
		return err_set(e, "%s: not an IDENTIFY DEVICE page: %s", file, why);
	d->t.ops = &replay_ops;
	d->t.ctx = d;
	return 0;
}

void probe_dev_close(struct probe_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* ---- sysfs ---- */

static void sysfs_value(const struct probe_dev *d, const char *rel, char *out, size_t len)
{
	char path[PROBE_PATH_MAX + 64];
	FILE *f;
	size_t n;

	out[0] = '\0';
	if (!d->sysfs[0])
		return;
	snprintf(path, sizeof(path), "%s/%s", d->sysfs, rel);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(out, (int)len, f))
		out[0] = '\0';
	fclose(f);
	n = strlen(out);
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
}

void probe_sysfs_read(const struct probe_dev *d, struct probe_sysfs *s)
{
	sysfs_value(d, "device/queue_depth", s->queue_depth, sizeof(s->queue_depth));
	sysfs_value(d, "device/ncq_prio_supported", s->ncq_prio_supported,
		    sizeof(s->ncq_prio_supported));
	sysfs_value(d, "device/ncq_prio_enable", s->ncq_prio_enable, sizeof(s->ncq_prio_enable));
	sysfs_value(d, "device/cdl_supported", s->cdl_supported, sizeof(s->cdl_supported));
	sysfs_value(d, "device/cdl_enable", s->cdl_enable, sizeof(s->cdl_enable));
	sysfs_value(d, "queue/scheduler", s->scheduler, sizeof(s->scheduler));
}
