# SystemC co-simulation of the M3XU Tensor Core (docs/m3xu.md, "SystemC tile array"): the 8x4 array of
# Verilated m3xu_unit (Verilator --sc) fed GEMM tiles by a SystemC producer, every D tile checked
# against mmaref_mma, cycles per tile and MACs per cycle held to the paper's Corollaries 1-3.
#   make systemc        SYSTEMC_TILES (10000) tiles per mode (FP16, BF16, FP32, FP32C), SYSTEMC_SEED,
#                       SYSTEMC_DESIGN (m3xu, or m3xu-pipelined: PIPE = 1, the paper's pipelined M3XU)
#   make systemc-build  only the simulator, build/systemc/m3xu_systemc (cached; `make test` uses it)
#   make systemc-demo   a short run (SYSTEMC_DEMO_TILES, 200), the lines `make demo` shows
# Uses RTL_LIST, RTL_SRC, RTL_INC and VLT_INC from mk/rtl.mk (included before this file).
SC_DIR      := $(BUILD)/systemc
SC_SIM      := $(SC_DIR)/m3xu_systemc
SC_SRC      := tb/systemc/sc_main.cpp
SC_HDR      := $(wildcard tb/systemc/*.h)
SC_JOBS     ?= 2
SYSTEMC_TILES      ?= 10000
SYSTEMC_DEMO_TILES ?= 200
SYSTEMC_SEED       ?= 1
# the unit alone is Verilated (SystemC ports); the array is built in SystemC.  The mutant element
# (MUTANT = 1: a_L b_L dropped) is a second Verilated class, placed at run time by --mutant ROW,COL; the
# pipelined unit (PIPE = 1) a third, chosen for the whole array by --design m3xu-pipelined.
SC_VERILATE  = verilator --sc --build -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint -Wno-style \
  --top-module m3xu_unit -j $(SC_JOBS) -CFLAGS "-O2" --MAKEFLAGS "OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2" \
  -f $(RTL_LIST)
SC_UNIT_LIB := $(SC_DIR)/unit/Vm3xu_unit__ALL.a
SC_MUT_LIB  := $(SC_DIR)/mutant/Vm3xu_unit_mutant__ALL.a
SC_PIPE_LIB := $(SC_DIR)/pipe/Vm3xu_unit_pipe__ALL.a
SYSTEMC_DESIGN     ?= m3xu
SC_VLT_OBJ  := $(SC_DIR)/unit/verilated.o $(SC_DIR)/unit/verilated_threads.o
# SystemC's copyright banner off, so the report is the whole output
SC_RUN      := SC_COPYRIGHT_MESSAGE=DISABLE $(SC_SIM)

.PHONY: systemc systemc-build systemc-demo

$(SC_UNIT_LIB): $(RTL_LIST) $(RTL_SRC) $(RTL_INC)
	@mkdir -p $(SC_DIR)
	@echo "verilating m3xu_unit --sc (build/systemc/unit)"
	@rm -rf $(SC_DIR)/unit
	@$(SC_VERILATE) --prefix Vm3xu_unit -Mdir $(SC_DIR)/unit >$(SC_DIR)/verilate-unit.log 2>&1 \
	  || { tail -30 $(SC_DIR)/verilate-unit.log; exit 1; }
	@$(MAKE) -s -C $(SC_DIR)/unit -f Vm3xu_unit.mk verilated.o verilated_threads.o \
	  >>$(SC_DIR)/verilate-unit.log 2>&1 || { tail -30 $(SC_DIR)/verilate-unit.log; exit 1; }
$(SC_VLT_OBJ): $(SC_UNIT_LIB)
	@:

$(SC_MUT_LIB): $(RTL_LIST) $(RTL_SRC) $(RTL_INC)
	@mkdir -p $(SC_DIR)
	@echo "verilating m3xu_unit --sc with MUTANT=1 (build/systemc/mutant)"
	@rm -rf $(SC_DIR)/mutant
	@$(SC_VERILATE) -GMUTANT=1 --prefix Vm3xu_unit_mutant -Mdir $(SC_DIR)/mutant \
	  >$(SC_DIR)/verilate-mutant.log 2>&1 || { tail -30 $(SC_DIR)/verilate-mutant.log; exit 1; }

$(SC_PIPE_LIB): $(RTL_LIST) $(RTL_SRC) $(RTL_INC)
	@mkdir -p $(SC_DIR)
	@echo "verilating m3xu_unit --sc with PIPE=1 (build/systemc/pipe)"
	@rm -rf $(SC_DIR)/pipe
	@$(SC_VERILATE) -GPIPE=1 --prefix Vm3xu_unit_pipe -Mdir $(SC_DIR)/pipe \
	  >$(SC_DIR)/verilate-pipe.log 2>&1 || { tail -30 $(SC_DIR)/verilate-pipe.log; exit 1; }

# the C model links as the gcc-built library (build/libmmaref.a), never compiled as C++
$(SC_SIM): $(SC_SRC) $(SC_HDR) $(SC_UNIT_LIB) $(SC_MUT_LIB) $(SC_PIPE_LIB) $(SC_VLT_OBJ) $(LIB)
	@echo "building $@"
	@$(CXX) -std=gnu++17 -O2 -Wall -Wextra -DVM_SC=1 -Icmodel/include -I$(SC_DIR)/unit -I$(SC_DIR)/mutant -I$(SC_DIR)/pipe \
	  -isystem $(VLT_INC) -isystem $(VLT_INC)/vltstd -faligned-new -o $@ $(SC_SRC) $(SC_UNIT_LIB) $(SC_MUT_LIB) $(SC_PIPE_LIB) \
	  $(SC_VLT_OBJ) \
	  $(LIB) -lsystemc -lpthread -lm

systemc-build: $(SC_SIM)

systemc: $(SC_SIM)
	@$(SC_RUN) --tiles $(SYSTEMC_TILES) --seed $(SYSTEMC_SEED) --design $(SYSTEMC_DESIGN)

systemc-demo: $(SC_SIM)
	@$(SC_RUN) --tiles $(SYSTEMC_DEMO_TILES) --seed $(SYSTEMC_SEED) --show 3
