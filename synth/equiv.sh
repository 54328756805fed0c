#!/usr/bin/env bash
# Formal equivalence of units between a git revision's RTL and the working tree's: both are elaborated
# by Yosys with the unit's parameters (build/rtl/gen/units.txt) and flattened (not optimized, so that
# the two keep what they share, e.g. the multipliers), put side by side in a miter (ports of the same
# name; where a port is wider on one side, its extra input bits are tied to 0 and only the common output
# bits are compared; out_kind is limited to the unit's OUT_MASK, a code outside it going to the mask's
# first kind on both sides, since the two revisions may treat codes the unit does not serve differently),
# and ABC proves that no output bit ever differs (dprove: induction over the registers from an all-zero
# start, which both sides' synchronous reset also reaches).
# usage: synth/equiv.sh REV UNIT...      e.g. synth/equiv.sh HEAD~3 0 3 13
# EQUIV_DATAPATH=1: compare an FDA unit's fda_datapath (one pass, combinational) instead of the unit;
# EQUIV_STEP5=1: compare the unit's Step 5 only, REV's mma_round against the working tree's mma_encode
#   (normalize/round/pack), with the unit's sum width and output kinds (combinational, seconds);
# EQUIV_TIMEOUT: seconds for ABC per unit (default 1800).
# Prints one line per unit: "equivalent" or "NOT PROVED"; exits 1 unless every unit is proved.
set -u
cd "$(dirname "$0")/.."
rev=${1:?usage: synth/equiv.sh REV UNIT...}; shift
[[ -f build/rtl/gen/design.json ]] || { make -s build/rtl/gen/configs.txt || exit 1; }
tmp=$(mktemp -d)
[[ -n ${EQUIV_KEEP:-} ]] || trap 'rm -rf "$tmp"' EXIT; [[ -n ${EQUIV_KEEP:-} ]] && echo "work: $tmp"
mkdir -p "$tmp/old" "$tmp/new"
git archive "$rev" rtl | tar -x -C "$tmp/old"
cp -r rtl "$tmp/new/"

# the files of a tree: its rtl/rtl.f, or (before there was one) the package first, then the rest
files() {
  if [[ -f $1/rtl/rtl.f ]]; then
    python3 synth/rtl_files.py --list "$1/rtl/rtl.f" --all | xargs -n1 | sed "s|^|$1/|" | xargs
  else
    echo "$1/rtl/mma_pkg.sv" $(ls "$1"/rtl/*.sv | grep -v '/mma_pkg.sv$')
  fi
}

fail=0
for unit in "$@"; do
  # the unit's fields by name (the design database, tools/design.py)
  read -r algo k f chain block ab c out < <(python3 tools/design.py units --index "$unit" \
    --field kind,k,f,chain,block,ab_mask,c_mask,out_mask)
  unset top_new params_new
  engine=dprove
  if [[ ${EQUIV_STEP5:-} == 1 ]]; then  # the sum's width as fda_datapath / gdfs_unit compute it
    if [[ $algo == GDFS ]]; then sw=51; else kd=$((k / chain)) cl=0; while (( (1 << cl) < kd + 1 )); do cl=$((cl + 1)); done; sw=$((f + 3 + cl)); fi
    top_old=mma_round top_new=mma_encode engine=iprove
    params_old="chparam -set SW $sw -set OUT_MASK $out mma_round"; params_new="chparam -set SW $sw -set OUT_MASK $out mma_encode"
  elif [[ $algo == GDFS ]]; then top_old=gdfs_unit params_old="chparam -set K $k -set F $f gdfs_unit"
  elif [[ ${EQUIV_DATAPATH:-} == 1 ]]; then  # fda_datapath alone: combinational
    top_old=fda_datapath engine=iprove
    params_old="chparam -set KD $((k / chain)) -set F $f -set BLOCK $block -set AB_MASK $ab -set C_MASK $c -set OUT_MASK $out fda_datapath"
  else top_old=fda_unit
    params_old="chparam -set K $k -set F $f -set CHAIN $chain -set BLOCK $block -set AB_MASK $ab -set C_MASK $c -set OUT_MASK $out fda_unit"
  fi
  : "${top_new:=$top_old}" "${params_new:=$params_old}"
  for side in old new; do
    if [[ $side == old ]]; then top=$top_old params=$params_old; else top=$top_new params=$params_new; fi
    yosys -q -l "$tmp/$side.log" -p "read_verilog -sv -I$tmp/$side/rtl $(files "$tmp/$side"); $params;
      hierarchy -top $top; proc; flatten; opt_clean; rename $top ${side}_unit; write_verilog -noattr $tmp/$side.v;
      write_json $tmp/$side.json" >/dev/null 2>&1 || { echo "unit $unit: yosys failed on the $side RTL"; fail=1; continue 2; }
  done
  # shims eq_old/eq_new with the common ports, then the miter
  python3 - "$tmp" "${out:-0}" <<'EOF'
import json, sys
tmp, out_mask = sys.argv[1], int(sys.argv[2])
ports = {s: json.load(open(f"{tmp}/{s}.json"))["modules"][f"{s}_unit"]["ports"] for s in ("old", "new")}
common = [p for p in ports["old"] if p in ports["new"]]
missing = set(ports["old"]) ^ set(ports["new"])
if missing:
    sys.exit(f"ports on one side only: {sorted(missing)}")
with open(f"{tmp}/shim.v", "w") as f:
    for s in ("old", "new"):
        decl, conn = [], []
        for p in common:
            d = ports[s][p]["direction"]
            w = min(len(ports["old"][p]["bits"]), len(ports["new"][p]["bits"]))
            mine = len(ports[s][p]["bits"])
            decl.append(f"  {d} [{w - 1}:0] {p}")
            if d == "input":
                x = p
                if p == "out_kind" and out_mask:
                    first = (out_mask & -out_mask).bit_length() - 1
                    x = f"((({out_mask} >> {p}) & 1) ? {p} : {w}'d{first})"
                conn.append(f".{p}({{{mine - w}'b0, {x}}})" if mine > w else f".{p}({x})")
            else:
                conn.append(f".{p}({p}_w)")  # outputs: the low w bits compared
        f.write(f"module eq_{s} (\n" + ",\n".join(decl) + "\n);\n")
        for p in common:
            if ports[s][p]["direction"] == "output":
                mine = len(ports[s][p]["bits"])
                w = min(len(ports["old"][p]["bits"]), len(ports["new"][p]["bits"]))
                f.write(f"  wire [{mine - 1}:0] {p}_w;\n  assign {p} = {p}_w[{w - 1}:0];\n")
        f.write(f"  {s}_unit u (" + ", ".join(conn) + ");\nendmodule\n")
EOF
  [[ $? == 0 ]] || { echo "unit $unit: port lists differ"; fail=1; continue; }
  yosys -q -p "read_verilog $tmp/old.v $tmp/new.v $tmp/shim.v; proc; miter -equiv -flatten eq_old eq_new miter;
    hierarchy -top miter; flatten; techmap; opt -fast; dffunmap; aigmap; setundef -zero; write_aiger $tmp/miter.aig" >/dev/null 2>&1 \
    || { echo "unit $unit: miter failed"; fail=1; continue; }
  res=$(cd "$tmp" && timeout ${EQUIV_TIMEOUT:-1800} yosys-abc -c "read_aiger miter.aig; init -z; strash; $engine" 2>&1 | tail -3)
  if grep -q "Networks are equivalent\|^UNSATISFIABLE" <<<"$res"; then
    echo "unit $unit ($algo K=$k F=$f chain=$chain block=$block): equivalent to $rev"
  else
    echo "unit $unit ($algo K=$k F=$f chain=$chain block=$block): NOT PROVED: $(grep -o 'Networks are [A-Za-z ]*\|SATISFIABLE.*' <<<"$res")"
    fail=1
  fi
done
exit $fail
