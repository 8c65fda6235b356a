# Gbps per core against chunk size, one line per data path, min..max bars.
# zcbench plot draws it only when the results have two chunk sizes or more.
load scriptdir.'/common.gp'
set title 'Gbit/s per core against chunk size (median of repetitions; bars: min..max)'
set ylabel 'Gbit/s per core of the device under test'
set xlabel 'chunk size (bytes per system call)'
set logscale x 2
set format x '%.0b %BB'
set yrange [0:*]
# Keep the end points and their bars off the frame.
set offsets graph 0.03, graph 0.03, 0, 0
set key outside right top title 'data path'
plot for [i=0:nseries-1] infile index i using 1:2:3:4 with yerrorlines \
     title word(titles, i+1)
