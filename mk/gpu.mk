# Hardware cross-check against Hopper tensor cores (tools/gpu, docs/hardware-validation.md).
# Built only on request; `make test` never needs nvcc or a GPU.
#   make gpu-dryrun  the dry run: same inputs and writer, D from the C model, checked by mmaref batch
#   make gpu-build   compiles build/gpu/mmagpu with nvcc for sm_90a (needs nvcc, not a GPU)
#   make gpu-check   gpu-build, then runs every instruction on the GPU and prints the verdict table
#                    (GPU_COUNT lines per instruction, default 1048576; results in GPU_OUT)
NVCC      ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
NVCCFLAGS ?= -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a
GPU_DIR   := tools/gpu
GPU_BUILD := $(BUILD)/gpu
GPU_COUNT ?= 1048576
GPU_OUT   ?= $(GPU_BUILD)/out
GPU_HDR   := $(wildcard $(GPU_DIR)/*.h)
GPU_COBJ  := $(GPU_BUILD)/gen.o $(GPU_BUILD)/hw.o $(GPU_BUILD)/driver.o

.PHONY: gpu-dryrun gpu-dryrun-build gpu-build gpu-check

$(GPU_BUILD)/%.o: $(GPU_DIR)/%.c $(GPU_HDR) cmodel/include/mmaref.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Icmodel/include -c $< -o $@

$(GPU_BUILD)/dryrun: $(GPU_BUILD)/dryrun.o $(GPU_COBJ) $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ -lm

gpu-dryrun-build: $(GPU_BUILD)/dryrun

# crafted files for the rules the table extrapolates (session.sh --crafted DIR), no GPU needed
$(GPU_BUILD)/craft: $(GPU_BUILD)/craft.o $(GPU_BUILD)/hw.o $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ -lm

# Dry run of the whole harness: every instruction, GPU_DRY_COUNT lines, each file through batch --check.
GPU_DRY_COUNT ?= 4096
gpu-dryrun: $(GPU_BUILD)/dryrun $(CLI)
	@bash $(GPU_DIR)/run.sh --dry-run --count $(GPU_DRY_COUNT) --out $(GPU_BUILD)/dry

$(GPU_BUILD)/mmagpu: $(GPU_DIR)/mmagpu.cu $(GPU_COBJ) $(GPU_HDR) $(LIB)
	@test -n "$(NVCC)" || { echo "gpu-build: nvcc not found (install the CUDA toolkit >= 12.0 or set NVCC=)"; exit 1; }
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -I$(GPU_DIR) -o $@ $(GPU_DIR)/mmagpu.cu $(GPU_COBJ) $(LIB)

gpu-build: $(GPU_BUILD)/mmagpu

gpu-check: gpu-build $(CLI)
	@nvidia-smi -L >/dev/null 2>&1 || { echo "gpu-check: no NVIDIA GPU here (nvidia-smi finds none); 'make gpu-dryrun' runs the harness against the C model"; exit 1; }
	@bash $(GPU_DIR)/run.sh --count $(GPU_COUNT) --out $(GPU_OUT)
