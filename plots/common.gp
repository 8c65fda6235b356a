# Shared by every plot: terminal, caption, CSV input, colours. zcbench plot
# sets infile, outfile, term ('pngcairo' or 'svg'), caption and scriptdir; a
# script may set height (pixels) before loading this.
# noenhanced: mode and kernel names carry '_' and '^' that must stay literal.
if (!exists("height")) height = 720
if (term eq 'svg') {
    set terminal svg size 1200,height dynamic font 'sans,13' noenhanced background '#ffffff'
} else {
    set terminal pngcairo size 1200,height font 'sans,11' noenhanced
}
set output outfile
set datafile separator ','
set grid ytics
set bmargin 8
set label 99 caption at screen 0.5, screen 0.018 center font ',10' textcolor '#444444'
# 48 styles that stay apart: twelve colours, then the same colours dashed
# (three dash patterns), each with its own point shape (13 shapes cycle
# against 12 colours), so series 13 and up never repeat series 1..12.
array colours[12] = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', \
                     '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#000000', '#aec7e8']
array dashes[4] = [1, 2, 4, 5]
do for [i=1:48] {
    set linetype i linecolor rgb colours[(i - 1) % 12 + 1] linewidth 2 \
        dashtype dashes[(i - 1) / 12 + 1] pointtype ((i - 1) % 13) + 1 pointsize 1.3
}
set linetype cycle 48
