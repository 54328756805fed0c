# make demo's tool-dependent sections (scripts/demo.sh --sections, which runs none of them): each is
# chosen from its real prerequisites, and one that cannot run says why in one line, never skipped silently.
#   - on a machine set up by make setup (verilator, libsystemc-dev, zlib): sections 5 and 6 both run;
#   - a PATH without verilator: both sections say "verilator is not installed";
#   - a compiler that finds no system headers (g++ -nostdinc): section 6 says the SystemC headers are
#     not found, section 5 (no SystemC) still runs.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

out=$(bash scripts/demo.sh --sections 2>&1)
if command -v verilator >/dev/null && [[ -e /usr/include/systemc.h ]]; then
  [[ $out == *"5. RTL co-simulation: runs"* && $out == *"6. SystemC tile array: runs"* ]] \
    && ok "demo sections: co-simulation and SystemC are selected on this machine" \
    || not_ok "demo sections: with verilator and SystemC installed, got: $out"
else
  not_ok "demo sections: verilator and SystemC (libsystemc-dev) are needed for this check (make setup)"
fi

# a PATH holding every tool demo.sh needs except verilator
mkdir -p "$T/bin"
for tool in dirname g++ python3; do ln -s "$(command -v "$tool")" "$T/bin/$tool"; done
out=$(PATH=$T/bin "$(command -v bash)" scripts/demo.sh --sections 2>&1)
n=$(grep -c "cannot run: verilator is not installed" <<<"$out")
[[ $n -eq 2 && $(wc -l <<<"$out") -eq 2 ]] && ok "demo sections: without verilator, sections 5 and 6 each say so in one line" \
  || not_ok "demo sections: without verilator, got: $out"

printf '#!/bin/sh\nexec g++ -nostdinc "$@"\n' >"$T/cxx-nohdr"; chmod +x "$T/cxx-nohdr"
out=$(CXX=$T/cxx-nohdr bash scripts/demo.sh --sections 2>&1)
[[ $out == *"6. SystemC tile array: cannot run: SystemC headers (systemc.h"*"are not found by $T/cxx-nohdr"* \
   && $out == *"5. RTL co-simulation: runs"* ]] \
  && ok "demo sections: SystemC headers not found -> section 6 says why, section 5 still runs" \
  || not_ok "demo sections: with SystemC's headers hidden, got: $out"
