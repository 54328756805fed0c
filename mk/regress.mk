# `make regress`: the oracle suite (tests/t_model_oracle.sh) with 1,000,000 vectors per distinct algorithm
# configuration instead of make test's 100,000 (about ten times as long).  ORACLE_SEED picks the seed.
.PHONY: regress
regress:: all
	@ORACLE_COUNT=$${ORACLE_COUNT:-1000000} bash tests/run.sh t_model_oracle
