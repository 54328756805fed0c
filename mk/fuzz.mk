# Fuzzing and sanitizer builds (tests/fuzz/README.md).
#   make fuzz          builds the libFuzzer harnesses tests/fuzz/fuzz_*.c and runs each for FUZZ_SECONDS
#                      (300), or for FUZZ_RUNS executions when that is set (no time limit; `make regress`
#                      runs 10,000,000 each), on a copy of its corpus (build/fuzz/corpus/<harness>, new
#                      inputs kept there);
#                      a crash fails the target and names its reproducer (build/fuzz/artifacts/<harness>/).
#                      FUZZ_HARNESSES picks some; `make -j2 fuzz` runs two at a time.
#   make fuzz-build    only builds them: clang -fsanitize=fuzzer,address,undefined, the library and the
#                      CLI's sources compiled with the same sanitizers into build/fuzz/
#   make asan          the library and CLI built with ASan + UBSan into build/asan/ (clang: gcc 12's
#                      UBSan ignores log_path when combined with ASan; tests/t_model_sanitize.sh runs the
#                      model suites against it and needs every report in a file)
FUZZ_CC        ?= clang
FUZZ_SECONDS   ?= 300
FUZZ_RUNS      ?=
FUZZ_DIR       := $(BUILD)/fuzz
FUZZ_SANITIZE  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS    := -std=gnu11 -O1 -g -Wall -Wextra $(FUZZ_SANITIZE) -Icmodel/include -Icmodel/tools
FUZZ_HARNESSES ?= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
# the library and every tool source but main(): the harnesses call the subcommands and readers directly
FUZZ_OBJ := $(patsubst cmodel/src/%.c,$(FUZZ_DIR)/obj/%.o,$(LIB_SRC)) \
            $(patsubst cmodel/tools/%.c,$(FUZZ_DIR)/obj/tools/%.o,$(filter-out cmodel/tools/cli_main.c,$(CLI_SRC)))

ASAN_DIR     := $(BUILD)/asan
ASAN_CFLAGS  := -O1 -g $(FUZZ_SANITIZE)

.PHONY: fuzz fuzz-build asan $(addprefix fuzz-run-,$(FUZZ_HARNESSES))
# built through pattern rules, kept (not removed as intermediate files)
.SECONDARY: $(FUZZ_OBJ) $(addprefix $(FUZZ_DIR)/,$(FUZZ_HARNESSES))

# coverage instrumentation (fuzzer-no-link) on the code under test, the fuzzer's main only in the harness
$(FUZZ_DIR)/obj/%.o: cmodel/src/%.c cmodel/include/mmaref.h $(wildcard cmodel/src/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/obj/tools/%.o: cmodel/tools/%.c cmodel/include/mmaref.h $(wildcard cmodel/tools/*.h cmodel/src/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) -lm

fuzz-build: $(addprefix $(FUZZ_DIR)/,$(FUZZ_HARNESSES))

# every harness runs (each fuzz-run-<harness> records its exit status), then a finding fails the target
fuzz: $(addprefix fuzz-run-,$(FUZZ_HARNESSES))
	@! grep -Lx 0 $(addprefix $(FUZZ_DIR)/status/,$(FUZZ_HARNESSES)) | grep -q . || \
	  { echo "make fuzz: findings above; reproducers under $(FUZZ_DIR)/artifacts/"; exit 1; }

# a static pattern rule: make looks up no implicit rule for a phony target
$(addprefix fuzz-run-,$(FUZZ_HARNESSES)): fuzz-run-%: $(FUZZ_DIR)/%
	@mkdir -p $(FUZZ_DIR)/status
	@bash tests/fuzz/run.sh --build $(FUZZ_DIR) $(if $(FUZZ_RUNS),--runs $(FUZZ_RUNS),--seconds $(FUZZ_SECONDS)) $*; \
	  echo $$? >$(FUZZ_DIR)/status/$*

# the same Makefile rules into another build directory, the sanitizers added to the user's CFLAGS
asan:
# (the generated kernels at -O0: clang takes minutes over them with the sanitizers at -O1; the generic ones
# alone, FAST_SIMD=0: the avx2 and avx512 objects are the same C source for other instruction sets, and
# compiling them sanitized cost 90 s of CPU in every make test; and without UBSan's pointer checks there
# -- alignment, null, pointer overflow: 59 s of CPU against 32 s --, the kernels' memory being ASan's to
# check, their shifts, overflows and bounds UBSan's)
	@$(MAKE) --no-print-directory BUILD=$(ASAN_DIR) CC=$(FUZZ_CC) CFLAGS="$(ASAN_CFLAGS)" FAST_OPT_LEVEL=-O0 FAST_SIMD=0 \
	  FAST_KERNEL_CFLAGS=-fno-sanitize=alignment,null,pointer-overflow \
	  $(ASAN_DIR)/mmaref $(ASAN_DIR)/libmmaref.a
