# blktrace files for the replay tests, record by record: rec writes one
# little-endian struct blk_io_trace (blktrace_api.h: magic 0x65617407 with
# version 7, then sequence, time in ns, sector, bytes, action, pid, device
# 8:0, cpu, error and pdu_len 0) to stdout.
le() { # VALUE BYTES: VALUE as BYTES little-endian bytes
	local v=$1 n=$2 i
	for ((i = 0; i < n; i++)); do printf "\\x$(printf %02x $(((v >> (8 * i)) & 255)))"; done
}
rec() { # SEQ TIME_NS SECTOR BYTES ACTION PID
	le $((0x65617407)) 4; le "$1" 4; le "$2" 8; le "$3" 8; le "$4" 4; le "$5" 4; le "$6" 4
	le $((8 << 20)) 4; le 0 4; le 0 2; le 0 2
}
# Actions: a queue and an issue event (category << 16 | action), reads and writes.
QUEUE=$(((16 << 16) | 1)) ISSUE=$(((64 << 16) | 7)) R=$((1 << 16)) W=$((2 << 16))
