# mmaref list's filters (ARCH, --format, --algo, --grep): every listed instruction passes all of them, the
# text and --json listings agree, and a filter matching nothing prints nothing (--json: []) with exit 0.
. "$(dirname "$0")/lib.sh"
M=$MMAREF

# --format e4m3: e4m3 is one of the a/b/c/d formats (column 4 of the text listing) of every line
out=$("$M" list --format e4m3); rc=$?
bad=$(awk '{split($4, f, "/"); if (f[1] != "e4m3" && f[2] != "e4m3" && f[3] != "e4m3" && f[4] != "e4m3") print}' <<<"$out")
[[ $rc == 0 && -n $out && -z $bad && $out == *"mma.m16n8k32.f32.e4m3.e5m2.f32"* && $out != *".f16.f16.f16.f16"* ]] \
  && ok "list --format e4m3: $(wc -l <<<"$out") instructions, each with an e4m3 operand" \
  || not_ok "list --format e4m3: rc=$rc, without e4m3: $(head -2 <<<"$bad")"

# --algo: FDA matches the one-pass FDA schedules and CoFDA (two FDA passes); CoFDA only CoFDA
fda=$("$M" list ada --algo fda | awk '{sub(/\(.*/, "", $5); print $5}' | sort -u | tr '\n' ' ')
cofda=$("$M" list ada --algo CoFDA | awk '{sub(/\(.*/, "", $5); print $5}' | sort -u | tr '\n' ' ')
[[ $fda == "CoFDA FDA " && $cofda == "CoFDA " ]] && ok "list --algo: FDA gives FDA and CoFDA schedules, CoFDA only CoFDA" \
  || not_ok "list --algo: fda='$fda' cofda='$cofda'"

# --grep with ARCH and --format: all three at once
out=$("$M" list hopper --grep mma.m16n8k16 --format bf16)
[[ $(awk '$1 != "hopper" || index($2, "mma.m16n8k16") == 0 || $4 !~ /bf16/' <<<"$out") == "" && \
   $out == *"hopper        mma.m16n8k16.f32.bf16.bf16.f32 "* ]] \
  && ok "list hopper --grep mma.m16n8k16 --format bf16: every line passes the three filters" \
  || not_ok "list three filters: '$out'"

# --json holds the same instructions as the text listing
n_text=$("$M" list --grep .e5m2. --algo CoFDA | wc -l)
n_json=$("$M" list --grep .e5m2. --algo CoFDA --json | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')
[[ $n_text -gt 0 && $n_text == "$n_json" ]] && ok "list --json: the filtered text and JSON listings agree ($n_text)" \
  || not_ok "list filtered --json: text $n_text, json $n_json"

# nothing matches: nothing on stdout (--json: an empty array), exit 0
out=$("$M" list volta --format e4m3 2>&1); rc=$?
[[ $rc == 0 && -z $out ]] && ok "list: a filter matching nothing prints nothing, exit 0" || not_ok "list empty: rc=$rc '$out'"
out=$("$M" list --grep no-such-name --json 2>&1); rc=$?
[[ $rc == 0 && $(python3 -c 'import json, sys; print(json.load(sys.stdin))' <<<"$out") == "[]" ]] \
  && ok "list --json: a filter matching nothing gives []" || not_ok "list empty --json: rc=$rc '$out'"

# bad filters: one line, exit 2
expect_error "list: unknown --format" "--format: unknown format 'e9m9'" "$M" list --format e9m9
expect_error "list: unknown --algo" "--algo: unknown algorithm 'fma'" "$M" list --algo fma
expect_error "list: --grep without a value" "--grep needs a value" "$M" list --grep
expect_error "list: --format twice" "--format given twice" "$M" list --format f16 --format bf16
expect_error "list: --schema with a filter" "--schema takes no filter" "$M" list --schema --algo FDA

# --schema --json: the per-kind constants the hardware shares and the catalogue of RTL unit kinds, beside
# the codes; every summation kind is run by some unit kind of the catalogue
out=$("$M" list --schema --json | python3 -c 'import json, sys
s = json.load(sys.stdin)
c = {x["name"]: x["value"] for x in s["constants"]}
ran = {a for u in s["units"] for a in u["algos"]}
print(c.get("GDFS_GROUP"), c.get("FDRDA_DOT_F"), [u["code"] for u in s["units"]] == list(range(len(s["units"]))),
      sorted(a["name"] for a in s["algos"]) == sorted(ran), {u["name"]: u["module"] for u in s["units"]}.get("GDFS"))' 2>&1)
[[ $out == "16 31 True True gdfs_unit" ]] && ok "list --schema --json: constants (GDFS_GROUP 16, FDRDA_DOT_F 31) and unit kinds (codes 0.., every summation kind run)" \
  || not_ok "list --schema --json constants/units: '$out'"
# how each unit kind aligns: a rounding of the schema, or null where its parameters take the table's
out=$("$M" list --schema --json | python3 -c 'import json, sys
s = json.load(sys.stdin)
r = {x["name"] for x in s["roundings"]}
a = {u["name"]: u["align"] for u in s["units"]}
print(a.get("FDA"), a.get("GDFS"), a.get("SFMA"), a.get("FDRDA"), all(v is None or v in r for v in a.values()))' 2>&1)
[[ $out == "rz rz rne None True" ]] && ok "list --schema --json: unit kinds say how they align (FDA, GDFS rz; SFMA rne; FDRDA by its parameters)" \
  || not_ok "list --schema --json unit kinds' align: '$out'"
