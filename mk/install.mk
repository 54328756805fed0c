# make install PREFIX=DIR [DESTDIR=STAGE]: the installable library (tests/t_install.sh installs into a
# scratch tree).  DESTDIR stages the tree for a package: files go under STAGE/DIR, while every path
# written into them (mmaref.pc's prefix, the Python package's link to the library) is DIR's.
#   DIR/include/mmaref.h                    the public header
#   DIR/lib/libmmaref.a, libmmaref.so       static and shared library (only mmaref_* exported)
#   DIR/lib/pkgconfig/mmaref.pc             `pkg-config --cflags --libs mmaref`; its Version the model's
#                                           (MMAREF_VERSION in mmaref.h, as `mmaref --version` prints it)
#   DIR/bin/mmaref                          the CLI
#   DIR/share/mmaref/dpi/                   the DPI package (.sv), its C bridge and header, and the
#                                           scoreboard class (mma_scoreboard_pkg.sv), to compile into a
#                                           testbench (docs/verify-your-design.md)
#   $(PYTHONDIR)/mmaref/                    the Python package, with a link to DIR/lib/libmmaref.so
# make uninstall PREFIX=DIR [DESTDIR=STAGE] removes exactly these (and the directories they leave empty).
PREFIX    ?= /usr/local
DESTDIR   ?=
# Where the Python package goes: the site directory of $(PYTHON) under PREFIX (Debian: dist-packages).
PYTHONDIR ?= $(PREFIX)/lib/python3/dist-packages
MMAREF_VERSION := $(shell sed -n 's/^\#define MMAREF_VERSION "\(.*\)"/\1/p' cmodel/include/mmaref.h)

PY_SRC    := $(wildcard python/mmaref/*.py)
DPI_FILES := dpi/mmaref_dpi_pkg.sv dpi/mmaref_dpi.c dpi/mmaref_dpi.h examples/scoreboard/mma_scoreboard_pkg.sv

# Every installed path, relative to its root; uninstall removes this list, so the two cannot disagree.
INST_FILES := $(DESTDIR)$(PREFIX)/include/mmaref.h $(DESTDIR)$(PREFIX)/lib/libmmaref.a $(DESTDIR)$(PREFIX)/lib/libmmaref.so \
              $(DESTDIR)$(PREFIX)/lib/pkgconfig/mmaref.pc $(DESTDIR)$(PREFIX)/bin/mmaref \
              $(addprefix $(DESTDIR)$(PREFIX)/share/mmaref/dpi/,$(notdir $(DPI_FILES))) \
              $(patsubst python/%,$(DESTDIR)$(PYTHONDIR)/%,$(PY_SRC)) $(DESTDIR)$(PYTHONDIR)/mmaref/libmmaref.so
INST_DIRS  := $(DESTDIR)$(PYTHONDIR)/mmaref/__pycache__ $(DESTDIR)$(PYTHONDIR)/mmaref $(DESTDIR)$(PREFIX)/share/mmaref/dpi \
              $(DESTDIR)$(PREFIX)/share/mmaref

.PHONY: install uninstall
# mmaref.pc's prefix is the installed root, absolute, so that it works from any directory
install: $(CLI) $(LIB) $(SHLIB)
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/mmaref/dpi \
	  $(DESTDIR)$(PYTHONDIR)/mmaref
	install -m 644 cmodel/include/mmaref.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHLIB) $(DESTDIR)$(PREFIX)/lib/
	printf '%s\n' 'prefix=$(abspath $(PREFIX))' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: mmaref' 'Description: bit-accurate golden model of GPU matrix units' 'Version: $(MMAREF_VERSION)' \
	  'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lmmaref' 'Libs.private: -lm' >$(DESTDIR)$(PREFIX)/lib/pkgconfig/mmaref.pc
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(DPI_FILES) $(DESTDIR)$(PREFIX)/share/mmaref/dpi/
	install -m 644 $(PY_SRC) $(DESTDIR)$(PYTHONDIR)/mmaref/
	ln -sf $(abspath $(PREFIX))/lib/libmmaref.so $(DESTDIR)$(PYTHONDIR)/mmaref/libmmaref.so

uninstall:
	rm -f $(INST_FILES)
	rm -rf $(DESTDIR)$(PYTHONDIR)/mmaref/__pycache__
	-rmdir $(INST_DIRS) 2>/dev/null; \
	for d in $(PREFIX)/include $(PREFIX)/lib/pkgconfig $(PREFIX)/lib/python3/dist-packages $(PREFIX)/lib/python3 \
	         $(PREFIX)/lib $(PREFIX)/bin $(PREFIX)/share; do rmdir $(DESTDIR)$$d 2>/dev/null; done; true
