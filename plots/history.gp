# History: Gbps per core of every results file over time, one line per run
# key and host across kernels (points of another host are never joined into
# one line: a faster host is not a speed-up). Dotted lines mark the nights
# the kernel or its fingerprint changed and the steps zcbench trend found
# (marks: epochs, marklabels: what, history_marks.csv).
load scriptdir.'/common.gp'
set title 'History: Gbit/s per core per data path (median of repetitions; bars: min..max)'
set ylabel 'Gbit/s per core of the device under test'
set xlabel 'results file date (UTC)'
# zcbench plot draws it from two dates or more (one file is no history) and
# sets ytop and ystep (the y axis: the largest max with a margin, on a tick).
# The first and last points and their bars off the frame:
set offsets graph 0.03, graph 0.03, 0, 0
set xdata time
set timefmt '%s'
# Month-day over time of day, small: a nightly history spans weeks.
set format x "%m-%d\n%H:%M:%S"
set xtics font ',9'
set lmargin 10
set yrange [0:ytop]
set ytics 0, ystep
set key outside right top title 'path@chunk/host' font ',9'
if (exists("marks")) {
    do for [i=1:words(marks)] {
        set arrow from word(marks, i), graph 0 to word(marks, i), graph 1 nohead dt 3 lw 1.5 lc rgb '#777777'
        set label word(marklabels, i) at word(marks, i), graph 0.97 rotate by 90 right offset -0.6,0 font ',8' tc rgb '#444444'
    }
}
plot for [i=0:nseries-1] infile index i using 1:2:3:4 with yerrorlines \
     title word(titles, i+1)
