# make verify: any unit meeting the port contract, checked against the golden model in the generic bench
# (tb/verify/, docs/verify-your-design.md):
#   make verify DUT=path/to/unit.sv [DUT_TOP=module] INSTR=hopper:mma.m16n8k16.f32.f16.f16.f32 \
#               [COUNT=100000] [SEED=1] [PARAMS=K=16,F=25] [DUT_AW=8] [BP=1] [PLUSARGS=+name=value]
#               [VECTORS=FILE: those vectors alone, e.g. make prove's counterexample]
#   make verify-example   the independent example examples/naive_dot against Hopper (it FAILS: that is
#                         the point of the walkthrough)
.PHONY: verify verify-example
# The user's variables reach tb/verify/verify.sh as shell words (shell_word, Makefile): a quote or a
# $(...) in DUT is a character of a file name, never a command; the script sets the defaults and checks
# every value against its grammar (tb/flow_values.py) before it builds or writes anything.  GNU make
# would expand a variable given on its command line when it exports it to a recipe's environment (a
# 'DUT=$(shell ...)' would run there): the flow's variables are not exported (unexport below), and the
# recipe passes their text alone.  A script that builds such values had best pass them in the
# environment (DUT=... make verify), where make never expands them.
VERIFY_VARS := DUT DUT_TOP INSTR PARAMS DUT_AW COUNT SEED BP PLUSARGS VECTORS
unexport $(VERIFY_VARS)
verify: $(CLI) $(LIB) $(DPI_LIB)
	@DUT=$(call shell_word,DUT) DUT_TOP=$(call shell_word,DUT_TOP) INSTR=$(call shell_word,INSTR) \
	  PARAMS=$(call shell_word,PARAMS) DUT_AW=$(call shell_word,DUT_AW) COUNT=$(call shell_word,COUNT) SEED=$(call shell_word,SEED) BP=$(call shell_word,BP) \
	  PLUSARGS=$(call shell_word,PLUSARGS) VECTORS=$(call shell_word,VECTORS) MMAREF=$(CLI) LIB=$(LIB) DPI_LIB=$(DPI_LIB) \
	  bash tb/verify/verify.sh

verify-example: $(CLI) $(LIB) $(DPI_LIB)
	@count=$(call shell_word,COUNT) seed=$(call shell_word,SEED); \
	  DUT=examples/naive_dot/naive_dot.sv INSTR=hopper:mma.m16n8k16.f32.f16.f16.f32 COUNT=$${count:-20000} \
	  SEED=$${seed:-1} MMAREF=$(CLI) LIB=$(LIB) DPI_LIB=$(DPI_LIB) bash tb/verify/verify.sh
