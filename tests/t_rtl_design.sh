# The design database (build/rtl/gen/design.json, tb/gen_configs.py) and its query command
# (tools/design.py): every unit, configuration and served instruction as a record read by field name,
# the same as the generated tables; a field that is not there, a database of another schema version or
# none at all is one line naming it, exit 2.  Volta's f16 instruction is served by an FDA unit with
# K = 4 and F = 23 (the MMA-Sim paper, Table III and section IV: Volta's HMMA keeps 23 fractional bits).
# runtime: 5 s
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
gen=build/rtl/gen
[[ -f $gen/design.json ]] || make -s "$gen/configs.txt" >/dev/null 2>&1
D() { python3 tools/design.py "$@"; }

# the records and the tables have the same rows
rows() { grep -vc '^#' "$gen/$1"; }
n="$(D units | wc -l) $(D configs | wc -l) $(D instructions | wc -l)"
[[ $n == "$(rows units.txt) $(rows configs.txt) $(rows instrs.txt)" ]] &&
  ok "design: $n units, configurations and instructions, as many as the tables have" ||
  not_ok "design: records $n, tables $(rows units.txt) $(rows configs.txt) $(rows instrs.txt)"
# ... field by field: a unit's index, top module and parameters; an instruction's configuration and unit
want=$(awk '!/^#/ {print $1, $11, $12}' "$gen/units.txt")
[[ $(D units --field index,top,params) == "$want" ]] && ok "design: every unit's top module and parameters are units.txt's" ||
  not_ok "design: units differ from units.txt: $(diff <(D units --field index,top,params) <(echo "$want") | head -3 | tr '\n' ' ')"
want=$(awk '!/^#/ {print $1, $2, $3, $4}' "$gen/instrs.txt")
[[ $(D instructions --field arch,name,config,unit) == "$want" ]] && ok "design: every instruction's configuration and unit are instrs.txt's" ||
  not_ok "design: instructions differ from instrs.txt"

# by hand: Volta's f16 instruction
u=$(D instructions --arch volta --name mma.m8n8k4.f32.f16.f16.f32 --field unit)
got=$(D units --index "$u" --field kind,top,k,f,ab_formats,mutant)
[[ $got == "FDA fda_unit 4 23 f16 0" ]] && ok "design: volta mma.m8n8k4.f32.f16.f16.f32 runs on unit $u: $got" ||
  not_ok "design: volta's f16 instruction: unit '$u': '$got' (wanted FDA fda_unit 4 23 f16 0)"
# a list field matches any of its values; a parameter list prints as NAME=VALUE,...
n=$(D units --ab_formats e4m3fnuz --mutant 0 --field kind | sort -u | tr '\n' ' ')
[[ $n == "FDRDA " ]] && ok "design: the units serving e4m3fnuz are FDRDA units" || not_ok "design: e4m3fnuz units: '$n'"

# errors: one line naming what is wrong, exit 2; no record: exit 1
expect_error "design: a field no unit has" "units has no field 'paramz'" python3 tools/design.py units --field paramz
expect_error "design: a filter on a field no instruction has" "instructions has no field 'archh'" python3 tools/design.py instructions --archh volta
expect_error "design: a table that does not exist" "no table 'unit'" python3 tools/design.py unit
expect_error "design: no database" "no design database $tmp/none.json" python3 tools/design.py units --db "$tmp/none.json"
sed 's/"schema_version": 1/"schema_version": 2/' "$gen/design.json" >"$tmp/v2.json"
expect_error "design: another schema version" "schema version 2, this reader knows 1" python3 tools/design.py units --db "$tmp/v2.json"
python3 tools/design.py units --kind NOPE >/dev/null 2>&1
[[ $? == 1 ]] && ok "design: no matching record: exit 1" || not_ok "design: no matching record does not exit 1"
# a renamed field (what a generator change would do) fails its readers by name, not by a shifted column
sed 's/"params":/"parameters":/' "$gen/design.json" >"$tmp/renamed.json"
expect_error "design: a reader of a renamed field" "units has no field 'params'" \
  python3 tools/design.py units --db "$tmp/renamed.json" --index 0 --field params

# the figures the docs quote are the design database's and the CLI's (tools/doc_figures.py): a doc that
# says another number fails
out=$(python3 tools/doc_figures.py --check README.md docs/rtl.md 2>&1) && ok "design: $out" || not_ok "design: $out"
sed 's/<!-- fig:rtl_mutants -->[0-9]*</<!-- fig:rtl_mutants -->7</' README.md >"$tmp/README.md"
out=$(python3 tools/doc_figures.py --check "$tmp/README.md" 2>&1); rc=$?
[[ $rc == 1 && $out == *"rtl_mutants is 7, the tools say "* ]] && ok "design: a doc quoting 7 broken units fails its check" ||
  not_ok "design: a doc quoting 7 broken units: rc=$rc $out"
