# make prove: formal equivalence of a unit against the project's reference unit for one instruction, for
# every input (tb/prove/prove.sh, docs/formal.md):
#   make prove DUT=path/to/unit.sv [DUT_TOP=module] INSTR=ada:mma.m16n8k16.f32.e4m3.e4m3.f32 \
#              [PARAMS=K=16,F=13] [REF=module REF_PARAMS=...] [BOUND=16] [TIMEOUT=600] [INIT=any] [REPLAY=0]
#   make prove-all   the table of docs/formal.md: the project's own units and properties (tests/prove/all.sh)
# (prove.mk is read before rtl.mk: its prerequisites name the build paths themselves)
.PHONY: prove prove-all
prove: $(CLI) $(LIB) $(BUILD)/rtl/libmmaref_dpi.a $(BUILD)/rtl/gen/instrs.txt
	@DUT="$(DUT)" DUT_TOP="$(DUT_TOP)" INSTR="$(INSTR)" PARAMS="$(PARAMS)" REF="$(or $(REF),-)" \
	  REF_PARAMS="$(REF_PARAMS)" REF_FILES="$(REF_FILES)" BOUND="$(or $(BOUND),16)" TIMEOUT="$(or $(TIMEOUT),600)" \
	  INIT="$(or $(INIT),zero)" REPLAY="$(or $(REPLAY),1)" MMAREF=$(CLI) LIB=$(LIB) DPI_LIB=$(BUILD)/rtl/libmmaref_dpi.a bash tb/prove/prove.sh

prove-all: $(CLI) $(LIB) $(BUILD)/rtl/libmmaref_dpi.a $(BUILD)/rtl/gen/instrs.txt
	@MMAREF=$(CLI) bash tests/prove/all.sh
