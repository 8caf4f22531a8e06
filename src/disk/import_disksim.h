/*
 * import_disksim — a DiskSim 4.0 drive as an ncqsim measured drive file.
 *
 * The disk is found through the .parv as DiskSim finds it: the block an
 * `instantiate [ NAME ] as BLOCK` names, of type disksim_disk; its
 * `Model = source FILE.model` (a dm_disk with a dm_layout_g1 layout and a
 * dm_mech_g1 mechanism); the bus above the instance in the `topology`
 * for the per-block transfer times. Exactly one disk type may be
 * instantiated.
 *
 * What maps where (docs/DRIVES.md has the table):
 *   zones, slips, defects, sparing scheme, surfaces, cylinders, block count
 *   seek table: "extracted" (the .seek file), "hpl" and "hplplus10" (the
 *     HPL formula, sampled; the first ten measured seeks for hplplus10)
 *   write settle, head switch, rpm
 *   the eight command overheads, read/write completion overheads
 *   bus time per sector: the slower of the disk's "Bulk sector transfer
 *     time" and its bus's block transfer time (read and write)
 *   cache: segments, segment size, maximum read-ahead, fast write level
 *     (write cache on when > 0), read hits on write data
 * Every other key of the disk, its model and its bus is written to `notes`
 * once, with its file and line, as not modelled; every other top-level
 * block is named there once as not part of the drive.
 */
#ifndef NCQSIM_DISK_IMPORT_DISKSIM_H
#define NCQSIM_DISK_IMPORT_DISKSIM_H

#include <stdio.h>

#include "util/err.h"

/*
 * Read `parv_path` (text NULL: from disk; otherwise `text` is its content
 * and sourced files come from path's directory) and write the drive file
 * to `out`, the not-modelled notes to `notes` (may be NULL).
 */
int disk_import_disksim(const char *parv_path, const char *text, FILE *out, FILE *notes,
			struct err *e);

#endif
