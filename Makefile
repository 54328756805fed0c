# mmaref: golden model of GPU matrix units.  `make demo` and `make test` set everything up.
CC      ?= gcc
# CFLAGS is the user's (optimization, debugging: `make CFLAGS=-O0`); the project's own flags live in
# MMAREF_CFLAGS, which a command-line CFLAGS cannot drop.
CFLAGS  ?= -O2 -g
MMAREF_CFLAGS := -std=gnu11 -Wall -Wextra -Werror=implicit-function-declaration -fPIC
override CFLAGS += $(MMAREF_CFLAGS)
BUILD   := build
SETUP_STAMP := $(BUILD)/.setup-done

LIB_SRC := $(wildcard cmodel/src/*.c)
LIB_OBJ := $(patsubst cmodel/src/%.c,$(BUILD)/obj/%.o,$(LIB_SRC))
CLI_SRC := $(wildcard cmodel/tools/*.c)
CLI_OBJ := $(patsubst cmodel/tools/%.c,$(BUILD)/obj/tools/%.o,$(CLI_SRC))
LIB     := $(BUILD)/libmmaref.a
CLI     := $(BUILD)/mmaref

.PHONY: all setup test demo bench clean
all: $(CLI) $(LIB)

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

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ld -r -o $(BUILD)/obj/libmmaref.o $^
	objcopy --localize-hidden --wildcard --keep-global-symbol='mmaref_*' $(BUILD)/obj/libmmaref.o
	ar rcs $@ $(BUILD)/obj/libmmaref.o

$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(LIB) -lm -pthread

test: $(SETUP_STAMP) all
	@bash tests/run.sh

demo: $(SETUP_STAMP) all
	@bash scripts/demo.sh

bench: all
	@$(MAKE) -s -C bench BUILD=../$(BUILD)

clean:
	rm -rf $(BUILD)

# Later parts of the project (RTL, synthesis, GPU harness, bench) add their targets here.
-include $(sort $(wildcard mk/*.mk))
