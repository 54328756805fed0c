# RTL: Verilator co-simulation against the C model through DPI-C, lint, Yosys synthesis (docs/rtl.md).
#   make lint        verilator --lint-only -Wall over every unit and parameter set in use
#   make rtl         build the co-simulation model build/rtl/obj/Vtb_mma (one model, every configuration)
#   make pipe INSTR=ARCH:NAME   that instruction's unit in pipe mode: vector lines on stdin, D lines out
#   make synth       Yosys onto a cell library (LIB=nangate45, sky130hd, cells45 or a .lib/.lib.gz path; by
#                    default the first real library found, else synth/cells45.lib), OpenSTA timing: area,
#                    flops, minimum period, critical path, power per unit and the M3XU table
#                    -> build/synth/LIB_NAME/ (one folder per library), the report copied to
#                    synth/report-LIB_NAME.md, .json (docs/synthesis.md)
#   make synth-m3xu  the M3XU designs alone and their table beside the paper's Table III
#   make synth-breakdown  the Table III designs' area and critical path per submodule (synth/breakdown.sh)
#   make synth-sweep fda_unit over K x F x format sets: table, JSON and PNG per library (SWEEP_SUBSET=answers or series: subsets)
#   make rtl-formats rewrite rtl/mma_formats.svh from `mmaref list --schema --json`
#   make cosim-demo  pass table over a representative set of configurations
#   make rtl-regress RTL_COUNT (10M) vectors per configuration, RTL_SEED settable; part of `make regress`
#   make rtl-regress-m3xu  the same for the M3XU designs' configurations alone (every 3rd with backpressure)
RTL_DIR     := build/rtl
RTL_GEN     := $(RTL_DIR)/gen
# the RTL's files: rtl/rtl.f is their one list (verilator reads it with -f, synth/*.sh parse it)
RTL_LIST    := rtl/rtl.f
RTL_SRC     := $(filter-out +%,$(shell sed 's|//.*||' $(RTL_LIST)))
RTL_INC     := $(wildcard rtl/*.svh)
TB_SRC      := dpi/mmaref_dpi_pkg.sv tb/tb_support_pkg.sv tb/mma_bench.sv tb/tb_mma.sv
# the bench loop mma_bench.sv includes (make verify's bench includes it too)
TB_INC      := tb/bench_loop.svh
# the DPI library: the bridge over the public API (dpi/) and the testbench support (tb/)
DPI_SRC     := dpi/mmaref_dpi.c tb/tb_support.c tb/tb_pipe.c tb/tb_coverage.c
DPI_LIB     := $(RTL_DIR)/libmmaref_dpi.a
RTL_SIM     := $(RTL_DIR)/obj/Vtb_mma
VLT_INC      = $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)/include
RTL_SEED    ?= 1
RTL_COUNT   ?= 10000000
RTL_JOBS    ?= 2
# C++ optimization of the Verilated co-simulation model: its build, not its run, is what `make test` waits
# for (-O1: about 3 min to build on 2 cores, 200 configurations x 100,000 vectors in about 1 min;
# -O3: about 7 min, and 1.4x faster to run).  For long regressions: `rm -rf build/rtl/obj; make rtl RTL_OPT=3`.
RTL_OPT     ?= 1

.PHONY: lint rtl pipe rtl-unpack synth synth-probe synth-m3xu synth-breakdown synth-sweep cosim-demo rtl-regress rtl-regress-m3xu rtl-formats

# configurations from the instruction table; files are rewritten only when their content changes
$(RTL_GEN)/configs.txt: tb/gen_configs.py synth/mma_schema.py $(CLI)
	@mkdir -p $(RTL_GEN)
	@python3 tb/gen_configs.py $(CLI) $(RTL_GEN)
$(RTL_GEN)/tb_units.svh $(RTL_GEN)/units.txt $(RTL_GEN)/instrs.txt $(RTL_GEN)/design.json: $(RTL_GEN)/configs.txt
	@:

$(RTL_DIR)/obj-dpi/%.o: %.c dpi/mmaref_dpi.h tb/tb_support.h cmodel/include/mmaref.h cmodel/src/kind_consts.h
	@mkdir -p $(dir $@)
	@$(CC) -std=gnu11 -O3 -g -Wall -Wextra -fPIC -Icmodel/include -Idpi -I$(VLT_INC)/vltstd -c $< -o $@

# gcc-built, so the DPI symbols keep C linkage (a .c handed to Verilator is compiled as C++)
$(DPI_LIB): $(patsubst %.c,$(RTL_DIR)/obj-dpi/%.o,$(DPI_SRC))
	@rm -f $@
	@ar rcs $@ $^

$(RTL_SIM): $(RTL_LIST) $(RTL_SRC) $(RTL_INC) $(TB_SRC) $(TB_INC) tb/tb_main.cpp tb/verilate.sh $(RTL_GEN)/tb_units.svh $(DPI_LIB) $(LIB)
	@echo "building the co-simulation model of every unit (about 3 minutes on 2 cores; log: $(RTL_DIR)/verilate.log)"
	@rm -f $@   # relinks when only the DPI or model library changed
	@bash tb/verilate.sh --mdir $(RTL_DIR)/obj --log $(RTL_DIR)/verilate.log --jobs $(RTL_JOBS) --what tb_mma \
	  --make "OPT_FAST=-O$(RTL_OPT) OPT_SLOW=-O0 OPT_GLOBAL=-O$(RTL_OPT)" -- \
	  -O3 --x-assign fast --x-initial fast --trace-fst -Wno-fatal -Wno-lint -Wno-style --top-module tb_mma -Itb -I$(RTL_GEN) \
	  -CFLAGS "-O$(RTL_OPT) -march=native -std=c++17 -DVL_USER_FINISH" -LDFLAGS "$(abspath $(DPI_LIB)) $(abspath $(LIB)) -lm -lz" \
	  -f $(RTL_LIST) $(TB_SRC) $(abspath tb/tb_main.cpp)

rtl: $(RTL_SIM)

# make pipe INSTR=ARCH:NAME < vectors > d: the project's unit for that instruction in pipe mode (+pipe:
# `mmaref batch` lines in, its D lines out, docs/verify-your-design.md); the build's messages on stderr
pipe:
	@test -n $(call shell_word,INSTR) || { echo "make pipe: give INSTR=ARCH:NAME (build/rtl/gen/instrs.txt lists them)" >&2; exit 2; }
	@$(MAKE) -s --no-print-directory rtl >&2
	@$(RTL_SIM) +instr=$(call shell_word,INSTR) +pipe

# mma_unpack on every format against the model's decoding (tests/t_rtl_lint.sh runs it)
RTL_UNPACK  := $(RTL_DIR)/obj-unpack/Vtb_unpack
$(RTL_UNPACK): $(RTL_LIST) $(RTL_SRC) $(RTL_INC) tb/tb_unpack.sv tb/tb_unpack.cpp $(LIB)
	@verilator --cc --exe --build -O3 -Wno-fatal -Wno-lint -Wno-style --top-module tb_unpack \
	  -Mdir $(RTL_DIR)/obj-unpack -CFLAGS "-O2 -I$(abspath cmodel/include)" -LDFLAGS "$(abspath $(LIB)) -lm" \
	  -f $(RTL_LIST) tb/tb_unpack.sv $(abspath tb/tb_unpack.cpp) >$(RTL_DIR)/verilate-unpack.log 2>&1 \
	  || { tail -30 $(RTL_DIR)/verilate-unpack.log; exit 1; }
rtl-unpack: $(RTL_UNPACK)

lint:
	@bash synth/lint.sh

# rtl/mma_formats.svh (committed) from the model's schema; tests/t_rtl_lint.sh checks it is up to date
rtl-formats: $(CLI)
	@python3 synth/gen_formats.py --mmaref $(CLI) --out rtl/mma_formats.svh

# SYNTH_NOSHARE=1 (default here): skip Yosys' SAT resource sharing, which runs for tens of minutes on
# the K = 32 units; SYNTH_NOSHARE= make synth to include it.  Output under build/ (make test's smoke
# synthesis never rewrites tracked files); `make synth` alone copies the report to synth/.
SYNTH_NOSHARE ?= 1
# the cell library (LIB=... on the command line, see the Makefile; synth/liberty.py finds it)
SYNTH_LIBRARY ?= auto
export SYNTH_LIBRARY
# each library's results in their own folder, build/synth/LIB_NAME (evaluated only by the synth targets)
SYNTH_LIBDIR   = $(BUILD)/synth/$(shell python3 synth/liberty.py resolve $(SYNTH_LIBRARY) 2>/dev/null | sed -n "s/^LIB_NAME=//p" | tr -d "'")
SYNTH_PROBE    = $(SYNTH_LIBDIR)/mulprobe
SWEEP_DIR      = $(SYNTH_LIBDIR)/sweep
SWEEP_SUBSET  ?= all
synth-probe: $(RTL_GEN)/configs.txt
	@python3 synth/liberty.py resolve $(SYNTH_LIBRARY) >/dev/null
	@python3 synth/units_extra.py mulprobe $(RTL_GEN)/units.txt $(SYNTH_PROBE)
	@SYNTH_UNITS=$(SYNTH_PROBE)/units.txt SYNTH_OUT=$(SYNTH_PROBE) SYNTH_EXTRA=synth/mul_probe.sv SYNTH_NOSHARE=$(SYNTH_NOSHARE) \
	  SYNTH_TITLE="Multiplier probe (synth/mul_probe.sv)" bash synth/synth.sh >/dev/null \
	  || { echo "synth: the multiplier probe failed (see $(SYNTH_PROBE))"; exit 1; }
synth: synth-probe
	@SYNTH_NOSHARE=$(SYNTH_NOSHARE) SYNTH_MUL_PROBE=$(SYNTH_PROBE) bash synth/synth_all.sh
	@cp $(SYNTH_LIBDIR)/report.md synth/report-$(notdir $(SYNTH_LIBDIR)).md
	@cp $(SYNTH_LIBDIR)/report.json synth/report-$(notdir $(SYNTH_LIBDIR)).json
	@echo "copied $(SYNTH_LIBDIR)/report.* to synth/report-$(notdir $(SYNTH_LIBDIR)).md, .json"
# the M3XU designs alone, with SYNTH_ABC=nosat as in make synth (build/synth/LIB/nosat/report.md)
synth-m3xu: synth-probe
	@SYNTH_NOSHARE=$(SYNTH_NOSHARE) SYNTH_MUL_PROBE=$(SYNTH_PROBE) SYNTH_TITLE="M3XU designs (SYNTH_ABC=nosat)" \
	  bash synth/synth_all.sh --designs
# the Table III designs per submodule, hierarchy kept (build/synth/LIB/breakdown/breakdown.md)
synth-breakdown: $(RTL_GEN)/configs.txt
	@bash synth/breakdown.sh
synth-sweep:
	@python3 synth/liberty.py resolve $(SYNTH_LIBRARY) >/dev/null
	@python3 synth/units_extra.py sweep --subset $(SWEEP_SUBSET) $(SWEEP_DIR)
	@SYNTH_UNITS=$(SWEEP_DIR)/units.txt SYNTH_OUT=$(SWEEP_DIR) SYNTH_NOSHARE=$(SYNTH_NOSHARE) \
	  SYNTH_TITLE="fda_unit sweep (SWEEP_SUBSET=$(SWEEP_SUBSET))" bash synth/synth.sh; \
	  rc=$$?; python3 synth/sweep_plot.py $(SWEEP_DIR) \
	  && for x in md json png; do cp $(SWEEP_DIR)/sweep.$$x synth/sweep-$(notdir $(SYNTH_LIBDIR)).$$x || exit 1; done \
	  && echo "copied to synth/sweep-$(notdir $(SYNTH_LIBDIR)).md, .json, .png" && exit $$rc

cosim-demo: $(RTL_SIM) $(RTL_GEN)/configs.txt
	@bash tb/run_cosim.sh --demo --count $${RTL_DEMO_COUNT:-200000} --seed $(RTL_SEED)

rtl-regress: $(RTL_SIM) $(RTL_GEN)/configs.txt
	@bash tb/run_cosim.sh --count $(RTL_COUNT) --seed $(RTL_SEED) --bp-every 4

rtl-regress-m3xu: $(RTL_SIM) $(RTL_GEN)/configs.txt
	@bash tb/run_cosim.sh --only '^m3xu:' --count $(RTL_COUNT) --seed $(RTL_SEED) --bp-every 3

# `make regress` (double-colon, shared with mk/regress.mk) runs the RTL regression too.
regress:: rtl-regress
