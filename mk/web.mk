# The browser page (docs/web.md): the C library, the CLI's operand parser and its lane folding compiled
# to WebAssembly by clang against Debian's wasi-libc (a reactor module, no main), with a static page in web/.
#   make web-build   build/web/: index.html, app.js, style.css, presets.json, mmaref.wasm
#   make web         the same, then serves it on http://127.0.0.1:$(WEB_PORT)/ (any static host will do)
WEB_DIR   := $(BUILD)/web
WEB_PORT  ?= 8000
WEB_CC    ?= clang
WEB_FILES := $(addprefix $(WEB_DIR)/,index.html app.js style.css presets.json)
# the library but its GEMM driver (pthreads; the page computes one dot-add at a time)
WEB_SRC   := web/glue.c cmodel/tools/cli.c cmodel/tools/cli_real.c cmodel/tools/cli_complex.c cmodel/tools/explain_fold.c $(filter-out cmodel/src/gemm.c,$(LIB_SRC))

.PHONY: web web-build
web-build: $(SETUP_STAMP) $(WEB_DIR)/mmaref.wasm $(WEB_FILES)

$(WEB_DIR)/mmaref.wasm: $(WEB_SRC) cmodel/include/mmaref.h $(wildcard cmodel/src/*.h cmodel/tools/*.h)
	@mkdir -p $(WEB_DIR)
	$(WEB_CC) --target=wasm32-wasi --sysroot=/usr -mexec-model=reactor -O2 -std=gnu11 -Wall -Wextra \
	  -Icmodel/include -Icmodel/tools -o $@.tmp $(WEB_SRC) && mv $@.tmp $@

$(WEB_DIR)/%: web/%
	@mkdir -p $(WEB_DIR)
	cp $< $@

web: web-build
	@echo "mmaref page: http://127.0.0.1:$(WEB_PORT)/  (Ctrl-C stops the server)"
	@python3 -m http.server --bind 127.0.0.1 --directory $(WEB_DIR) $(WEB_PORT)
