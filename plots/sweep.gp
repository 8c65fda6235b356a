# Loaded by sweep_pipe.gp and sweep_chunk.gp (they set xwhat): each headline
# ratio of a mode over its own vs in the newest file (splice/copy, haproxy-splice/haproxy-copy ...)
# against one size, the other held fixed, with its 95% interval; 1.0 is "no
# difference": above it the numerator (splice) pays. zcbench plot sets nseries;
# each CSV block's first row is its title.
load scriptdir.'/common.gp'
set title 'Headline ratios of Gbit/s per core against '.xwhat
set ylabel 'ratio of Gbit/s per core (numerator over the mode it is measured against)'
set xlabel xwhat
set logscale x 2
set format x '%.0b %BB'
set offsets graph 0.03, graph 0.03, 0, 0
set yrange [0:*]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb '#000000'

set key inside bottom right box opaque title 'ratio, and the size held'
set datafile columnheaders
# Sizes are the sizes run, not a continuum: a point with its interval at
# each, never a line through sizes not run; the series side by side (a
# small shift on the log axis) so none hides another.
off(i) = nseries > 1 ? 2 ** (0.3 * (i / (nseries - 1.0) - 0.5)) : 1
plot for [i=0:nseries-1] infile index i using ($1 * off(i)):2:3:4 with yerrorbars \
     linetype i + 1 title columnheader(1)
