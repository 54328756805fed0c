# make install / make uninstall (mk/install.mk) into a scratch prefix: the installed tree holds every
# piece, a tiny C program builds against it with `pkg-config --cflags --libs mmaref` and computes the
# paper's F-threshold dot-add (Hopper HMMA.16816.F32, F = 25: -1 + 1*1 + 2^-12 * 2^-13 = 2^-25 =
# 0x33000000, t_model_paper_mmasim.sh), the installed Python package imports and finds the installed
# library, and make uninstall leaves no file behind.  Only mmaref_* is exported from libmmaref.so.
# The version: `mmaref --version`, mmaref_version() of the installed library, the header's MMAREF_VERSION
# and pkg-config --modversion agree.  DESTDIR stages the tree: every file under DESTDIR/PREFIX, none
# under PREFIX itself, the paths written into the files PREFIX's; make uninstall with DESTDIR empties it.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$T/prefix

# the shared library's dynamic symbols: the API and nothing else
if [[ ! -e build/libmmaref.so ]]; then not_ok "install: build/libmmaref.so missing (run make)"; exit 0; fi
others=$(nm -D --defined-only build/libmmaref.so | awk '{print $3}' | grep -v '^mmaref_')
napi=$(nm -D --defined-only build/libmmaref.so | awk '{print $3}' | grep -c '^mmaref_')
if [[ -z $others && $napi -gt 30 ]]; then ok "libmmaref.so exports only mmaref_* ($napi symbols)"
else not_ok "libmmaref.so exports non-API symbols: $(echo $others | head -c 300) ($napi mmaref_*)"; fi

if ! out=$(make -s install PREFIX="$P" 2>&1); then not_ok "make install failed: $out"; exit 0; fi
missing=""
for f in include/mmaref.h lib/libmmaref.a lib/libmmaref.so lib/pkgconfig/mmaref.pc bin/mmaref \
         share/mmaref/dpi/mmaref_dpi_pkg.sv share/mmaref/dpi/mmaref_dpi.c share/mmaref/dpi/mmaref_dpi.h \
         share/mmaref/dpi/mma_scoreboard_pkg.sv \
         lib/python3/dist-packages/mmaref/__init__.py lib/python3/dist-packages/mmaref/libmmaref.so; do
  [[ -e $P/$f ]] || missing+=" $f"
done
[[ -z $missing ]] && ok "make install puts every piece under PREFIX" || not_ok "make install: missing$missing"
[[ $("$P/bin/mmaref" dot hopper mma.m16n8k16.f32.f16.f16.f32 -a 1,0x1p-12 -b 1,0x1p-13 -c -1 | awk '{print $1}') == 0x33000000 ]] \
  && ok "the installed CLI runs" || not_ok "the installed CLI gives a wrong dot-add"

cat >"$T/tiny.c" <<'C'
#include <stdio.h>
#include <mmaref.h>
int main(void)
{
    mmaref_instr in;
    char msg[256];
    uint64_t a[16] = {0x3c00, 0x0c00}, b[16] = {0x3c00, 0x0800}, d; /* f16 1, 2^-12; 1, 2^-13 */
    if (mmaref_lookup("sm_90", "HMMA.16816.F32", &in, msg, sizeof msg) ||
        mmaref_dot(&in, 0xbf800000 /* f32 -1 */, a, b, NULL, NULL, &d, msg, sizeof msg)) {
        fprintf(stderr, "tiny: %s\n", msg);
        return 1;
    }
    printf("0x%08llx\n", (unsigned long long)d);
    return 0;
}
C
export PKG_CONFIG_PATH=$P/lib/pkgconfig
if flags=$(pkg-config --cflags --libs mmaref) && err=$(gcc -std=gnu11 -Wall -Wextra "$T/tiny.c" -o "$T/tiny" $flags 2>&1); then
  got=$(LD_LIBRARY_PATH=$P/lib "$T/tiny" 2>&1)
  deps=$(LD_LIBRARY_PATH=$P/lib ldd "$T/tiny" | grep -c "$P/lib/libmmaref.so")
  [[ $got == 0x33000000 && $deps -eq 1 ]] && ok "a program built with pkg-config ($flags) runs on the installed libmmaref.so: $got" \
    || not_ok "pkg-config program: got '$got' (expected 0x33000000), linked to the installed .so: $deps"
else
  not_ok "pkg-config program does not build: ${flags:-no pkg-config flags} $err"
fi
# the version, four ways: the CLI, the installed library, the header, pkg-config
cat >"$T/version.c" <<'C'
#include <stdio.h>
#include <mmaref.h>
int main(void) { printf("%s %s\n", mmaref_version(), MMAREF_VERSION); return 0; }
C
if gcc -std=gnu11 "$T/version.c" -o "$T/version" $(pkg-config --cflags --libs mmaref) 2>"$T/version.log"; then
  v=$(pkg-config --modversion mmaref); lib=$(LD_LIBRARY_PATH=$P/lib "$T/version"); cli=$("$P/bin/mmaref" --version)
  [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ && $lib == "$v $v" && $cli == "mmaref $v" ]] \
    && ok "version $v: mmaref --version, mmaref_version(), MMAREF_VERSION and pkg-config agree" \
    || not_ok "version: pkg-config '$v', library and header '$lib', CLI '$cli'"
else not_ok "version program does not build: $(head -3 "$T/version.log")"; fi

# static: the archive alone (pkg-config --static adds Libs.private: -lm)
if err=$(gcc -std=gnu11 "$T/tiny.c" -o "$T/tiny_static" $(pkg-config --cflags mmaref) "$P/lib/libmmaref.a" \
           $(pkg-config --static --libs-only-l mmaref | sed 's/-lmmaref//') 2>&1) && [[ $("$T/tiny_static") == 0x33000000 ]]; then
  ok "a program linked with the installed libmmaref.a runs"
else
  not_ok "static link against the installed libmmaref.a: $err"
fi

# the installed Python package, from outside the source tree, loads the installed library
pyout=$(cd "$T" && PYTHONPATH=$P/lib/python3/dist-packages "$PYTHON" -c '
import mmaref, mmaref._lib as L, numpy as np
print(L.lib._name, hex(mmaref.dot("hopper", "mma.m16n8k16.f32.f16.f16.f32", [1, 2.0**-12] + [0] * 14,
                                   [1, 2.0**-13] + [0] * 14, -1.0, raw=True)))' 2>&1)
[[ $pyout == "$P/lib/python3/dist-packages/mmaref/libmmaref.so 0x33000000" && \
   $(readlink -f "$P/lib/python3/dist-packages/mmaref/libmmaref.so") == "$(readlink -f "$P/lib/libmmaref.so")" ]] \
  && ok "the installed Python package imports and uses the installed libmmaref.so" \
  || not_ok "installed Python package: $pyout"

if ! out=$(make -s uninstall PREFIX="$P" 2>&1); then not_ok "make uninstall failed: $out"; fi
left=$(cd "$P" 2>/dev/null && find . -mindepth 1 \( -type f -o -type l -o -name '*mmaref*' \) | head)
[[ -z $left ]] && ok "make uninstall leaves no file behind" || not_ok "make uninstall left: $(echo $left)"

# DESTDIR: a staged install for a package (PREFIX a path that does not exist here)
S=$T/stage Q=/nonexistent-mmaref-prefix
if out=$(make -s install DESTDIR="$S" PREFIX="$Q" 2>&1); then
  n=$(find "$S$Q" -type f | wc -l)
  link=$(readlink "$S$Q/lib/python3/dist-packages/mmaref/libmmaref.so")
  if [[ ! -e $Q && -x $S$Q/bin/mmaref && -e $S$Q/share/mmaref/dpi/mma_scoreboard_pkg.sv &&
        $(head -1 "$S$Q/lib/pkgconfig/mmaref.pc") == "prefix=$Q" && $link == "$Q/lib/libmmaref.so" ]]; then
    ok "make install DESTDIR: $n files under DESTDIR/PREFIX, none in PREFIX, mmaref.pc and the Python link name PREFIX"
  else not_ok "make install DESTDIR: PREFIX exists: $([[ -e $Q ]] && echo yes || echo no), pc '$(head -1 "$S$Q/lib/pkgconfig/mmaref.pc" 2>&1)', link '$link'"; fi
  make -s uninstall DESTDIR="$S" PREFIX="$Q" >/dev/null 2>&1
  left=$(find "$S$Q" -mindepth 1 \( -type f -o -type l -o -name '*mmaref*' \) | head)
  [[ -z $left ]] && ok "make uninstall DESTDIR leaves no file in the staged tree" || not_ok "make uninstall DESTDIR left: $(echo $left)"
else not_ok "make install DESTDIR failed: $out"; fi

# The README's install block (its "Installing" section's first block), run as printed with HOME a
# scratch directory and no LD_LIBRARY_PATH: it installs, builds examples/c/dot.c with pkg-config, and the
# program finds libmmaref.so by the rpath the block gives: 1 + 1*1 = 2 = f32 0x40000000; the installed CLI
# names the header's version; uninstall leaves no file.
block=$(awk '/^### Installing/ {f = 1; next} f && /^```sh/ {b = 1; next} b && /^```/ {exit} b' README.md)
H=$T/home
mkdir -p "$H"
ver=$(sed -n 's/^#define MMAREF_VERSION "\(.*\)"/\1/p' cmodel/include/mmaref.h)
rm -f build/dot
out=$(env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH HOME="$H" bash -euc "$block" 2>&1); rc=$?
runpath=$(readelf -d build/dot 2>/dev/null | grep -E 'RUNPATH|RPATH')
left=$(cd "$H" && find . -mindepth 1 \( -type f -o -type l \) | head)
if [[ $rc == 0 && $block == *"make install PREFIX=\$HOME/.local"* && $(grep -cx '0x40000000' <<<"$out") == 1 &&
      $(grep -cx "mmaref $ver" <<<"$out") == 1 && $runpath == *"[$H/.local/lib]"* && -z $left ]]; then
  ok "the README's install block runs as printed: build/dot gives 0x40000000 through its rpath, mmaref $ver, uninstalled"
else
  not_ok "the README's install block: rc=$rc, output '$(tail -3 <<<"$out" | tr '\n' ' ')', runpath '$runpath', left '$(echo $left)'"
fi
rm -f build/dot
