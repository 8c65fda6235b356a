# Scaling: Gbit/s (left) and Gbit/s per core (right) of the device under test
# against its workers, one line per mode and connection count (zcbench scale).
load scriptdir.'/common.gp'
set multiplot layout 1,2 title 'Scaling with workers (median of repetitions; bars: min..max)'
set xlabel 'workers of the device under test (one core each)'
set xtics 1
set yrange [0:*]
set offsets graph 0.05, graph 0.05, 0, 0
set key top left title 'DUT mode / connections'
if (nseries < 1) {
    set label 2 'no workers sweep in these results: run workloads/scale.ini (make bench-scale)' \
        at graph 0.5, graph 0.5 center textcolor '#aa0000'
    # the placeholder point's ranges, given (gnuplot warns about empty ones)
    set xrange [0:2]
    set yrange [0:1]
    set ylabel 'Gbit/s'
    plot infile using 1:2 with points notitle
    set ylabel 'Gbit/s per core'
    plot infile using 1:5 with points notitle
} else {
    set ylabel 'Gbit/s'
    plot for [i=0:nseries-1] infile index i using 1:2:3:4 with yerrorlines title word(titles, i+1)
    set ylabel 'Gbit/s per core'
    unset key
    plot for [i=0:nseries-1] infile index i using 1:5 with linespoints title word(titles, i+1)
}
unset multiplot
