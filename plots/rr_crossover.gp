# Request/response (issue 23): each headline ratio of a mode over its own vs
# (splice/copy, haproxy-splice/haproxy-copy ...) against the object size, a
# line per program and run shape, with its 95% interval. At one object size
# it is the ratio of transactions per core. 1.0 is "no difference": above
# it splice pays. zcbench plot sets nseries; each CSV block's first row is
# its title.
load scriptdir.'/common.gp'
set title 'Request/response: splice over copy, transactions per core against object size'
set ylabel 'ratio of transactions per core (mode over its vs)'
set xlabel 'object size (bytes per response body)'
set logscale x 2
set format x '%.0b %BB'
set offsets graph 0.05, graph 0.05, 0, 0
set yrange [0:*]
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 2 lc rgb '#000000'
set key inside bottom right box opaque title 'ratio, run shape'
set datafile columnheaders
# One object size: an octave either side, not an empty range.
stats infile using 1 nooutput
if (STATS_min == STATS_max) { set xrange [STATS_min / 2 : STATS_max * 2] }
# Object sizes are the sizes run: a point with its interval at each, never
# a line through sizes not run; the series side by side (a small shift on
# the log axis) so none hides another.
off(i) = nseries > 1 ? 2 ** (0.3 * (i / (nseries - 1.0) - 0.5)) : 1
plot for [i=0:nseries-1] infile index i using ($1 * off(i)):2:3:4 with yerrorbars \
     linetype i + 1 title columnheader(1)
