# Gbps per core by data path: clustered bars (one colour per chunk size),
# whiskers from the slowest to the fastest repetition. zcbench plot sets
# nseries, nrows, titles, ytop and ystep (the y axis: the largest whisker
# with a margin, on a tick: a bar at 49.9 with its whisker above 50 fits).
load scriptdir.'/common.gp'
set title 'Gbit/s per core by data path (bar: median of repetitions; whisker: min..max)'
set ylabel 'Gbit/s per core of the device under test'
set xlabel 'data path: proxy:MODE forwards on a proxy; otherwise the source mode sends straight to the sink'
set datafile columnheaders
set style data histogram
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.75 border -1
set boxwidth 0.9
set xtics rotate by 25 right nomirror
set yrange [0:ytop]
set ytics 0, ystep
set key top right title 'chunk'
plot for [i=0:nseries-1] infile using (column(2+3*i)):(column(3+3*i)):(column(4+3*i)):xtic(1) \
     title word(titles, i+1)
