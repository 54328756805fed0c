# Studies that need NumPy, under the interpreter tests/lib.sh names (PYTHON: the one place it is chosen).
#   make study-gemm   FP8 GEMM accuracy against K: Hopper QGMMA, Hopper promote:4, Blackwell
#                     (python/studies/gemm_fp8.py) -> build/study-gemm/: table, TSV, gnuplot PNG
PYTHON ?= $(shell bash -c '. tests/lib.sh; echo $$PYTHON')
STUDY_GEMM := $(BUILD)/study-gemm

.PHONY: study-gemm
study-gemm: $(SETUP_STAMP) all
	@PYTHONPATH=python $(PYTHON) python/studies/gemm_fp8.py $(STUDY_GEMM)
	@gnuplot -e "dir='$(STUDY_GEMM)'" python/studies/gemm_fp8.gp
	@echo "written: $(STUDY_GEMM)/study-gemm.md, $(STUDY_GEMM)/study-gemm.tsv, $(STUDY_GEMM)/study-gemm.png"
