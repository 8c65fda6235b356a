# Gbps per core against chunk size, one line per data path, min..max bars.
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
if (nchunks < 2) {
    set xrange [chunkmin / 2.0 : chunkmax * 2.0]
    set label 2 'only one chunk size in these results: run a chunk sweep (workloads/default.ini) for a curve' \
        at graph 0.5, graph 0.95 center textcolor '#aa0000'
}
plot for [i=0:nseries-1] infile index i using 1:2:3:4 with yerrorlines \
     title word(titles, i+1)
