# make demo's sections (scripts/demo.sh --sections, which runs none of them): every section is listed,
# each with whether it can run, chosen from its real prerequisites; one that cannot says why in one line,
# never skipped silently.  The six sections, as the demo heads them: 1. Accumulation precision F on FP16,
# 2. FP8 accumulation, 3. TF32 Step 0, 4. CoFDA (1-4 run build/mmaref), 5. RTL co-simulation,
# 6. SystemC tile array.
#   - on a machine set up by make setup (verilator, libsystemc-dev, zlib): all six run;
#   - a PATH without verilator: sections 5 and 6 say "verilator is not installed", 1-4 run;
#   - a compiler that finds no system headers (g++ -nostdinc): section 6 says the SystemC headers are
#     not found, section 5 (no SystemC) still runs;
#   - a tree without build/mmaref: sections 1-4 say it is not built.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

TITLES=("Accumulation precision F on FP16" "FP8 accumulation" "TF32 Step 0" "CoFDA" "RTL co-simulation"
        "SystemC tile array")
# sections OUT N..: OUT's lines are the six sections in order, N.. (1-based) of them saying "runs"
sections() {
  local out=$1 i line; shift
  mapfile -t line <<<"$out"
  [[ ${#line[@]} -eq 6 ]] || return 1
  for i in 1 2 3 4 5 6; do
    [[ ${line[i - 1]} == "$i. ${TITLES[i - 1]}: "* ]] || return 1
    if [[ " $* " == *" $i "* ]]; then [[ ${line[i - 1]} == *": runs" ]] || return 1
    else [[ ${line[i - 1]} == *": cannot run: "* ]] || return 1; fi
  done
}
out=$(bash scripts/demo.sh --sections 2>&1)
if command -v verilator >/dev/null && [[ -e /usr/include/systemc.h ]]; then
  sections "$out" 1 2 3 4 5 6 \
    && ok "demo sections: all six listed, each runs on this machine (co-simulation and SystemC selected)" \
    || not_ok "demo sections: with verilator and SystemC installed, got: $(tr '\n' '|' <<<"$out")"
else
  not_ok "demo sections: verilator and SystemC (libsystemc-dev) are needed for this check (make setup)"
fi

# a PATH holding every tool demo.sh needs except verilator
mkdir -p "$T/bin"
for tool in dirname g++ python3; do ln -s "$(command -v "$tool")" "$T/bin/$tool"; done
out=$(PATH=$T/bin "$(command -v bash)" scripts/demo.sh --sections 2>&1)
n=$(grep -c "cannot run: verilator is not installed" <<<"$out")
[[ $n -eq 2 ]] && sections "$out" 1 2 3 4 && ok "demo sections: without verilator, sections 5 and 6 each say so in one line, 1-4 run" \
  || not_ok "demo sections: without verilator, got: $(tr '\n' '|' <<<"$out")"

printf '#!/bin/sh\nexec g++ -nostdinc "$@"\n' >"$T/cxx-nohdr"; chmod +x "$T/cxx-nohdr"
out=$(CXX=$T/cxx-nohdr bash scripts/demo.sh --sections 2>&1)
[[ $out == *"6. SystemC tile array: cannot run: SystemC headers (systemc.h"*"are not found by $T/cxx-nohdr"* \
   && $out == *"5. RTL co-simulation: runs"* ]] \
  && ok "demo sections: SystemC headers not found -> section 6 says why, section 5 still runs" \
  || not_ok "demo sections: with SystemC's headers hidden, got: $out"

# a tree without build/mmaref (the script alone): sections 1-4 say so
mkdir -p "$T/tree/scripts"; cp scripts/demo.sh "$T/tree/scripts/"
out=$(bash "$T/tree/scripts/demo.sh" --sections 2>&1)
[[ $(grep -c "cannot run: build/mmaref is not built (make)" <<<"$out") -eq 4 ]] && sections "$out" 5 6 \
  && ok "demo sections: without build/mmaref, sections 1-4 say it is not built" \
  || not_ok "demo sections: without build/mmaref, got: $(tr '\n' '|' <<<"$out")"
