# `make regress`: the oracle suites (tests/t_model_oracle*.sh: every distinct algorithm configuration, and
# the four M3XU modes in t_model_oracle_m3xu.sh) with 1,000,000 vectors each instead of make test's 15,000
# (and t_model_oracle_m3xu's 100,000).  ORACLE_SEED picks the seed.
.PHONY: regress
regress:: all
	@ORACLE_COUNT=$${ORACLE_COUNT:-1000000} bash tests/run.sh t_model_oracle
# mmaref explain's traced D against mmaref_dot: 100,000 random vectors per distinct configuration (about
# 4 CPU-minutes; make test runs 2,000)
regress:: all
	@EXPLAIN_COUNT=$${EXPLAIN_COUNT:-100000} bash tests/run.sh t_cli_explain
# mmaref probe over every distinct configuration with the probe's full 100,000-vector confirmation (make
# test's t_cli_probe confirms each on 10,000)
regress:: all
	@python3 tests/probe/sweep.py build/mmaref 100000
# The oracle suites again on each batched path that is not the default one (docs/speed.md): the same
# independent references, the kernels compiled for the baseline instruction set and for AVX2 (make
# test's t_model_batch holds every path to mmaref_dot on every configuration)
regress:: all
	@for p in reference generic avx2; do echo "== MMAREF_SIMD=$$p"; \
	  MMAREF_SIMD=$$p ORACLE_COUNT=$${ORACLE_COUNT_PATHS:-100000} bash tests/run.sh t_model_oracle || exit 1; done
# make verify's mutation check (tests/t_rtl_verify_mutants.sh) on two more instructions: Hopper's f16 FDA
# and Blackwell's FP8 K = 32 (tcgen05, f16 D, RNE), two more builds (about 2 minutes)
regress:: all
	@MUTANTS_ALL=1 bash tests/run.sh t_rtl_verify_mutants
# make prove-all: the formal table of docs/formal.md (wrappers proven, mutants refuted, lane and zero-C
# properties; every row's solver time up to PROVE_TIMEOUT, default 1800 s)
regress:: all
	@$(MAKE) -s prove-all
# make fuzz with 10,000,000 executions of each libFuzzer harness (FUZZ_RUNS; make test's t_model_fuzz runs
# each for seconds): at the rates of tests/fuzz/README.md, from 8 minutes (fuzz_dot) to about 7 hours
# (fuzz_batch, whose executions are table lookups) a harness; -j2 runs two at a time
regress:: all
	@$(MAKE) -s fuzz FUZZ_RUNS=$${FUZZ_RUNS:-10000000}
