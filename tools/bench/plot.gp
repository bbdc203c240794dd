# SPDX-License-Identifier: GPL-2.0
#
# fairdie bench - plot of the side-by-side figures.
#
#   gnuplot -e "datafile='out/methods.dat'; outfile='out/bench.png'" plot.gp
#
# The data file holds one block per method (written by bench -d): a header
# line naming the method, then "method sides bits_per_roll rolls_per_s"
# rows; "?" marks a figure that was not measured. Left: source bits per
# roll against sides, with log2(sides), the least any exact method can
# take on average. Right: rolls per second against sides.

if (!exists("datafile")) datafile = "out/methods.dat"
if (!exists("outfile")) outfile = "out/bench.png"
if (!exists("subtitle")) subtitle = ""

set terminal pngcairo size 1600,650 font "sans,10" noenhanced
set output outfile
set datafile missing "?"
stats datafile using 2 nooutput
nblocks = STATS_blocks

set multiplot layout 1,2 title "fairdie: dice from RDSEED and friends  ".subtitle
# x is log2(sides) on a log scale: log2(sides) itself, and any method that
# takes c * log2(sides) bits, are then straight lines, so that the segments
# between the measured dice do not mislead.
lg(x) = log(x) / log(2)
set logscale x 2
set xrange [0.8:45]
set xtics ("2" 1, "6" lg(6), "37" lg(37), "100" lg(100), "2^16" 16, "2^32-5" lg(4294967291.0))
set xlabel "sides (axis: log2(sides), log scale)"
set grid
set key bottom right box opaque
set style data linespoints
set pointsize 1.2

set title "source bits per roll (log2(sides) is the floor)"
set logscale y 2
set ylabel "bits per roll"
# Decreasing point sizes, so that methods on the same spot stay visible.
plot for [i=0:nblocks-1] datafile index i using (lg($2)):3 \
	title columnheader(1) lw 2 ps (2.2 - 0.2 * i), \
	x title "log2(sides)" with lines dt 2 lw 3 lc rgb "black"

set title "rolls per second (one process, this host)"
set logscale y 10
set format y "1e%L"
set yrange [1e3:1e10]
set ylabel "rolls/s"
set key top right box opaque
plot for [i=0:nblocks-1] datafile index i using (lg($2)):4 title columnheader(1) lw 2

unset multiplot
