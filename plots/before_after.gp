# Before against after for each affected path: the native mode (this kernel)
# and each emulated "after" mode declared after_of it (what the 2026 patches
# turn it into; zcbench list shows the relations). zcbench plot draws it
# only with such a pair, and sets nrows, nativetitle, ytop and ystep (the y
# axis: the largest whisker with a margin, on a tick).
load scriptdir.'/common.gp'
set title 'Before and after: native data path against its emulated after mode (Gbit/s per core)'
set ylabel 'Gbit/s per core of the device under test'
set xlabel 'affected path: native mode / what the patches make of it (device under test, chunk)'
set datafile columnheaders
set style data histogram
set style histogram errorbars gap 2 lw 1.5
set style fill solid 0.75 border -1
set boxwidth 0.9
set xtics nomirror
# rotated labels hang left of their bar: room for the first one
if (nrows > 4) { set xtics rotate by 15 right; set bmargin 10; set lmargin 22 }
set yrange [0:ytop]
set ytics 0, ystep
set key top right
plot infile using 2:3:4:xtic(1) title nativetitle, \
     '' using 5:6:7 title 'after (emulated)'
