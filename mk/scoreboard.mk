# The golden model as another testbench's scoreboard (docs/verify-your-design.md):
#   make scoreboard-example  build and run examples/scoreboard (Verilator --binary, the DPI bridge and
#                            the model linked as gcc-built objects)
#   make dpi-shared          build/dpi/libmmaref_dpi.so: the bridge and the model in one shared object,
#                            for simulators that load DPI libraries at run time (-sv_lib); untested here
SB_DIR     := $(BUILD)/examples/scoreboard
SB_SIM     := $(SB_DIR)/Vtb_scoreboard
SB_SRC     := dpi/mmaref_dpi_pkg.sv examples/scoreboard/mma_scoreboard_pkg.sv examples/scoreboard/tb_scoreboard.sv
DPI_BRIDGE := $(BUILD)/dpi/mmaref_dpi.o
DPI_SO     := $(BUILD)/dpi/libmmaref_dpi.so
SB_VLT_INC  = $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)/include

.PHONY: scoreboard-example dpi-shared

# the bridge, compiled by gcc so that its DPI symbols keep C linkage (svdpi.h from Verilator's include
# directory; any simulator's svdpi.h is the same standard header)
$(DPI_BRIDGE): dpi/mmaref_dpi.c dpi/mmaref_dpi.h cmodel/include/mmaref.h
	@mkdir -p $(dir $@)
	@$(CC) -std=gnu11 -O2 -Wall -Wextra -fPIC -Icmodel/include -Idpi -I$(SB_VLT_INC)/vltstd -c $< -o $@

$(SB_SIM): $(SB_SRC) $(DPI_BRIDGE) $(LIB)
	@mkdir -p $(SB_DIR)
	@verilator --binary -Wall -Wno-fatal --top-module tb_scoreboard -Mdir $(SB_DIR) \
	  -LDFLAGS "$(abspath $(DPI_BRIDGE)) $(abspath $(LIB)) -lm -lpthread" $(SB_SRC) >$(SB_DIR)/verilate.log 2>&1 \
	  || { tail -30 $(SB_DIR)/verilate.log; exit 1; }

scoreboard-example: $(SB_SIM)
	@$(SB_SIM)

$(DPI_SO): $(DPI_BRIDGE) $(LIB)
	@$(CC) -shared -o $@ $(DPI_BRIDGE) -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive -lm -lpthread

dpi-shared: $(DPI_SO)
