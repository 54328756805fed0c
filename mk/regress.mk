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
# The suites too long for make test (their header says `# tier: regress`): the formal checks
# (t_rtl_prove), the Slurm regression (t_rtl_regress_slurm), power at each unit's own activity
# (t_synth_power) and make verify's mutation check (t_rtl_verify_mutants), here on two more instructions:
# Hopper's f16 FDA and Blackwell's FP8 K = 32 (tcgen05, f16 D, RNE), two more builds (about 2 minutes).
# Then the sanitized suites on every model and CLI suite (make test's t_model_sanitize runs five).
regress:: all
	@TEST_TIER=regress MUTANTS_ALL=1 bash tests/run.sh
	@SANITIZE_ALL=1 bash tests/run.sh t_model_sanitize
# make prove-all: the formal table of docs/formal.md (wrappers proven, mutants refuted, lane and zero-C
# properties; every row's solver time up to PROVE_TIMEOUT, default 1800 s)
regress:: all
	@$(MAKE) -s prove-all
# make fuzz with 10,000,000 executions of each libFuzzer harness (FUZZ_RUNS; make test's t_model_fuzz runs
# each for seconds): at the rates of tests/fuzz/README.md, from 8 minutes (fuzz_dot) to about 7 hours
# (fuzz_batch, whose executions are table lookups) a harness; -j2 runs two at a time
regress:: all
	@$(MAKE) -s fuzz FUZZ_RUNS=$${FUZZ_RUNS:-10000000}

# Sharded regressions (docs/regressions.md): a plan of shards (kind, configuration, seed, first vector,
# count), each shard's result written atomically into a results folder, and one merged report.
#   make regress-plan   write REGRESS_PLAN: VECTORS_PER_CONFIG vectors of every configuration of the
#                       REGRESS_KINDS (oracle: tests/oracle's distinct configurations; rtl: configs.txt's;
#                       synth: one shard a unit of units.txt; prove: one shard a row of make prove-all's
#                       table, PROVE_TIMEOUT seconds of the solver each), in shards of SHARD_VECTORS (N, or rules
#                       REGEX=N,...,N by configuration); REGRESS_ONLY (a regex on ARCH:NAME), REGRESS_SEED
#   make regress-run    run the shards without a result that counts (resume; a refused result runs again),
#                       then merge: SCHED=local (JOBS at a time) or SCHED=slurm (one job array, the merge a
#                       dependent job; SLURM_MAX, SBATCH_ARGS, SLURM_WAIT, SHARD_TIME, SHARD_MEM: tools/regress/run.sh)
#   make regress-merge  fold REGRESS_RESULTS into REGRESS_REPORT (report.md, summary.json, junit.xml,
#                       throughput.png) again
REGRESS_PLAN       ?= build/regress/plan.txt
REGRESS_RESULTS    ?= build/regress/results
REGRESS_REPORT     ?= build/regress/report
REGRESS_KINDS      ?= oracle,rtl
REGRESS_SEED       ?= 1
REGRESS_ONLY       ?=
VECTORS_PER_CONFIG ?= 1000000
SHARD_VECTORS      ?= 100000
SCHED              ?= local
.PHONY: regress-plan regress-run regress-merge
# The values reach the tools as single-quoted shell words (shell_word, Makefile) and are read with
# $(value ...) where make itself needs them, never exported (make would expand a command-line
# $(shell ...) as it exports it: mk/verify.mk says more)
unexport REGRESS_PLAN REGRESS_RESULTS REGRESS_REPORT REGRESS_KINDS REGRESS_SEED REGRESS_ONLY VECTORS_PER_CONFIG \
  SHARD_VECTORS SCHED
regress-plan: all $(if $(or $(findstring rtl,$(value REGRESS_KINDS)),$(findstring synth,$(value REGRESS_KINDS)),$(findstring prove,$(value REGRESS_KINDS))),$(BUILD)/rtl/gen/configs.txt)
	@python3 tools/regress/plan.py --out $(call shell_word,REGRESS_PLAN) --kinds $(call shell_word,REGRESS_KINDS) \
	  --seed $(call shell_word,REGRESS_SEED) --vectors $(call shell_word,VECTORS_PER_CONFIG) \
	  --shard $(call shell_word,SHARD_VECTORS) --only $(call shell_word,REGRESS_ONLY)
regress-run: all $(if $(findstring rtl,$(value REGRESS_KINDS)),rtl) $(if $(findstring prove,$(value REGRESS_KINDS)),$(BUILD)/rtl/libmmaref_dpi.a)
	@SCHED=$(call shell_word,SCHED) JOBS=$(call shell_word,JOBS) bash tools/regress/run.sh $(call shell_word,REGRESS_PLAN) \
	  $(call shell_word,REGRESS_RESULTS) $(call shell_word,REGRESS_REPORT)
regress-merge:
	@python3 tools/regress/merge.py --plan $(call shell_word,REGRESS_PLAN) --results $(call shell_word,REGRESS_RESULTS) \
	  --out $(call shell_word,REGRESS_REPORT)
