# The DPI bridge (dpi/mmaref_dpi.c) under threads, as a Verilator model built with --threads calls it:
# tests/api/dpi_threads.c built with ThreadSanitizer against the bridge and the library; 8 threads look up
# every instruction at once.  Any data race report or disagreement is a failure.  Then the testbench's
# stimulus windows (tb/tb_support.c) against mmaref_dot.
# runtime: 7 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
B=build/test-dpi
mkdir -p "$B"
VLT_INC=$(verilator --getenv VERILATOR_ROOT 2>/dev/null)/include
if [[ ! -e $VLT_INC/vltstd/svdpi.h ]]; then not_ok "dpi threads: svdpi.h not found (verilator missing?)"; exit 0; fi
if ! err=$(gcc -std=gnu11 -O1 -g -fsanitize=thread -Wall -Wextra -Icmodel/include -Idpi -I"$VLT_INC/vltstd" \
             tests/api/dpi_threads.c dpi/mmaref_dpi.c build/libmmaref.a -lm -lpthread -o "$B/dpi_threads" 2>&1); then
  not_ok "dpi threads: build failed: $err"; exit 0
fi
out=$(TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$B/dpi_threads" 2>&1); rc=$?
if [[ $rc -eq 0 && $out == *": 0 disagreements"* && $out != *"ThreadSanitizer"* ]]; then
  ok "dpi bridge under threads, ThreadSanitizer clean: $(grep disagreements <<<"$out")"
else
  not_ok "dpi bridge under threads: rc=$rc $(grep -m3 'WARNING\|disagreements\|SUMMARY' <<<"$out" | tr '\n' ' ')"
fi

# The bench's stimulus windows (tb/tb_support.c, tests/api/tb_window.c): the D of every vector, computed
# 256 at a time by mmaref_dot_batch, against mmaref_dot on the same vector, over a sequential run of more
# than 3 windows and out of order (back, far ahead, twice, another seed, two handles), under ASan/UBSan;
# and a batch that fails (MMAREF_SIMD naming no path) must make both entries return -1 with its message.
if ! err=$(gcc -std=gnu11 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -Wall -Wextra \
             -Icmodel/include -Idpi -Itb -I"$VLT_INC/vltstd" tests/api/tb_window.c tb/tb_support.c tb/tb_coverage.c \
             dpi/mmaref_dpi.c build/libmmaref.a -lm -lpthread -o "$B/tb_window" 2>&1); then
  not_ok "tb window: build failed: $err"; exit 0
fi
out=$("$B/tb_window" 2>&1); rc=$?
if [[ $rc -eq 0 && $out =~ ^"tb window: "[0-9]+" vectors, 0 disagreements"$ ]]; then
  ok "tb window: D from the window's batch = mmaref_dot, in order and out of order (${out#tb window: })"
else
  not_ok "tb window: rc=$rc $(head -8 <<<"$out" | tr '\n' ' ')"
fi
err=$(MMAREF_SIMD=none "$B/tb_window" --batch-error 2>&1 >/dev/null); rc=$?
if [[ $rc -eq 0 && $(wc -l <<<"$err") -eq 2 && $err == "mmaref_tb_gen: hopper:"*"MMAREF_SIMD=none"* ]]; then
  ok "tb window: a failing batch is reported in one line and the vector refused"
else
  not_ok "tb window: batch error: rc=$rc stderr '$err'"
fi
