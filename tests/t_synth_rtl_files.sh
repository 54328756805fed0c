# The files synthesis reads for a unit (synth/rtl_files.py, synth/flow.sh): for every top module of the
# units table, Yosys elaborates it from exactly those files (hierarchy -check finds every module); the list
# leaves out the modules of the other algorithms and is unchanged when rtl/rtl.f gains an unrelated file,
# so a unit's netlist does not move when rtl/ grows; a list with one needed file dropped fails to
# elaborate (the check can fail); an extra file's top pulls in what it uses; an unknown top or a missing
# list stops with a one-line error.
# runtime: 33 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.."
if ! command -v yosys >/dev/null; then
  not_ok "rtl files: yosys is needed (make setup)"
  exit 0
fi
[[ -f build/rtl/gen/units.txt ]] || make -s build/rtl/gen/configs.txt >/dev/null 2>&1
dir=build/rtl/rtl-files-test
rm -rf $dir && mkdir -p $dir
elaborates() { # elaborates TOP FILE...: Yosys reads the files and finds every module under TOP
  local top=$1; shift
  yosys -q -p "read_verilog -sv -Irtl $*; hierarchy -check -top $top" >$dir/yosys-$top.log 2>&1
}

tops=$(awk '!/^#/ && NF {print $11}' build/rtl/gen/units.txt | sort -u)
for top in $tops; do
  files=$(python3 synth/rtl_files.py "$top")
  n=$(wc -w <<<"$files") all=$(python3 synth/rtl_files.py --all | wc -w)
  if elaborates "$top" $files && (( n < all )); then
    ok "rtl files: $top elaborates from its $n files of rtl/rtl.f's $all"
  else not_ok "rtl files: $top from $n of $all files: $(grep -m1 ERROR $dir/yosys-$top.log)"; fi
done

# fda_unit's list: the shared steps and FDA's own files, none of the other algorithms'
fda=$(python3 synth/rtl_files.py fda_unit)
[[ " $fda " == *"/mma_pkg.sv "* && " $fda " == *"/fda_datapath.sv "* && " $fda " == *"/mma_lzc.sv "* \
   && " $fda " != *gps_* && " $fda " != *m3xu_* && " $fda " != *gdfs_* && " $fda " != *sfma_* && " $fda " != *fdrda_* ]] \
  && ok "rtl files: fda_unit's list holds mma_pkg, mma_lzc, fda_datapath and no other algorithm's file" \
  || not_ok "rtl files: fda_unit's list: $fda"

# an unrelated module placed early in a copy of the list changes no unit's files
printf 'module zz_unrelated(input wire [7:0] x, output wire [7:0] y);\n  assign y = x + 8'"'"'d1;\nendmodule\n' >$dir/zz_unrelated.sv
sed "s|^rtl/mma_unpack.sv|$dir/zz_unrelated.sv\nrtl/mma_unpack.sv|" rtl/rtl.f >$dir/rtl.f
moved=""
for top in $tops; do
  [[ $(python3 synth/rtl_files.py --list $dir/rtl.f "$top") == "$(python3 synth/rtl_files.py "$top")" ]] || moved+=" $top"
done
grep -q zz_unrelated $dir/rtl.f && [[ -z $moved ]] \
  && ok "rtl files: an unrelated module added to rtl/rtl.f changes no unit's files" \
  || not_ok "rtl files: the unrelated module moved the files of:$moved"

# the check can fail: fda_unit without mma_lzc.sv does not elaborate
if ! elaborates fda_unit ${fda//rtl\/mma_lzc.sv/}; then
  ok "rtl files: fda_unit's list without mma_lzc.sv fails to elaborate ($(grep -m1 -o "Module [^ ]* .*not part of the design" $dir/yosys-fda_unit.log || grep -m1 ERROR $dir/yosys-fda_unit.log))"
else not_ok "rtl files: fda_unit elaborated without mma_lzc.sv"; fi

# an extra file (SYNTH_EXTRA): its top's uses count
printf 'module zz_top(input wire [15:0] x, output wire [4:0] n);\n  mma_lzc #(.W(16)) u(.x(x), .count(n));\nendmodule\n' >$dir/zz_top.sv
extra=$(python3 synth/rtl_files.py zz_top $dir/zz_top.sv)
[[ $(basename -a $extra | xargs) == "mma_pkg.sv mma_lzc.sv" ]] && ok "rtl files: an extra file's top using mma_lzc needs mma_pkg.sv and mma_lzc.sv" \
  || not_ok "rtl files: the extra file's top: '$extra'"

expect_error "rtl files: a top no file defines" "rtl_files.py: no file of rtl/rtl.f defines module no_such_unit" \
  python3 synth/rtl_files.py no_such_unit
expect_error "rtl files: a missing list" "rtl_files.py: $dir/none.f: No such file or directory" \
  python3 synth/rtl_files.py --list $dir/none.f fda_unit
# the one reader of the list's syntax: files and include directories of a hand-written list (comments,
# an include directory with a trailing comment, blank lines)
printf '// a list\n+incdir+inc_a // the headers\n\nx/a.sv\n  x/b.sv // second\n+incdir+inc_b\n' >$dir/hand.f
all=$(python3 synth/rtl_files.py --list $dir/hand.f --all) inc=$(python3 synth/rtl_files.py --list $dir/hand.f --incdirs)
[[ $all == "x/a.sv x/b.sv" && $inc == "-Iinc_a -Iinc_b" ]] \
  && ok "rtl files: a hand-written list's files (x/a.sv x/b.sv) and include directories (-Iinc_a -Iinc_b)" \
  || not_ok "rtl files: the hand-written list read as files '$all', include directories '$inc'"
expect_error "rtl files: --all with a top" "rtl_files.py: usage:" python3 synth/rtl_files.py --all fda_unit
