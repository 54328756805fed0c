# The FP8 GEMM study's plot (python/studies/gemm_fp8.py writes the data): relative error against K,
# log-log.  usage: gnuplot -e "dir='build/study-gemm'" python/studies/gemm_fp8.gp
if (!exists("dir")) dir = "build/study-gemm"
set terminal pngcairo size 1000,620 font ",11" noenhanced
set output dir."/study-gemm.png"
set title "FP8 (e4m3) GEMM accuracy, M = N = 64, standard normal inputs"
set xlabel "K"
set ylabel "relative error"
set logscale xy 2
set logscale y 10
set format y "1e%L"
set xtics (256, 512, 1024, 2048, 4096, 8192, 16384)
set key outside below maxrows 4
set xrange [200:20000]
set yrange [1e-9:1]
set grid
f = dir."/study-gemm.tsv"
plot f using 1:5 with linespoints lw 2 pt 7 lc rgb "#c03030" title "Hopper QGMMA F=13: largest elementwise", \
     f using 1:2 with linespoints lw 2 pt 6 dt 2 lc rgb "#c03030" title "Hopper QGMMA F=13: normwise", \
     f using 1:6 with linespoints lw 2 pt 5 lc rgb "#3060c0" title "Hopper promote:4 (DeepSeek-V3): largest", \
     f using 1:3 with linespoints lw 2 pt 4 dt 2 lc rgb "#3060c0" title "Hopper promote:4: normwise", \
     f using 1:7 with linespoints lw 2 pt 9 lc rgb "#309030" title "Blackwell tcgen05 F=25: largest", \
     f using 1:4 with linespoints lw 2 pt 8 dt 2 lc rgb "#309030" title "Blackwell tcgen05 F=25: normwise", \
     0.02 with lines lw 1 dt 3 lc rgb "black" title "DeepSeek-V3: nearly 2 percent at K = 4096 (H800, largest)"
