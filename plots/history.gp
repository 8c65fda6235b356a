# History: Gbps per core of every results file over time, one line per path,
# chunk, host and kernel: points of another host or kernel are never joined
# into one line (a faster host is not a speed-up).
load scriptdir.'/common.gp'
set title 'History: Gbit/s per core per data path (median of repetitions; bars: min..max)'
set ylabel 'Gbit/s per core of the device under test'
set xlabel 'results file date (UTC)'
# One date only (one results file): an hour either side, not an empty range.
stats infile using 1 nooutput
if (STATS_min == STATS_max) { set xrange [STATS_min - 3600:STATS_max + 3600] }
set xdata time
set timefmt '%s'
# Month-day over time of day, small: a nightly history spans weeks.
set format x "%m-%d\n%H:%M:%S"
set xtics font ',9'
set lmargin 10
set yrange [0:*]
set key outside right top title 'path@chunk/host/kernel' font ',9'
plot for [i=0:nseries-1] infile index i using 1:2:3:4 with yerrorlines \
     title word(titles, i+1)
