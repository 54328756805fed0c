# make probe-rtl: `mmaref probe` through Verilated units in pipe mode (tests/probe/rtl_pipe.sh): the
# project's FDA unit must give the same report as probing its instruction, and the naive FMA-chain
# example must be named for what it is.  Builds two units with `make verify` (a few minutes).
.PHONY: probe-rtl
probe-rtl: $(CLI) $(LIB)
	@bash tests/probe/rtl_pipe.sh
