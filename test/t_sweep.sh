# examples/sweep: the GNU parallel recipe for real (3 shards), and the Slurm
# array script run as Slurm runs each task; both merged tables equal the
# unsharded compare's to the byte.
. test/lib/sh.sh
repo=$(pwd)
export REPEAT=3 RUNTIME=30
expect_rc 0 "$NCQSIM" compare examples/seed.fio --system examples/seed.system \
	--vary device/ncq_prio_enable=0,1 --repeat 3 --runtime 30 --quiet --output "$tmp/full.txt"
if command -v parallel >/dev/null; then
	expect_rc 0 env NCQSIM="$NCQSIM" examples/sweep/parallel.sh "$tmp/par" 3
	checks=$((checks + 1))
	cmp -s "$tmp/full.txt" "$tmp/par/table.txt" ||
		fail "GNU parallel sweep: $(diff "$tmp/full.txt" "$tmp/par/table.txt" | head -5)"
	checks=$((checks + 1))
	[ -s "$tmp/par/plot.svg" ] || fail "GNU parallel sweep: no plot"
else
	echo "GNU parallel is not installed: its recipe is not run here (CI installs it)"
fi
ncqsim_abs=$(cd "$(dirname "$NCQSIM")" && pwd)/$(basename "$NCQSIM")
mkdir "$tmp/slurm"
ln -s "$repo/examples" "$tmp/slurm/examples"
for i in 1 2 3; do
	expect_rc 0 env -C "$tmp/slurm" NCQSIM="$ncqsim_abs" SLURM_ARRAY_TASK_ID=$i \
		SLURM_ARRAY_TASK_COUNT=3 bash "$repo/examples/sweep/slurm.sbatch"
done
expect_rc 0 env -C "$tmp/slurm" NCQSIM="$ncqsim_abs" bash "$repo/examples/sweep/slurm-merge.sbatch"
checks=$((checks + 1))
cmp -s "$tmp/full.txt" "$tmp/slurm/sweep-out/table.txt" ||
	fail "Slurm array sweep: $(diff "$tmp/full.txt" "$tmp/slurm/sweep-out/table.txt" | head -5)"
finish
