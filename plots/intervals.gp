# The live intervals of each run of the newest file (zcbench run --interval:
# every second, the sink's bytes and the DUT's bytes and busy time, read by
# the controller from its own core), a panel per run: the DUT's Gbit/s per
# core (solid, points) and Gbit/s at the sink (dashed) against seconds into
# the window, each point an interval at its middle, a colour per
# repetition. One frame of every run's repetitions was 30 lines in 10
# colours; a panel each keeps every line told apart. Every panel has the
# same axes. A slope or a dip is drift, throttling or a neighbour the
# window's total hides. zcbench plot sets npanels, maxreps, titles, reps
# (repetitions per panel), xmax, ytop and ystep.
cols = npanels <= 1 ? 1 : npanels <= 4 ? 2 : 3
rows = (npanels + cols - 1) / cols
height = 160 + 250 * rows
load scriptdir.'/common.gp'
unset label 99
set label 98 caption at screen 0.5, screen 14.0 / height center font ',10' textcolor '#444444'
set bmargin 3
set multiplot layout rows, cols margins 0.07, 0.98, 90.0 / height, 1 - 70.0 / height spacing 0.06, 90.0 / height \
    title "Live intervals, a panel per run: solid Gbit/s per DUT core, dashed Gbit/s at the sink, a colour per repetition" font ',12'
set xrange [0:xmax]
set yrange [0:ytop]
set ytics 0, ystep font ',9'
set xtics font ',9'
set xlabel 'seconds into the window' font ',9' offset 0,0.5
set ylabel 'Gbit/s' font ',9' offset 1,0
set key top right font ',8' samplen 1.5 spacing 0.9 maxrows 4 opaque
do for [p=0:npanels-1] {
    set title word(titles, p+1) font ',10' offset 0,-0.6
    n = word(reps, p+1) + 0
    if (p > 0) { unset key }
    plot for [r=0:n-1] infile index p every :::r::r using 1:3 with linespoints \
            linetype r + 1 dashtype 1 pointsize 0.8 title sprintf('rep %d', r + 1), \
         for [r=0:n-1] infile index p every :::r::r using 1:2 with lines \
            linetype r + 1 dashtype 2 linewidth 1.5 notitle
}
unset multiplot
