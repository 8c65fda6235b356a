# Core milliseconds per GB moved, by profile bucket (bench/profile/buckets.c),
# for each profiled run of the newest file: the lower the bar, the cheaper
# the path per byte; the segments say where the difference goes. The idle
# loop is left out (it is not spent moving bytes). zcbench plot sets nrows,
# nbuckets and bucketcolours (one per bucket, in the CSV's column order).
load scriptdir.'/common.gp'
set title 'Where each path spends the core per byte moved (profile of the window)'
set ylabel 'core milliseconds per GB moved'
set datafile columnheaders
set style fill solid 0.9 border -1
set boxwidth 0.7
set yrange [0:*]
set xrange [-0.6 : nrows - 0.4]
set xtics rotate by 30 right font ',10' nomirror
set key outside right top Left reverse title 'bucket'
set rmargin 24
set bmargin 11
plot for [k=nbuckets:1:-1] infile using 1:(sum [j=3:2+k] column(j)):xtic(2) with boxes \
     lc rgb word(bucketcolours, k) title columnheader(2 + k)
