#include "util/ioprio.h"

const char *ioprio_class_name(unsigned cls)
{
	switch (cls) {
	case IOPRIO_CLASS_NONE:	return "none";
	case IOPRIO_CLASS_RT:	return "rt";
	case IOPRIO_CLASS_BE:	return "be";
	case IOPRIO_CLASS_IDLE:	return "idle";
	}
	return "invalid";
}
