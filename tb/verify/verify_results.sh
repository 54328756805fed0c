#!/usr/bin/env bash
# The machine-readable results of one `make verify` run (tb/verify/verify.sh calls it): result.json and
# result.xml (JUnit XML, as CI systems read it) in the run's directory, each written whole to a
# temporary file and renamed, so that a reader never sees a partial one.
#   verify_results.sh DIR UNIT INSTR SEED COUNT VERDICT VECTORS MISMATCHES FIRST_FAIL LOG SECONDS
set -u
dir=$1 unit=$2 instr=$3 seed=$4 count=$5 verdict=$6 vectors=$7 mismatches=$8 first=$9 log=${10} seconds=${11:-0}
# JSON and XML strings: backslash, quote, control characters; <, >, & for XML
json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\t'/ }; printf '"%s"' "${s//$'\n'/\\n}"; }
xml_str() { local s=${1//&/&amp;}; s=${s//</&lt;}; s=${s//>/&gt;}; printf '%s' "${s//\"/&quot;}"; }
mapfile -t holes < <(sed -n 's/^COVERAGE HOLE: //p' "$log")
closed=$(grep -m1 '^coverage \(closed\|NOT closed\):' "$log" | sed 's/^coverage [A-Za-z ]*: //')
{
  printf '{"unit": %s, "instruction": %s, "seed": %s, "count": %s, "verdict": %s,\n' "$(json_str "$unit")" \
    "$(json_str "$instr")" "$seed" "$count" "$(json_str "$verdict")"
  printf ' "vectors": %s, "mismatches": %s, "first_mismatch_index": %s, "seconds": %s,\n' "$vectors" "$mismatches" \
    "${first:-null}" "${seconds:-0}"
  printf ' "coverage": %s, "holes": [' "$(json_str "$closed")"
  for i in "${!holes[@]}"; do printf '%s%s' "$([[ $i -gt 0 ]] && echo ', ')" "$(json_str "${holes[$i]}")"; done
  printf ']}\n'
} >"$dir/result.json.tmp" && mv "$dir/result.json.tmp" "$dir/result.json"
{
  fail=0; [[ $verdict != pass ]] && fail=1
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  printf '<testsuites tests="1" failures="%d"><testsuite name="mmaref verify" tests="1" failures="%d" time="%s">\n' \
    "$fail" "$fail" "${seconds:-0}"
  printf '<testcase classname="%s" name="%s seed %s count %s" time="%s">' "$(xml_str "$unit")" "$(xml_str "$instr")" \
    "$seed" "$count" "${seconds:-0}"
  case $verdict in
    FAIL|ERROR) printf '<failure message="%s mismatches of %s vectors%s">%s</failure>' "$mismatches" "$vectors" \
                  "${first:+, first at index $first}" "$(xml_str "$(grep -m1 -A3 '^MISMATCH' "$log")")" ;;
    HOLE) printf '<failure message="coverage hole: %s reachable bins no vector hit">%s</failure>' "${#holes[@]}" \
            "$(xml_str "$(printf '%s\n' "${holes[@]}")")" ;;
  esac
  printf '</testcase></testsuite></testsuites>\n'
} >"$dir/result.xml.tmp" && mv "$dir/result.xml.tmp" "$dir/result.xml"
