# The DPI bridge (dpi/mmaref_dpi.c) under threads, as a Verilator model built with --threads calls it:
# tests/api/dpi_threads.c built with ThreadSanitizer against the bridge and the library; 8 threads look up
# every instruction at once.  Any data race report or disagreement is a failure.
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
