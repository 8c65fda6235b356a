# Per run of the newest file, where the device under test's core goes:
# Gbit/s per core (every sample a point over the median bar; emulated
# after-modes hatched; a "zero-copy" mode the kernel copied anyway outlined
# in red and labelled), the core's time stacked, kernel-copied bytes per
# payload byte, and syscalls per MB. zcbench plot sets samplesfile, nruns,
# ncopied, nemulated, foreignknown, ncore, ncounted and sysname.
height = 1500
load scriptdir.'/common.gp'
unset label 99
set label 98 caption at screen 0.5, screen 0.012 center font ',10' textcolor '#444444'
set datafile columnheaders
set multiplot title "Where the device under test's core goes, per run (newest results)" font ',15'
set lmargin at screen 0.08
set rmargin at screen 0.76
set xrange [-0.6 : nruns - 0.4]
set style fill solid 0.85 border -1
set key outside right top Left reverse
set xtics 1 format '' nomirror
set bmargin 0
nodata(what) = sprintf('no %s in these results', what)

# 1: Gbit/s per core
set tmargin at screen 0.95
set bmargin at screen 0.77
set ylabel 'Gbit/s per core'
set yrange [0:*]
set boxwidth 0.7
plot infile using 1:4 with boxes lc rgb '#4e79a7' title 'median of repetitions', \
     '' using 1:5 with boxes fs pattern 4 border lc rgb '#4e79a7' lc rgb '#4e79a7' \
        title (nemulated ? 'emulated after-mode (hatched)' : ''), \
     '' using 1:6 with boxes fs empty border lc rgb '#c00000' lw 3 lc rgb '#c00000' \
        title (ncopied ? 'zero-copy mode the kernel copied anyway' : ''), \
     samplesfile using 1:2 with points pt 7 ps 0.9 lc rgb '#000000' title 'each repetition', \
     infile using 1:(0):7 with labels rotate by 90 left offset 0,0.6 font ',10' \
        textcolor rgb '#b00000' notitle

# 2: the DUT core's time over the window
set tmargin at screen 0.75
set bmargin at screen 0.57
set ylabel 'share of the DUT core'
set yrange [0:1.05]
unset label 1
if (ncore == 0) {
    set label 1 nodata("per-role CPU times (the roles' window.cpustat)") at graph 0.5, graph 0.5 center
    plot NaN notitle
} else {
    plot infile using 1:($8+$9+$10+$11+$14+$13+$12) with boxes lc rgb '#e8e8e8' title 'idle', \
         '' using 1:($8+$9+$10+$11+$14+$13) with boxes lc rgb '#999999' title 'steal', \
         '' using 1:($8+$9+$10+$11+$14) with boxes lc rgb '#8c564b' \
            title (foreignknown ? 'foreign (another process)' : ''), \
         '' using 1:($8+$9+$10+$11) with boxes lc rgb '#f28e2b' title 'irq', \
         '' using 1:($8+$9+$10) with boxes lc rgb '#e15759' title 'softirq', \
         '' using 1:($8+$9) with boxes lc rgb '#4e79a7' title 'system', \
         '' using 1:8 with boxes lc rgb '#59a14f' title 'user'
}

# 3: bytes the kernel copied per payload byte (BPF counters)
set tmargin at screen 0.55
set bmargin at screen 0.41
set ylabel "kernel-copied B\nper payload B"
set yrange [0:*]
unset label 1
set boxwidth 0.34
if (ncounted == 0) {
    set yrange [0:1]
    set label 1 nodata('copy counters (run with --counters=bpf or all)') at graph 0.5, graph 0.5 center
    plot NaN notitle
} else {
    plot infile using ($1 - 0.18):15 with boxes lc rgb '#2f5fbf' title 'received: skb to user', \
         '' using ($1 + 0.18):16 with boxes lc rgb '#76b7e4' title 'sent: user to skb'
}

# 4: syscalls per MB, with the run names
set tmargin at screen 0.39
set bmargin at screen 0.19
set ylabel sysname
set yrange [0:*]
unset label 1
set boxwidth 0.7
set xtics rotate by 30 right format '% g' font ',10'
plot infile using 1:17:xtic(2) with boxes lc rgb '#b07aa1' title sysname
unset multiplot
