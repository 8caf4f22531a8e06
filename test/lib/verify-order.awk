# The read-back order of a verifying job's iolog (fio's or ncqsim's
# write_iolog): prints "RUNS fifo=F sorted=S unique=U" where RUNS is the
# run-length pattern of directions ("w10 r4 w4 ..."), F is 1 when every
# read is the oldest write not yet read back (fio's list), S is 1 when
# the reads after the last write are in increasing offset order with no
# block twice (fio's rb-tree), and U is 1 when they read each distinct
# block written exactly once.
BEGIN { qh = 0; qt = 0; tailn = 0 }
$3 == "read" || $3 == "write" {
	c = substr($3, 1, 1)
	if (c == last)
		n++
	else {
		if (last != "")
			runs = runs (runs == "" ? "" : " ") last n
		last = c
		n = 1
	}
	if (c == "w") {
		q[qt++] = $4
		written[$4] = 1
		tailn = 0
		lastw = NR
	} else {
		if (qh < qt && q[qh] == $4)
			qh++
		else
			fifo_bad = 1
		tail[tailn++] = $4
	}
}
END {
	runs = runs (runs == "" ? "" : " ") last n
	sorted = 1
	for (i = 1; i < tailn; i++)
		if (tail[i] <= tail[i - 1])
			sorted = 0
	for (i = 0; i < tailn; i++)
		seen[tail[i]]++
	unique = 1
	for (o in written)
		if (seen[o] != 1)
			unique = 0
	for (o in seen)
		if (!(o in written))
			unique = 0
	printf "%s fifo=%d sorted=%d unique=%d\n", runs, !fifo_bad, sorted, unique
}
