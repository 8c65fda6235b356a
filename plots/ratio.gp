# Every headline ratio of the newest file with its 95% interval (t on the
# logs of the per-round ratios), against 1.0+-5%: green wholly above 1.05,
# red wholly below 0.95, blue wholly within (about 1), grey when it spans a
# bound (can't tell). Beside each, on the right: n (repetitions of the
# numerator and the denominator) and how busy each side's DUT was (under
# 0.9 it waited for its peers). zcbench plot sets nrows.
height = 240 + 30 * (nrows > 0 ? nrows : 4)
load scriptdir.'/common.gp'
set title 'Headline ratios of Gbit/s per core with 95% intervals, against 1.0'
set xlabel 'ratio (log scale): numerator mode over the mode it is measured against'
set bmargin 6
set tmargin 5
set lmargin 44
set rmargin 30
set grid xtics noytics
if (nrows == 0) {
    set label 2 'no pair of runs for a headline ratio in these results' at graph 0.5, graph 0.5 center
    set xrange [0.5:2]
    set yrange [0:1]
    unset ytics
    plot NaN notitle
} else {
    set datafile columnheaders
    stats infile using 4 nooutput name 'LO'
    stats infile using 5 nooutput name 'HI'
    set logscale x 2
    set xrange [(LO_min < 0.9 ? LO_min : 0.9) / 1.1 : (HI_max > 1.1 ? HI_max : 1.1) * 1.1]
    set yrange [-0.7 : nrows - 0.3]
    set ytics font ',10'
    set arrow 1 from 1, graph 0 to 1, graph 1 nohead dt 2 lw 2 lc rgb '#000000'
    set label 3 '1.0: no difference' at 1, graph 0 offset 0.5,0.8 font ',10'
    set xtics ('0.25' 0.25, '0.5' 0.5, '0.75' 0.75, '1' 1, '1.25' 1.25, '1.5' 1.5, '2' 2, '3' 3, '4' 4, '6' 6, '8' 8)
    col(v) = v == 1 ? 0x2ca02c : v == -1 ? 0xd62728 : v == 0 ? 0x1f4e9e : 0x7f7f7f
    set key outside top center horizontal maxrows 1 font ',10'
    # The right axis carries each row's n and DUT busy, row for row.
    set link y2
    set y2tics font ',10' nomirror
    busy(v) = v == v ? sprintf('%.2f', v) : '-'
    plot infile using 3:1:4:5:(col($6)):ytic(2) with xerrorbars lc rgb variable pt 7 ps 1.3 lw 2 notitle, \
         '' using 3:1:y2tic(sprintf('n %d/%d, DUT busy %s/%s', $7, $8, busy($9), busy($10))) \
            axes x1y2 with points ps 0 notitle, \
         NaN with points pt 7 lc rgb '#2ca02c' title 'above 1.05', \
         NaN with points pt 7 lc rgb '#d62728' title 'below 0.95', \
         NaN with points pt 7 lc rgb '#1f4e9e' title 'within 0.95-1.05', \
         NaN with points pt 7 lc rgb '#7f7f7f' title "can't tell"
}
