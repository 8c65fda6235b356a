# Request/response (issue 23): latency against percentile, HdrHistogram
# style: x = 1 / (1 - percentile), so 90% is at 10, 99% at 100, 99.99% at
# 10000. A line per run and object size from the run's merged histogram
# (latency_merged). zcbench plot sets nseries; each CSV block's first row is
# its title.
load scriptdir.'/common.gp'
set title 'Request/response: latency by percentile'
set ylabel 'latency (us, request sent to last body byte)'
set xlabel 'percentile'
set logscale x 10
set logscale y 10
set xrange [1:10000]
set xtics ('0%%' 1, '90%%' 10, '99%%' 100, '99.9%%' 1000, '99.99%%' 10000)
set key inside top left box opaque title 'run, object size'
set datafile columnheaders
plot for [i=0:nseries-1] infile index i using 2:1 with lines lw 2 title columnheader(1)
