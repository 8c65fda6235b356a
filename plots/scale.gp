# Scaling: Gbit/s (left) and Gbit/s per core (right) of the device under test
# against its workers, one line per mode and connection count (zcbench scale).
load scriptdir.'/common.gp'
set multiplot layout 1,2 title 'Scaling with workers (median of repetitions; bars: min..max)'
set xlabel 'workers of the device under test (one core each)'
set xtics 1
set yrange [0:*]
# 5% above the highest point or whisker: none on the frame.
set offsets graph 0.05, graph 0.05, graph 0.05, 0
set key top left title 'DUT mode / connections'
# zcbench draws it only with a curve of two worker counts or more.
set ylabel 'Gbit/s'
plot for [i=0:nseries-1] infile index i using 1:2:3:4 with yerrorlines title word(titles, i+1)
set ylabel 'Gbit/s per core'
unset key
plot for [i=0:nseries-1] infile index i using 1:5 with linespoints title word(titles, i+1)
unset multiplot
