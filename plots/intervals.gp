# The live intervals of each run of the newest file (zcbench run --interval:
# every second, the sink's bytes and the DUT's bytes and busy time, read by
# the controller from its own core): Gbit/s at the sink and the DUT's Gbit/s
# per core against seconds into the window, each point an interval at its
# middle, a line per repetition in its run's style. A slope or a dip is
# drift, throttling or a neighbour the window's total hides.
# zcbench plot sets nseries and titles.
height = 900
load scriptdir.'/common.gp'
set multiplot layout 2,1 title 'Live intervals of the window, per run (a line per repetition)'
set key outside right top font ',9'
set rmargin 30
set yrange [0:*]
set xrange [0:*]
set xlabel 'seconds into the window'
set bmargin 4
set ylabel 'Gbit/s at the sink'
plot for [i=0:nseries-1] infile index i using 1:2 with linespoints linetype i+1 \
     title word(titles, i+1)
set ylabel 'Gbit/s per DUT core'
set bmargin 8
plot for [i=0:nseries-1] infile index i using 1:3 with linespoints linetype i+1 \
     title word(titles, i+1)
unset multiplot
