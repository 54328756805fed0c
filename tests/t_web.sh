# The browser page (docs/web.md, make web): the C model compiled to WebAssembly, served on localhost and
# driven by Debian's Chromium headless.
#   - every preset of web/presets.json computes in the page the bits `mmaref dot` gives for the same
#     operands, and those bits are the hand-derived ones the preset carries (the demo's derivations);
#   - an operand its format cannot hold shows the library's message;
#   - the "every architecture" table of the first preset: Volta, Turing, Ampere, Ada (F <= 24) give 1.0,
#     Hopper and Blackwell (F = 25) 1 + 2^-23 (demo case 1); of the FP8 preset (32 products): every
#     architecture's K = 32 instruction (RTX Blackwell's mma.m16n8k32, not the K = 16 one that cannot
#     hold 32 values), Ada and Hopper (F = 13) 1.0, Blackwell and RTX Blackwell (F = 25) 1 + 2^-9;
#   - every preset shows its one-sentence lesson (presets.json "teaches") and its key step, whose line
#     under D lies within the window at 1280x800 (no scrolling);
#   - the trace folds lanes that contribute nothing (FP8, one non-zero lane of 32: 15 rows, one a step
#     for lanes 1..31), and "all lanes" shows all 135;
#   - a screenshot of a preset is written to build/web/screenshot.png.
# runtime: 23 s (a clean clone on 2 cores, beside other suites)
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d)
server=
trap '[[ -n $server ]] && kill $server 2>/dev/null; rm -rf "$tmp"' EXIT

if ! out=$(make -s web-build 2>&1); then not_ok "web: make web-build: $(tail -3 <<<"$out")"; exit 0; fi
ok "web: make web-build (mmaref.wasm $(stat -c %s build/web/mmaref.wasm) bytes)"
if ! command -v chromium >/dev/null; then not_ok "web: chromium is needed (make setup)"; exit 0; fi

# a static server on a free port
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory build/web "$port" >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break; sleep 0.1; done
browse() { timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --virtual-time-budget=15000 "$@" 2>/dev/null; }

# The self-test page, loaded again (up to 3 times) when it wrote nothing: once in a clean-clone CI run on
# 2 busy cores, headless Chromium dumped the page before its WebAssembly had run; a page that is broken
# writes nothing on every try and fails below.
for attempt in 1 2 3; do
  browse --window-size=1280,800 --dump-dom "http://127.0.0.1:$port/index.html?selftest" >"$tmp/dom.html"
  sed -n '/<pre id="selftest">/,/<\/pre>/p' "$tmp/dom.html" | sed 's/<[^>]*>//g; s/&amp;/\&/g; s/&lt;/</g; s/&gt;/>/g' >"$tmp/self.txt"
  [[ -s $tmp/self.txt ]] && break
  echo "# web: the self-test page wrote nothing on try $attempt"
done
if [[ ! -s $tmp/self.txt ]]; then
  not_ok "web: the page's self-test wrote nothing ($(grep -o '<div id="error"[^<]*' "$tmp/dom.html"))"; exit 0
fi
# each preset: the page's D, the CLI's D for the same operands, and the derived D
python3 - web/presets.json "$tmp/self.txt" >"$tmp/presets.txt" <<'PY'
import json, sys
presets = json.load(open(sys.argv[1]))
lines = [l.split("|") for l in open(sys.argv[2]).read().splitlines() if l.startswith("preset|")]
for p, l in zip(presets, lines):
    print(p["arch"], p["instr"], p["a"], p["b"], p["c"], l[3], p["d"])
print("count", len(presets), len(lines))
PY
n=0 bad=0
while read -r arch instr a b c page want; do
  [[ $arch == count ]] && { [[ $instr == "$a" ]] || bad=1; continue; }
  cli=$("$MMAREF" dot "$arch" "$instr" -a "$a" -b "$b" -c "$c" | awk '{print $1}')
  n=$((n + 1))
  if [[ $page == "$cli" && $cli == "$want" ]]; then :; else bad=1; not_ok "web: preset $arch $instr: page $page, CLI $cli, derived $want"; fi
done <"$tmp/presets.txt"
[[ $bad == 0 && $n -ge 8 ]] && ok "web: all $n presets give the CLI's bits in headless Chromium, each the derived value" ||
  not_ok "web: presets ($n checked)"

inv=$(grep '^invalid|' "$tmp/self.txt")
[[ $inv == *"a[0] = '0.1' is not exactly representable in f16"* ]] &&
  ok "web: an operand f16 cannot hold shows the library's message" || not_ok "web: invalid operand: '$inv'"

# "across|N|arch:instruction=D,..." for preset N; arch=D alone for the first check
across=$(grep '^across|0|' "$tmp/self.txt" | sed 's/:[^=,]*=/=/g')
if [[ $across == *volta=0x3f800000* && $across == *turing=0x3f800000* && $across == *ampere=0x3f800000* &&
      $across == *,hopper=0x3f800001* && $across == *,blackwell=0x3f800001* ]]; then
  ok "web: the same operands on every architecture (F <= 24: 1.0; Hopper, Blackwell F = 25: 1 + 2^-23)"
else not_ok "web: across architectures: '$across'"; fi
fp8=$(python3 -c 'import json; print([i for i, p in enumerate(json.load(open("web/presets.json"))) if "e4m3" in p["instr"]][0])')
across=$(grep "^across|$fp8|" "$tmp/self.txt")
if [[ $across == *"rtx-blackwell:mma.m16n8k32.f32.e4m3.e4m3.f32=0x3f804000"* && $across == *"ada:mma.m16n8k32."*"=0x3f800000"* &&
      $across == *",blackwell:"*"k32"*"=0x3f804000"* && $across == *"hopper:wgmma.m64n8k32.f32.e4m3.e4m3=0x3f800000"* &&
      $across != *k16* ]]; then
  ok "web: FP8 preset (32 products): each architecture's K = 32 instruction (RTX Blackwell mma.m16n8k32), F = 13: 1.0, F = 25: 1 + 2^-9"
else not_ok "web: FP8 across architectures: '$across'"; fi

# lessons and key steps: one sentence each, as presets.json has it; the key step's line within the window
bad=$(python3 - web/presets.json "$tmp/self.txt" <<'PY'
import json, sys
presets = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
lesson = {int(l.split("|")[1]): l.split("|", 2)[2] for l in lines if l.startswith("lesson|")}
key = {int(l.split("|")[1]): l.split("|")[2:] for l in lines if l.startswith("key|")}
for i, p in enumerate(presets):
    t = p.get("teaches", "")
    if not t or lesson.get(i) != t or not t.endswith(".") or ". " in t[:-1]:
        print(f"preset {i}: lesson {lesson.get(i)!r} (presets.json: {t!r}; one sentence wanted)")
    found, bottom, size = key.get(i, ["none", "-1", "0x0"])
    height = int(size.split("x")[1])
    if found != f'{p["key"]["step"]} {p["key"]["what"]}' or not 0 < int(bottom) <= height:
        print(f"preset {i}: key step {found!r} at y = {bottom}, window {size}")
PY
)
[[ -z $bad ]] && ok "web: every preset shows its one-sentence lesson and its key step within 1280x800 without scrolling" ||
  not_ok "web: lessons / key steps: $bad"

fold=$(grep '^fold|' "$tmp/self.txt")
IFS='|' read -r _ nfold nall texts <<<"$fold"
if [[ $nfold == 15 && $nall == 135 && $texts == *"p[1..31] = 0 (31 lanes)"* && $texts == *"p[1..31] kept 0 (31 lanes)"* ]]; then
  ok "web: the trace folds lanes 1..31 of the FP8 dot-add (15 rows), all lanes shows 135"
else not_ok "web: lane folding: '$fold'"; fi

rm -f build/web/screenshot.png
browse --window-size=1280,1800 --screenshot=build/web/screenshot.png "http://127.0.0.1:$port/index.html?preset=5" >/dev/null
if [[ $(head -c 8 build/web/screenshot.png 2>/dev/null | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a &&
      $(stat -c %s build/web/screenshot.png) -gt 20000 ]]; then
  ok "web: screenshot of the CDNA3 preset: build/web/screenshot.png ($(stat -c %s build/web/screenshot.png) bytes)"
else not_ok "web: no screenshot written"; fi
