# make install PREFIX=DIR: the installable library (tests/t_install.sh installs into a scratch tree).
#   DIR/include/mmaref.h                    the public header
#   DIR/lib/libmmaref.a, libmmaref.so       static and shared library (only mmaref_* exported)
#   DIR/lib/pkgconfig/mmaref.pc             `pkg-config --cflags --libs mmaref`
#   DIR/bin/mmaref                          the CLI
#   DIR/share/mmaref/dpi/                   the DPI package (.sv), its C bridge and header, to compile
#                                           into a testbench (docs/verify-your-design.md)
#   $(PYTHONDIR)/mmaref/                    the Python package, with a link to DIR/lib/libmmaref.so
# make uninstall PREFIX=DIR removes exactly these (and the directories they leave empty).
PREFIX    ?= /usr/local
# Where the Python package goes: the site directory of $(PYTHON) under PREFIX (Debian: dist-packages).
PYTHONDIR ?= $(PREFIX)/lib/python3/dist-packages
MMAREF_VERSION := 0.1.0

PY_SRC    := $(wildcard python/mmaref/*.py)
DPI_FILES := dpi/mmaref_dpi_pkg.sv dpi/mmaref_dpi.c dpi/mmaref_dpi.h

# Every installed path, relative to its root; uninstall removes this list, so the two cannot disagree.
INST_FILES := $(PREFIX)/include/mmaref.h $(PREFIX)/lib/libmmaref.a $(PREFIX)/lib/libmmaref.so \
              $(PREFIX)/lib/pkgconfig/mmaref.pc $(PREFIX)/bin/mmaref \
              $(addprefix $(PREFIX)/share/mmaref/,$(DPI_FILES)) \
              $(patsubst python/%,$(PYTHONDIR)/%,$(PY_SRC)) $(PYTHONDIR)/mmaref/libmmaref.so
INST_DIRS  := $(PYTHONDIR)/mmaref/__pycache__ $(PYTHONDIR)/mmaref $(PREFIX)/share/mmaref/dpi $(PREFIX)/share/mmaref

.PHONY: install uninstall
# mmaref.pc's prefix is the installed root, absolute, so that it works from any directory
install: $(CLI) $(LIB) $(SHLIB)
	install -d $(PREFIX)/include $(PREFIX)/lib/pkgconfig $(PREFIX)/bin $(PREFIX)/share/mmaref/dpi \
	  $(PYTHONDIR)/mmaref
	install -m 644 cmodel/include/mmaref.h $(PREFIX)/include/
	install -m 644 $(LIB) $(PREFIX)/lib/
	install -m 755 $(SHLIB) $(PREFIX)/lib/
	printf '%s\n' 'prefix=$(abspath $(PREFIX))' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
	  'Name: mmaref' 'Description: bit-accurate golden model of GPU matrix units' 'Version: $(MMAREF_VERSION)' \
	  'Cflags: -I$${includedir}' 'Libs: -L$${libdir} -lmmaref' 'Libs.private: -lm' >$(PREFIX)/lib/pkgconfig/mmaref.pc
	install -m 755 $(CLI) $(PREFIX)/bin/
	install -m 644 $(DPI_FILES) $(PREFIX)/share/mmaref/dpi/
	install -m 644 $(PY_SRC) $(PYTHONDIR)/mmaref/
	ln -sf $(abspath $(PREFIX))/lib/libmmaref.so $(PYTHONDIR)/mmaref/libmmaref.so

uninstall:
	rm -f $(INST_FILES)
	rm -rf $(PYTHONDIR)/mmaref/__pycache__
	-rmdir $(INST_DIRS) 2>/dev/null; \
	for d in $(PREFIX)/include $(PREFIX)/lib/pkgconfig $(PREFIX)/lib/python3/dist-packages $(PREFIX)/lib/python3 \
	         $(PREFIX)/lib $(PREFIX)/bin $(PREFIX)/share; do rmdir $$d 2>/dev/null; done; true
