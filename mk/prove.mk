# make prove: formal equivalence of a unit against the project's reference unit for one instruction, for
# every input (tb/prove/prove.sh, docs/formal.md):
#   make prove DUT=path/to/unit.sv [DUT_TOP=module] INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 \
#              [PARAMS=K=16,F=13] [DUT_AW=8] [REF=module REF_PARAMS=... REF_AW=8 | PROPERTY=swap:0,1]
#              [FORMATS=all] [BOUND=16] [TIMEOUT=600] [INIT=any] [REPLAY=0] [FRONTEND=verilator|yosys]
#              [CUT=module] [CASES=cases.txt [JOBS=2] | ASSUME=expression]
#   make prove-all   the table of docs/formal.md: the project's own units and properties (tests/prove/all.sh),
#                    its records in build/prove-all/table.jsonl (PROVE_ALL_DIR)
#   make prove-table docs/formal.md's tables of rows rendered from docs/data/prove-all.jsonl, with make
#                    prove-all's records merged in first (a record of the same row and instruction replaced,
#                    a new row added, an ERROR row left out; tools/prove_table.py)
# (prove.mk is read before rtl.mk: its prerequisites name the build paths themselves)
.PHONY: prove prove-all prove-table
# The user's variables reach tb/prove/prove.sh as shell words (shell_word, Makefile): a quote or a
# $(...) in DUT is a character of a file name, never a command; the script sets the defaults and checks
# every value against its grammar (tb/flow_values.py) first.  They are not exported (a variable given on
# make's command line would be expanded as it is exported to a recipe: mk/verify.mk says more).
PROVE_VARS := DUT DUT_TOP INSTR PARAMS DUT_AW REF REF_PARAMS REF_AW PROPERTY FORMATS CUT CASES ASSUME JOBS \
  REF_FILES BOUND TIMEOUT INIT REPLAY FRONTEND FE_CYCLES
unexport $(PROVE_VARS)
prove: $(CLI) $(LIB) $(BUILD)/rtl/libmmaref_dpi.a $(BUILD)/rtl/gen/instrs.txt
	@DUT=$(call shell_word,DUT) DUT_TOP=$(call shell_word,DUT_TOP) INSTR=$(call shell_word,INSTR) \
	  PARAMS=$(call shell_word,PARAMS) DUT_AW=$(call shell_word,DUT_AW) REF=$(call shell_word,REF) \
	  REF_PARAMS=$(call shell_word,REF_PARAMS) REF_AW=$(call shell_word,REF_AW) PROPERTY=$(call shell_word,PROPERTY) \
	  FORMATS=$(call shell_word,FORMATS) CUT=$(call shell_word,CUT) CASES=$(call shell_word,CASES) \
	  ASSUME=$(call shell_word,ASSUME) JOBS=$(call shell_word,JOBS) \
	  REF_FILES=$(call shell_word,REF_FILES) BOUND=$(call shell_word,BOUND) TIMEOUT=$(call shell_word,TIMEOUT) \
	  INIT=$(call shell_word,INIT) REPLAY=$(call shell_word,REPLAY) FRONTEND=$(call shell_word,FRONTEND) \
	  FE_CYCLES=$(call shell_word,FE_CYCLES) MMAREF=$(CLI) LIB=$(LIB) \
	  DPI_LIB=$(BUILD)/rtl/libmmaref_dpi.a bash tb/prove/prove.sh

prove-all: $(CLI) $(LIB) $(BUILD)/rtl/libmmaref_dpi.a $(BUILD)/rtl/gen/instrs.txt
	@MMAREF=$(CLI) bash tests/prove/all.sh

PROVE_TABLE_DATA := docs/data/prove-all.jsonl
prove-table:
	@new=$${PROVE_ALL_DIR:-$(BUILD)/prove-all}/table.jsonl; \
	if [ -f "$$new" ]; then python3 tools/prove_table.py --merge $(PROVE_TABLE_DATA) "$$new" || exit 2; \
	else echo "prove-table: no $$new (make prove-all writes it): the tables rendered from $(PROVE_TABLE_DATA) as it is"; fi; \
	python3 tools/prove_table.py --update docs/formal.md $(PROVE_TABLE_DATA)
