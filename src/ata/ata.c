#include "ata/ata.h"

const char *ata_strerror(int err)
{
	switch (err) {
	case ATA_OK:		return "success";
	case ATA_E_LENGTH:	return "wrong length";
	case ATA_E_FIS_TYPE:	return "not a FIS of the expected type";
	case ATA_E_TAG:		return "tag must be 0..31";
	case ATA_E_LBA:		return "LBA must be below 2^48";
	case ATA_E_COUNT:	return "sector count must be 1..65536";
	case ATA_E_CDL:		return "CDL index must be 0..7";
	case ATA_E_PRIO:	return "PRIO 11b is reserved";
	case ATA_E_COMMAND:	return "not the command expected";
	case ATA_E_ICC:		return "ICC must be 0..255";
	case ATA_E_NOT_IDENTIFY: return "not an IDENTIFY DEVICE page in any known form";
	case ATA_E_LOG:		return "malformed log page";
	case ATA_E_CHECKSUM:	return "bad checksum";
	case ATA_E_RANGE:	return "field out of range";
	case ATA_E_PORT:	return "port multiplier port must be 0..15";
	}
	return "unknown error";
}

const char *ata_prio_name(enum ata_prio p)
{
	switch (p) {
	case ATA_PRIO_NORMAL:		return "normal";
	case ATA_PRIO_ISOCHRONOUS:	return "isochronous";
	case ATA_PRIO_HIGH:		return "high";
	}
	return "reserved";
}
