cd bundle && . ./env.sh && cd ..
BC=bundle/bench/bench_betweenness
top_builddir=$PWD/bundle timeout 100 bundle/tests/apsp/brandes_gpu.sh > /tmp/bg.txt 2>&1; echo "brandes_gpu.sh exit $?"; grep -c "same bits" /tmp/bg.txt; tail -1 /tmp/bg.txt
b() { echo "== $*"; timeout "$@" 2>&1 | grep -E "check|betweenness |error|fail" ; }
TUCCOMPI_BRANDES_SWEEP=order b 40 $BC --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 0
TUCCOMPI_BRANDES_SWEEP=rounds b 40 $BC --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 0
b 40 $BC --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 8
b 60 $BC --gen rmat:20 --sources 4096 --units gpu --reps 1 --check 8
b 60 $BC --gen random:1049088 --sources 4096 --units gpu --reps 3 --check 64
b 50 $BC --gen random:1049088 --sources 4096 --units all --reps 3 --check 0
