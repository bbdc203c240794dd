#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh full|smoke - run the fairdie benchmarks and collect their results.
#
#   full   the whole bench (Documentation/design/fairdie.rst): host part (RDSEED, side by
#          side, CPU cost, extractor yield), then the VM part (kernel read
#          path against /dev/urandom, memory per open file), the plot and
#          out/results.md
#   smoke  the same with tiny sizes; only checks that every BENCH key comes
#          out with a number
#
# Environment: VM=0 skips the VM part (default 1), KVER the VM's kernel
# series (default 6.1), BENCH_ARGS and GUEST_ARGS extra options for
# out/bench and out/guest_read. Exit status: 0 when every BENCH key that
# must exist does, with a numeric value; 1 otherwise. Targets of the design document
# that are not met do not fail the run: a benchmark is not a test.

set -u

mode=${1:-}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$here/out
vm=${VM:-1}
kver=${KVER:-6.1}

case $mode in
full)
	bench_args="-t 1 -c 0.5 -r 5 -s 1000000 -b 33554432"
	guest_args="-r 7 -m 32 -f 1000 -o 300 -S 10"
	cli_args="-r 5 -n 10000000 -l 1000000 -v 20000"
	;;
smoke)
	bench_args="-t 0.05 -c 0.02 -r 2 -s 20000 -b 262144"
	guest_args="-r 2 -m 2 -s 2000 -f 100 -o 20 -S 1"
	cli_args="-r 1 -n 100000 -l 10000 -v 200"
	;;
*)
	echo "usage: run.sh full|smoke" >&2
	exit 2
	;;
esac
bench_args="$bench_args ${BENCH_ARGS:-}"
guest_args="$guest_args ${GUEST_ARGS:-}"

mkdir -p "$out" || exit 1
rm -f "$out/host.md" "$out/vm.md" "$out/cli.md" "$out/methods.dat" \
	"$out/bench.png" "$out/results.md" "$out/bench.rc"
status=0

# ------------------------------------------------------------ host part

echo "== host benchmarks ($mode): out/bench $bench_args" >&2
# shellcheck disable=SC2086
{
	"$out/bench" $bench_args -d "$out/methods.dat"
	echo $? >"$out/bench.rc"
} | tee "$out/host.md"
if [ "$(cat "$out/bench.rc")" != 0 ]; then
	echo "run.sh: out/bench failed (status $(cat "$out/bench.rc"))" >&2
	status=1
fi

# ------------------------------------------------- the tool beside shuf

echo "== the fairdie tool beside shuf: out/cli $cli_args" >&2
# shellcheck disable=SC2086
if ! "$out/cli" $cli_args -g "$top/tools/cli/build/seal-gen" -d "$out" \
	"$top/tools/fairdie" >"$out/cli.md"; then
	echo "run.sh: out/cli failed" >&2
	status=1
fi
sed '/^## Figures for machines/,$d' "$out/cli.md"

# -------------------------------------------------------------- VM part

vm_part() {
	rel=$("$top/tools/scripts/kernel.sh" "$kver") || return 1
	ko=$top/.build/mod-$rel/fairdie.ko
	echo "== building the module for $rel" >&2
	make -s -C "$top" vm-module KVER="$kver" >"$out/vm-build.log" 2>&1 || {
		tail -n 20 "$out/vm-build.log" >&2
		return 1
	}
	{
		echo "## The kernel read path (VM: QEMU TCG, Debian $rel)"
		echo
		echo "The module's own read path in the guest kernel: /dev/fairdie with"
		echo "sides = 256, extractor none, source crng, against /dev/urandom in the"
		echo "same boot, reads alternating; ratio = median of the per-repetition"
		echo "ratios. TCG emulates every instruction, so only the ratio means"
		echo "anything, not the MB/s."
		echo
	} >"$out/vm.md"
	# The size of struct fairdie_file from the module's debug information:
	# what one open file allocates (kvzalloc()) whatever its extractor.
	if command -v pahole >/dev/null; then
		size=$(pahole -C fairdie_file "$ko" 2>/dev/null |
			sed -n 's|^	/\* size: \([0-9]*\),.*|\1|p' | tail -n 1)
		if [ -n "$size" ]; then
			echo "sizeof(struct fairdie_file) = $size bytes (pahole on fairdie.ko)."
			echo
			echo "BENCH fairdie_file_sizeof $size"
		fi >>"$out/vm.md"
	fi
	echo "== VM: guest_read $guest_args" >&2
	# shellcheck disable=SC2086
	"$top/tools/vm/vm.sh" --kernel "/boot/vmlinuz-$rel" --timeout 600 \
		--module "$ko" --bin "$out/guest_read" -- \
		"guest_read $guest_args" | tee -a "$out/vm.md"
}

if [ "$vm" = 1 ]; then
	vm_part || {
		echo "run.sh: the VM part failed" >&2
		status=1
	}
fi

# ------------------------------------------------------- plot and report

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
if [ -s "$out/methods.dat" ]; then
	gnuplot -e "datafile='$out/methods.dat'; outfile='$out/bench.png'; subtitle='($cpu, $(date +%Y-%m-%d))'" \
		"$here/plot.gp" 2>"$out/gnuplot.log" || {
		cat "$out/gnuplot.log" >&2
		status=1
	}
fi

# results.md: the host tables, the VM tables, the plot, and every BENCH
# line once, at the end.
{
	sed '/^## Figures for machines/,$d' "$out/host.md"
	sed '/^## Figures for machines/,$d' "$out/cli.md"
	[ -s "$out/vm.md" ] && grep -v '^BENCH ' "$out/vm.md" && echo
	[ -s "$out/bench.png" ] && printf '## Plot\n\n![bench](bench.png)\n\n'
	echo "## Figures for machines"
	echo
	# The CPU as out/bench named it: figures of different CPUs differ.
	cpu_id=$(sed -n 's/^CPU: \(.*\), [0-9]* online\.$/\1/p' "$out/host.md")
	echo "Kernel $(uname -r) on the host; CPU: ${cpu_id:-unknown}; mode $mode."
	echo
	echo '```'
	cat "$out/host.md" "$out/cli.md" "$out/vm.md" 2>/dev/null | grep '^BENCH '
	echo '```'
} >"$out/results.md"

# ------------------------------------------------------------ the check

# The CPU cost of the read path, mixed dice, and the model ratios.
cpu_keys="cpu_none_source_bits_per_s cpu_peres_source_bits_per_s
d6_mixed_bits_per_roll cpu_stage_health_ns_per_word cpu_stage_vn_ns_per_word
cpu_stage_peres_ns_per_word cpu_stage_sampler_d6_ns_per_word
d2_none_ratio_model64 d6_none_ratio_model64 d6_peres_ratio_model64
cpu_pipeline_d6_none_ns_per_word cpu_pipeline_d6_peres_ns_per_word
cpu_weights_2d6_ns_per_word weights_2d6_ratio_model64"
required="$cpu_keys rdseed_bits_per_s d6_none_rolls_per_s d6_none_ratio d6_peres_ratio
d6_vn_ratio well_2readers_vs_2loops well_serve_cost_1000_vs_10
d6_sampler_bits_per_roll peres_eff_p50
peres_eff_p70 peres_eff_p90 cli_roll_vs_shuf cli_shuffle_vs_shuf
verify_records_per_s"
for w in 2d6 3d6 zipf1000 skew1e9; do
	required="$required weights_bits_per_draw_$w weights_entropy_$w weights_draws_per_s_$w"
done
required="$required weights_rdseed_ratio_2d6 weights_rdseed_ratio_3d6"
[ "$vm" = 1 ] && required="$required kernel_read_vs_urandom kernel_file_bytes_vn
kernel_file_bytes_none kernel_file_bytes_peres kernel_file_bytes_dijkstra
kernel_small_read_vs_urandom kernel_open_bits_none kernel_open_bits_vn
kernel_open_bits_peres kernel_open_bits_dijkstra share_min_over_mean
share_max_over_mean light_p99_ms well_share_user_min well_share_cgroup_min"

grep '^BENCH ' "$out/results.md" >"$out/bench.keys"
# A CPU without RDSEED has no RDSEED figures, only the model of them.
# The reader fetching for itself, beside the fetcher: RDSEED and two CPUs.
grep -q '^BENCH ahead_available 1$' "$out/bench.keys" &&
	required="$required self_d6_none_ratio self_d6_peres_ratio self_weights_2d6_ratio"
if grep -q '^BENCH rdseed_available 0$' "$out/bench.keys"; then
	required=$(echo "$required" | tr ' ' '\n' |
		grep -v '^rdseed_\|^well_\|^weights_rdseed_\|^d6_[a-z]*_rolls_per_s$\|^d6_[a-z]*_ratio$')
fi
bad=$(awk '$3 !~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ || NF != 3' \
	"$out/bench.keys")
if [ -n "$bad" ]; then
	echo "run.sh: BENCH lines without a numeric value:" >&2
	echo "$bad" >&2
	status=1
fi
for k in $required; do
	if ! grep -q "^BENCH $k " "$out/bench.keys"; then
		echo "run.sh: missing BENCH key $k" >&2
		status=1
	fi
done
n=$(wc -l <"$out/bench.keys")
if [ $status = 0 ]; then
	echo "== $mode: $n BENCH figures, all numeric, every required key present; see $out/results.md" >&2
else
	echo "== $mode: FAILED ($n BENCH figures)" >&2
fi
exit $status
