# Shape of a fio iolog (version 3, fio's or ncqsim's write_iolog): per
# direction "DIR N FOLLOW SIZED ALIGNED", then "end E":
#   N        I/Os of that direction
#   FOLLOW   percent of them (after the first) that start where that
#            direction's previous I/O ended
#   SIZED    percent that are S bytes long (-v S=...)
#   ALIGNED  percent whose offset is a multiple of A (-v A=...)
#   E        where the last I/O ended
$3 == "read" || $3 == "write" {
	d = $3
	n[d]++
	if (seen[d] && $4 == prev[d])
		f[d]++
	seen[d] = 1
	prev[d] = $4 + $5
	if ($5 == S)
		s[d]++
	if (A && $4 % A == 0)
		a[d]++
	last = $4 + $5
}
END {
	for (i = 0; i < 2; i++) {
		d = i ? "write" : "read"
		if (d in n)
			printf "%s %d %d %d %d ", d, n[d], 100 * f[d] / (n[d] > 1 ? n[d] - 1 : 1) + 0.5,
				100 * s[d] / n[d] + 0.5, 100 * a[d] / n[d] + 0.5
	}
	printf "end %.0f\n", last
}
