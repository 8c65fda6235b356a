# Gbps per core at each chunk size, a point per data path with min..max
# bars. Chunk sizes are categories: each at its own place on the x axis
# (the CSV's pos), the paths side by side around it, never joined by lines.
# zcbench plot draws it only when the results have two chunk sizes or more;
# it sets nseries, nchunks, sizes (the chunk sizes' labels), titles, ytop
# and ystep (the y axis: the largest max with a margin, on a tick).
load scriptdir.'/common.gp'
set title 'Gbit/s per core at each chunk size (point: median of repetitions; bar: min..max)'
set ylabel 'Gbit/s per core of the device under test'
set xlabel 'chunk size (bytes per system call)'
set xrange [-0.5 : nchunks - 0.5]
set xtics () nomirror
do for [k=1:nchunks] { set xtics add (word(sizes, k) k - 1) }
set yrange [0:ytop]
set ytics 0, ystep
set grid xtics ytics
set key outside right top title 'data path'
# The paths spread across 60% of a chunk size's slot.
off(i) = nseries > 1 ? 0.6 * (i / (nseries - 1.0) - 0.5) : 0
plot for [i=0:nseries-1] infile index i using ($2 + off(i)):3:4:5 with yerrorbars \
     linetype i + 1 title word(titles, i+1)
