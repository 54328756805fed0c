# AMD Matrix Cores (docs/algorithms.md "AMD").
#   make amd-oracle           AMD_ORACLE_N (100000) seeded vectors per distinct AMD configuration against
#                             the independent exact reference tests/oracle/ref_amd.py
#   make study-rounding-bias  the paper's Fig. 2 statistics, CSV and PNG in build/study/
AMD_ORACLE_N    ?= 100000
AMD_ORACLE_SEED ?= 1
AMD_ORACLE_JOBS ?= 2

.PHONY: amd-oracle study-rounding-bias

amd-oracle: all
	@python3 tests/oracle/gen_amd.py --mmaref $(CLI) --n $(AMD_ORACLE_N) --seed $(AMD_ORACLE_SEED) \
	  --jobs $(AMD_ORACLE_JOBS)

study-rounding-bias: all
	@$(CLI) study rounding-bias --out $(BUILD)/study
