# mmaref: golden model of GPU matrix units.  `make demo` and `make test` set everything up.
CC      ?= gcc
# CFLAGS is the user's (optimization, debugging: `make CFLAGS=-O0`); the project's own flags live in
# MMAREF_CFLAGS, which a command-line CFLAGS cannot drop.
CFLAGS  ?= -O2 -g
MMAREF_CFLAGS := -std=gnu11 -Wall -Wextra -Werror=implicit-function-declaration -fPIC
override CFLAGS += $(MMAREF_CFLAGS)
BUILD   := build
SETUP_STAMP := $(BUILD)/.setup-done
# Verilated models' C++ goes through ccache where it is installed (scripts/setup.sh installs it; Verilator's
# makefiles prefix their compiles with OBJCACHE): the runtime files every model compiles alike
# (verilated.cpp, verilated_fst_c.cpp ...) and a model built again in another folder are compiled once.
# The cache is the build's own (build/ccache), shared by every folder of it.
export OBJCACHE ?= $(shell command -v ccache 2>/dev/null)
export CCACHE_DIR ?= $(abspath $(BUILD)/ccache)
export CCACHE_NOHASHDIR ?= 1

LIB_SRC := $(wildcard cmodel/src/*.c)
# fast_none.c: the empty kernel table of builds without the generated kernels (cmodel/src/fast.h)
LIB_OBJ := $(patsubst cmodel/src/%.c,$(BUILD)/obj/%.o,$(filter-out cmodel/src/fast_none.c,$(LIB_SRC)))
CLI_SRC := $(wildcard cmodel/tools/*.c)
CLI_OBJ := $(patsubst cmodel/tools/%.c,$(BUILD)/obj/tools/%.o,$(CLI_SRC))
# `make synth LIB=nangate45|sky130hd|cells45|PATH.lib[.gz]` names the cell library (mk/rtl.mk); LIB is also
# the model library's path here, so a LIB given on the command line becomes SYNTH_LIBRARY
ifeq ($(origin LIB),command line)
SYNTH_LIBRARY := $(LIB)
override LIB := $(BUILD)/libmmaref.a
else
LIB     := $(BUILD)/libmmaref.a
endif
SHLIB   := $(BUILD)/libmmaref.so
CLI     := $(BUILD)/mmaref

.PHONY: all setup test demo bench clean
all: $(CLI) $(LIB) $(SHLIB)

# Installs only what is missing (Debian packages); idempotent.
setup:
	@bash scripts/setup.sh

$(SETUP_STAMP): scripts/setup.sh
	@bash scripts/setup.sh
	@mkdir -p $(BUILD) && touch $@

# The library's internals are hidden: compiled with hidden visibility (the API is marked MMAREF_API in
# mmaref.h), linked into one relocatable object whose hidden symbols become local, so `nm` of the
# archive shows only mmaref_* (as SoftFloat keeps its internals behind one header).
$(BUILD)/obj/%.o: cmodel/src/%.c cmodel/include/mmaref.h $(wildcard cmodel/src/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fvisibility=hidden -Icmodel/include -c $< -o $@

$(BUILD)/obj/tools/%.o: cmodel/tools/%.c cmodel/include/mmaref.h $(wildcard cmodel/tools/*.h cmodel/src/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Icmodel/include -c $< -o $@

# The batched fast path's kernels (cmodel/src/fast.h): generated from the instruction tables by a
# program linked with the library's other objects, then compiled into the library.
FAST_GEN := $(BUILD)/gen/fast_kernels_gen
FAST_SRC := $(BUILD)/gen/fast_kernels.c
# FAST_SIMD=0: the generic kernels alone (the avx2 and avx512 paths then run the reference model)
FAST_SIMD ?= 1
FAST_OBJ := $(BUILD)/obj/fast_kernels_generic.o $(if $(filter 1,$(FAST_SIMD)),$(BUILD)/obj/fast_kernels_avx2.o \
            $(BUILD)/obj/fast_kernels_avx512.o)
$(FAST_GEN): cmodel/gen/fast_kernels_gen.c $(LIB_OBJ) $(BUILD)/obj/fast_none.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Icmodel/include -Icmodel/src -o $@ $^ -lm

$(FAST_SRC): $(FAST_GEN)
	$(FAST_GEN) >$@.tmp && mv $@.tmp $@

# one object per path (fast_kernel.h); -Wno-psabi: vectors of 64 bytes pass between the inlined helpers only;
# -ffp-contract=off: GPS rounds each binary32 product and sum apart (gnu11's default fuses a * b + c)
FAST_PATH_NUMBER = $(if $(findstring avx512,$*),3,$(if $(findstring avx2,$*),2,1))
# the generic path at -O1 (its SSE2 lowering of 64-byte vectors is the slowest to compile), no debug
# information (the kernels are generated; the scalar model is the one to step through)
FAST_OPT = $(or $(FAST_OPT_LEVEL),$(if $(findstring generic,$*),-O1,-O2)) -g0 \
           $(if $(filter x86_64,$(shell uname -m)),$(FAST_ISA_$*))
FAST_ISA_avx2   := -mavx2 -mfma
FAST_ISA_avx512 := -mavx512f -mavx512cd -mavx512dq -mavx512bw -mavx512vl -mfma
# make -s fast-isa: each SIMD path and its kernels' compiler flags, one "PATH FLAGS..." line a path (what
# tests/t_model_batch.sh checks this CPU against)
FAST_ISA_PATHS := avx2 avx512
.PHONY: fast-isa
fast-isa:
	@$(foreach p,$(FAST_ISA_PATHS),echo '$(p) $(FAST_ISA_$(p))';)
# FAST_KERNEL_CFLAGS: flags for the kernels alone, after the others (make asan drops checks there)
$(BUILD)/obj/fast_kernels_%.o: $(FAST_SRC) cmodel/include/mmaref.h $(wildcard cmodel/src/*.h)
	$(CC) $(CFLAGS) $(FAST_OPT) $(FAST_KERNEL_CFLAGS) -Wno-psabi -ffp-contract=off -fvisibility=hidden -DFAST_BUILD_PATH=$(FAST_PATH_NUMBER) \
	  -DFAST_SIMD=$(FAST_SIMD) -Icmodel/include -Icmodel/src -c $< -o $@

$(LIB): $(LIB_OBJ) $(FAST_OBJ)
	@rm -f $@
	ld -r -o $(BUILD)/obj/libmmaref.o $^
	objcopy --localize-hidden --wildcard --keep-global-symbol='mmaref_*' $(BUILD)/obj/libmmaref.o
	ar rcs $@ $(BUILD)/obj/libmmaref.o

# The shared library (the Python binding loads it): the same hidden-visibility objects, so the dynamic
# symbol table holds only what mmaref.h exports (tests/t_install.sh checks `nm -D`).
$(SHLIB): $(LIB_OBJ) $(FAST_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libmmaref.so -o $@ $^ -lm

$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIB) -lm -pthread

# the library and CLI first, on every core (JOBS), then the suites (tests/run.sh).  JOBS's default is a
# number, expanded here once: make prove and make regress-run pass JOBS on as the text written
# (shell_word), where a $(shell ...) would be refused as no number
ifeq ($(origin JOBS),undefined)
JOBS := $(shell nproc 2>/dev/null || echo 2)
endif
test: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@bash tests/run.sh

# the demo's build says what it does; the compiler's lines go to build/build.log
demo: $(SETUP_STAMP)
	@echo "building the model library and the mmaref CLI (log: $(BUILD)/build.log)"
	@$(MAKE) --no-print-directory -j$(JOBS) all >$(BUILD)/build.log 2>&1 || { tail -30 $(BUILD)/build.log; exit 1; }
	@bash scripts/demo.sh

bench: all
	@$(MAKE) -s -C bench BUILD=../$(BUILD)

clean:
	rm -rf $(BUILD)

# $(call shell_word,VAR): VAR's text as one single-quoted shell word, a quote inside written '\'' --
# neither expanded by make ($(value): a '$(...)' in it stays text) nor parsed by the shell.  The recipes
# that hand a user's variables to a script (make verify, make prove) pass them so.
shell_word = '$(subst ','\'',$(value $1))'

# Later parts of the project (RTL, synthesis, GPU harness, bench) add their targets here.
-include $(sort $(wildcard mk/*.mk))
