# Shared by every plot: terminal, caption, CSV input, colours. zcbench plot
# sets infile, outfile, term ('pngcairo' or 'svg'), caption and scriptdir.
# noenhanced: mode and kernel names carry '_' and '^' that must stay literal.
if (term eq 'svg') {
    set terminal svg size 1200,720 dynamic font 'sans,13' noenhanced background '#ffffff'
} else {
    set terminal pngcairo size 1200,720 font 'sans,11' noenhanced
}
set output outfile
set datafile separator ','
set grid ytics
set bmargin 8
set label 99 caption at screen 0.5, screen 0.018 center font ',10' textcolor '#444444'
# Twelve colours and point shapes that stay apart, so no two paths look alike.
array colours[12] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', \
                     '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#000000', '#aec7e8']
do for [i=1:12] {
    set linetype i linecolor rgb colours[i] linewidth 2 pointtype (i % 13) + 1 pointsize 1.3
}
