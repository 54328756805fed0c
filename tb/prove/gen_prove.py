#!/usr/bin/env python3
"""Writes prove_top.sv for make prove (tb/prove/prove.sh, docs/formal.md): a miter of one transaction.

Both units -- the unit under proof (the port contract of docs/verify-your-design.md) and the reference
(the project's unit serving the instruction, build/rtl/gen/instrs.txt and units.txt, or any module given
as REF) -- are reset in cycle 0 and offered the same vector from cycle 1 until each takes it; each side's
first result is kept, and in cycle BOUND both must have one and the two D must be equal.  The vector is
free (a register loaded in the reset cycle from an input the solver chooses): every lane holds any value of
its format (a narrower format's high bits 0, as the bench drives them), C any value of its format, every
scale slot the instruction has any byte.  Formats and the output kind are the instruction's codes, or,
with FORMATS=all (or a list of A and B formats), the codes of any of the format combinations of the
project's unit serving the instruction (format_combinations): a free field `sel` of the vector picks one,
every lane and C masked to its formats' widths; the combinations are written to formats.txt (sel,
instruction, widths) for prove.sh.

The port widths and codes come from the model's own table (`mmaref list ARCH --json`, `--schema --json`),
as make verify's do (tb/verify/gen_verify.py).  Prints one line: the instruction, the widths, the
reference and the lane layout that prove.sh decodes a counterexample with.

usage: gen_prove.py MMAREF ARCH:INSTR DUT_TOP DUT_PARAMS DUT_AW REF_TOP REF_PARAMS REF_AW PROPERTY BOUND FORMATS ASSUME OUTDIR
  REF_TOP '-': the project's unit for the instruction (REF_PARAMS ignored); FORMATS: instr, all or a list of
  A and B formats (e4m3,e5m2); ASSUME: '' or one case (make prove CASES=, tb/prove/cases.sh), an SV
  expression over the vector's fields (c_raw, a0 .. a{K-1}, b0 .., sa0 .., sb0 .., sel), assumed of the
  vector: the proof then covers the vectors it holds for
A bad argument: one line on stderr, exit status 2."""
import os
import re
import sys

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "rtl", "gen")


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify"))
import gen_verify  # noqa: E402  (make verify's lookup of the instruction and the port contract's widths)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import design  # noqa: E402  (the design database's reader)
from gen_verify import fail  # noqa: E402

gen_verify.PREFIX = "prove: "


def param_list(text, what):
    """NAME=INTEGER,... (tb/flow_values.py) as Verilog named parameter assignments."""
    try:
        return [f".{name}({value})" for name, value in gen_verify.flow_values.params(text)]
    except gen_verify.flow_values.Bad as e:
        fail(f"{what}: {e}")


def design_db():
    """The design database (build/rtl/gen/design.json): units and served instructions by field name."""
    try:
        return design.load(os.path.join(GEN, "design.json"))
    except design.DesignError as e:
        fail(str(e))


def serving_unit(db, arch, name):
    """The index of the project's unit serving ARCH:NAME, or None."""
    hits = [i["unit"] for i in db["instructions"] if (i["arch"], i["name"]) == (arch, name)]
    return hits[0] if hits else None


def reference(arch, name):
    """The project's unit serving ARCH:NAME: (unit index, top module, parameter text)."""
    db = design_db()
    unit = serving_unit(db, arch, name)
    if unit is None:
        fail(f"INSTR={arch}:{name}: no unit of rtl/ serves it (build/rtl/gen/design.json); give REF=module")
    u = db["units"][unit]
    return unit, u["top"], u["params_text"]


def combination_key(i):
    """What a format combination is: A, B, C, D, the output kind, the scale format and block."""
    return (i["a"], i["b"], i["c"], i["d"], i["schedule"][-1]["out"], i["scale"], i["block_size"])


def unit_instructions(mmaref, ins, con, schema):
    """The instructions that the project's unit serving INS serves with INS's K and scale slots, INS
    first: [(instruction, contract)]; [(INS, its contract)] when no unit of rtl/ serves INS (None then in
    place of the list, for the caller's message)."""
    import json
    db = design_db()
    unit = serving_unit(db, ins["arch"], ins["name"])
    if unit is None:
        return None
    served = {(i["arch"], i["name"]) for i in db["instructions"] if i["unit"] == unit}
    same = [(ins, con)]
    for i in json.loads(gen_verify.run([mmaref, "list", "--json"])):
        if (i["arch"], i["name"]) in served and (i["arch"], i["name"]) != (ins["arch"], ins["name"]):
            c = gen_verify.contract_of(i, schema)
            if (c["k"], c["ns"]) == (con["k"], con["ns"]):
                same.append((i, c))
    return same


def format_combinations(served, ins):
    """FORMATS=all: every combination of formats among SERVED (unit_instructions), one instruction of
    each, INS's own combination first: [(instruction, contract)]."""
    if served is None:
        fail(f"FORMATS=all: no unit of rtl/ serves {ins['arch']}:{ins['name']} (build/rtl/gen/instrs.txt), "
             "so its format combinations are unknown")
    combos = {}
    for i, c in served:
        combos.setdefault(combination_key(i), (i, c))
    return list(combos.values())


def select_formats(combos, fmts, outs, wa, wb, wc):
    """SV: the formats, output kind, scale format and lane masks of combination `sel` (FORMATS=all; a
    `sel` past the last picks the first): their declarations (before the vector's fields, which the masks
    clear above their formats' widths) and the selection (after the field sel)."""
    code = lambda i, r: fmts[i[r]]["code"] if i[r] else 0  # noqa: E731
    ones = lambda w: f"{w}'h{(1 << w) - 1:x}"  # noqa: E731
    arms = []
    for n, (i, _) in enumerate(combos):
        arms.append(f"      {'default' if n == 0 else n}: begin FMT_A = {code(i, 'a')}; FMT_B = {code(i, 'b')}; "
                    f"FMT_C = {code(i, 'c')}; FMT_S = {code(i, 'scale')}; OUT_KIND = {outs[i['schedule'][-1]['out']]}; "
                    f"BLOCK32 = 1'b{int(i['block_size'] == 32)}; MASK_A = {ones(fmts[i['a']]['width'])}; "
                    f"MASK_B = {ones(fmts[i['b']]['width'])}; MASK_C = {ones(fmts[i['c']]['width'])}; end\n")
    arms = arms[1:] + arms[:1]
    decl = f"""  // FORMATS=all: the vector's field sel picks one of the {len(combos)} format combinations of the unit
  logic [mma_pkg::FMT_BITS-1:0] FMT_A, FMT_B, FMT_C, FMT_S;
  logic [mma_pkg::OUT_BITS-1:0] OUT_KIND;
  logic BLOCK32;
  logic [{wa - 1}:0] MASK_A;
  logic [{wb - 1}:0] MASK_B;
  logic [{wc - 1}:0] MASK_C;
"""
    return decl, f"  always @*\n    case (sel)\n{''.join(arms)}    endcase\n"


# A side's ports by module, P the side's signal prefix (dut_, ref_): the contract's (fda_unit's); the
# project's other units serve fewer run-time selects (tb/mma_bench.sv connects them the same way).
def unit_ports(top, params, p):
    if top == "gdfs_unit":
        k = int(dict(x.split("=", 1) for x in params.split(",") if "=" in x)["K"])
        return (f".fmt_s(FMT_S), .block32(BLOCK32), .c({p}c[31:0]), .a({p}a), .b({p}b), "
                f".sa({{{(k // 16) * 8}'({p}sa)}}), .sb({{{(k // 16) * 8}'({p}sb)}}), ")
    if top in ("fdrda_unit", "gps_unit"):
        return f".fmt_a({p}fmt_a), .fmt_b({p}fmt_b), .c({p}c[31:0]), .a({p}a), .b({p}b), "
    if top == "sfma_unit":
        return f".out_kind(OUT_KIND), .c({p}c), .a({p}a), .b({p}b), "
    return (f".fmt_a({p}fmt_a), .fmt_b({p}fmt_b), .fmt_c(FMT_C), .out_kind(OUT_KIND), .c({p}c), .a({p}a), "
            f".b({p}b), .sa({p}sa), .sb({p}sb), ")


# PROPERTY: the unit against itself, one side's inputs moved or negated (and its D seen through the
# inverse), a property the algorithm guarantees (docs/formal.md):
#   swap:I,J    lanes I and J of A and B exchanged         rotate:N  lane l takes lane (l - N) mod K's
#   swap-ab     A and B exchanged (formats and scales)     c-zero    a zero C's sign flipped
#   negate      A and C negated, D negated back (a NaN D as it is; the sign of a zero D is not compared:
#               IEEE's exact cancellation gives +0 both ways, NVIDIA's fused dot-add +0 for every zero)
#   negate-keep-c  A and D negated, C kept: false wherever C counts (the check that a property can fail)
def parse_property(text, k, ins, fmts):
    prop = dict(name=text, perm=list(range(k)), swap_ab=False, neg_a=False, neg_c=False, neg_d=False, czero=False)
    m = re.fullmatch(r"swap:(\d+),(\d+)|rotate:(\d+)|swap-ab|c-zero|negate|negate-keep-c", text)
    if not m:
        fail(f"PROPERTY={text}: swap:I,J, rotate:N, swap-ab, c-zero, negate or negate-keep-c")
    if m.group(1) is not None:
        i, j = int(m.group(1)), int(m.group(2))
        if i == j or i >= k or j >= k:
            fail(f"PROPERTY={text}: two different lanes below K = {k}")
        prop["perm"][i], prop["perm"][j] = j, i
    elif m.group(3) is not None:
        n = int(m.group(3))
        if not 0 < n < k:
            fail(f"PROPERTY={text}: a rotation from 1 to K - 1 = {k - 1}")
        prop["perm"] = [(l - n) % k for l in range(k)]
    elif text == "swap-ab":
        prop["swap_ab"] = True
    elif text == "c-zero":
        prop["czero"] = True
    else:
        prop.update(neg_a=True, neg_c=text == "negate", neg_d=True)
    for role in ("a", "c", "d") if text.startswith("negate") or text == "c-zero" else ():
        f = fmts[ins[role]]
        if f["parts"] != 1 or f["specials"] == "fnuz" or not f["signed"]:
            fail(f"PROPERTY={text}: {role.upper()} is {f['name']}, whose negation is not a sign flip")
    return prop


def negate_d_expr(sig, f, dw):
    """SV expression of D (signal SIG of DW bits, D's format F in its low bits) negated, a NaN or a zero D
    as it is.  (Sized literals, not casts to a parameter's width: Yosys 0.23 reads x & ~DW'(c) as x.)"""
    w, m = f["width"], f["man_bits"]
    nan = f"(&{sig}[{w - 2}:{m}] && |{sig}[{m - 1}:0])" if f["specials"] == "ieee" else "1'b0"
    return f"({nan} || {sig}[{w - 2}:0] == {w - 1}'d0) ? {sig} : {sig} ^ {dw}'h{1 << (w - 1):x}"


def transform_line(prop, ins, fmts, k, ns, v):
    """A `mmaref batch` line's fields (ints) as the property's side sees them."""
    wa, wb, wc = (fmts[ins[r]]["width"] for r in ("a", "b", "c"))
    c, a, b, sa, sb = v[0], v[1:1 + k], v[1 + k:1 + 2 * k], v[1 + 2 * k:1 + 2 * k + ns], v[1 + 2 * k + ns:]
    a, b = [a[prop["perm"][l]] for l in range(k)], [b[prop["perm"][l]] for l in range(k)]
    if prop["swap_ab"]:
        a, b, sa, sb = b, a, sb, sa
    if prop["neg_a"]:
        a = [x ^ (1 << (wa - 1)) for x in a]
    if prop["neg_c"] or (prop["czero"] and c & ((1 << (wc - 1)) - 1) == 0):
        c ^= 1 << (wc - 1)
    return [c] + a + b + sa + sb


# The lane width of the project's units: AW = the widest format of their mask (rtl/mma_pkg.sv max_width),
# of A and B's (AB_MASK) or, for sfma_unit, of D's (OUT_MASK); gdfs_unit's lanes are e2m1's 4 bits.
PROJECT_UNITS = ("fda_unit", "gdfs_unit", "fdrda_unit", "gps_unit", "sfma_unit")


def combinations_of(mmaref, ins, con, schema, formats):
    """FORMATS (instr, all, or the A and B formats of the combinations to take: e4m3,e5m2): the
    combinations the proof takes [(instruction, contract)], and how many instructions it covers."""
    fmts = {f["name"]: f for f in schema["formats"]}
    # FORMATS: instr, all, or the A and B formats of the combinations to take (e4m3,e5m2)
    wanted = None if formats in ("instr", "all") else formats.split(",")
    for f in wanted or []:
        if f not in fmts:
            fail(f"FORMATS={formats}: instr (the instruction's formats), all (every format combination of its "
                 f"unit) or a list of A and B formats (e4m3,e5m2); '{f}' is not a format")
    if wanted and not (ins["a"] in wanted and ins["b"] in wanted):
        fail(f"FORMATS={formats}: the instruction's own A and B formats ({ins['a']}, {ins['b']}) must be listed")
    served = unit_instructions(mmaref, ins, con, schema)
    combos = format_combinations(served, ins) if formats != "instr" else [(ins, con)]
    combos = [c for c in combos if not wanted or (c[0]["a"] in wanted and c[0]["b"] in wanted)]
    # the instructions the proof covers: those of the unit (same K and scale slots) whose combination
    # is one of the proof's -- the others differ from them in M and N only, which a unit does not see
    keys = {combination_key(i) for i, _ in combos}
    return combos, (sum(combination_key(i) in keys for i, _ in served) if served else 1)


def vector_fields(combos, fmts, k, ns):
    """The vector's fields, low to high, in the order of a `mmaref batch` line: [(name, width)]; with
    several combinations, sel last."""
    wa, wb, wc = (max(fmts[i[r]]["width"] for i, _ in combos) for r in ("a", "b", "c"))
    fields = [("c_raw", wc)] + [(f"a{i}", wa) for i in range(k)] + [(f"b{i}", wb) for i in range(k)] + \
             [(f"sa{j}", 8) for j in range(ns)] + [(f"sb{j}", 8) for j in range(ns)]
    return fields + ([("sel", (len(combos) - 1).bit_length())] if len(combos) > 1 else [])


def check_case(expr, names, what=None):
    """A case (ASSUME, or WHAT: a line of CASES): an SV expression whose names are the vector's fields (a
    number's base letters and system functions such as $signed aside); anything else, or a statement's
    `;`, is one line, exit 2."""
    what = what or f"ASSUME={expr}"
    if re.search(r"[;`\n]|\b(assign|always|module|begin|end)\b", expr):
        fail(f"{what}: one SV expression over the vector's fields ({', '.join(names)})")
    bare = re.sub(r"\d*'[sS]?[bodhBODH]\s*[0-9a-fA-FxXzZ_?]+|\$[a-z_]+", " ", expr)
    for name in re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", bare):
        if name not in names:
            fail(f"{what}: '{name}' is not a field of the vector ({', '.join(names)})")


def unit_lane_width(top, params, schema):
    p = dict(item.split("=", 1) for item in params.split(",") if "=" in item)
    if "AW" in p:
        return int(p["AW"])
    fmt_width = {f["code"]: f["width"] for f in schema["formats"]}
    if top == "gdfs_unit":
        return 4
    if top == "sfma_unit" and "OUT_MASK" in p:
        out_fmt = {o["code"]: o["format"] for o in schema["outputs"]}
        width = {f["name"]: f["width"] for f in schema["formats"]}
        return max(width[out_fmt[o]] for o in out_fmt if int(p["OUT_MASK"]) >> o & 1)
    if top in ("fda_unit", "fdrda_unit", "gps_unit") and "AB_MASK" in p:
        return max(w for code, w in fmt_width.items() if int(p["AB_MASK"]) >> code & 1)
    return None


def replay_property(mmaref, instr, text, cex):
    """A property's counterexample in the model: D of the vector and of the vector as the property's side
    sees it (through the inverse of D's transformation).  Exit 0 when the model breaks the property too
    (the property does not hold for the instruction), 1 when the model keeps it (the unit is wrong)."""
    import subprocess
    ins, schema, con = gen_verify.contract(mmaref, instr)
    fmts = {f["name"]: f for f in schema["formats"]}
    k, ns = con["k"], con["ns"]
    prop = parse_property(text, k, ins, fmts)
    line = [x for x in open(cex).read().splitlines() if x and not x.startswith("#")][0]
    v = [int(x, 16) for x in line.split()]
    moved = transform_line(prop, ins, fmts, k, ns, v)
    digits = [(fmts[ins["c"]]["width"] + 3) // 4] + [(fmts[ins["a"]]["width"] + 3) // 4] * k
    digits += [(fmts[ins["b"]]["width"] + 3) // 4] * k + [2] * (2 * ns)
    if prop["swap_ab"]:
        digits = [digits[0]] + digits[1 + k:1 + 2 * k] + digits[1:1 + k] + digits[1 + 2 * k:]
    moved_line = " ".join(f"0x{x:0{d}x}" for x, d in zip(moved, digits))
    arch, _, name = instr.partition(":")
    d = subprocess.run([mmaref, "batch", arch, name], input=f"{line}\n{moved_line}\n", text=True,
                       capture_output=True).stdout.split()
    if len(d) != 2:
        fail(f"mmaref batch could not compute the counterexample's D ({cex})")
    d0, d1 = int(d[0], 16), int(d[1], 16)
    seen = d1
    fd = fmts[ins["d"]]
    w, mb = fd["width"], fd["man_bits"]
    if prop["neg_d"]:
        nan = fd["specials"] == "ieee" and (d1 >> mb) & ((1 << (w - 1 - mb)) - 1) == (1 << (w - 1 - mb)) - 1 \
            and d1 & ((1 << mb) - 1)
        if not nan and d1 & ((1 << (w - 1)) - 1):
            seen = d1 ^ (1 << (w - 1))
    with open(cex + ".property", "w") as f:
        f.write(f"# the counterexample as the property's side sees it ({text})\n{moved_line}\n")
    if prop["neg_d"] and not seen & ((1 << (w - 1)) - 1) and not d0 & ((1 << (w - 1)) - 1):
        seen = d0  # zeros of either sign compare equal (the sign of a zero D is not compared)
    verdict = "breaks the property too" if seen != d0 else "keeps the property: the unit is wrong"
    print(f"model D 0x{d0:x}, as {text} sees it 0x{d1:x}" + (f" (D back: 0x{seen:x})" if seen != d1 else "")
          + f": the model {verdict}")
    return 0 if seen != d0 else 1


def write_cover(mmaref, instr, formats, cases_path, out):
    """make prove CASES= (tb/prove/cases.sh): the cases of CASES_PATH (one SV expression a line over the
    vector's fields, `#` to the line's end a comment), each checked, written one a line to OUT/cases.txt,
    and OUT/cover_top.sv, whose assertion holds when every vector meets one of them (the cover)."""
    ins, schema, con = gen_verify.contract(mmaref, instr)
    fmts = {f["name"]: f for f in schema["formats"]}
    combos, _ = combinations_of(mmaref, ins, con, schema, formats)
    fields = vector_fields(combos, fmts, con["k"], con["ns"])
    try:
        lines = open(cases_path, encoding="utf-8").read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        fail(f"CASES={cases_path}: cannot read it ({e})")
    cases = [(n, re.sub(r"\s+", " ", line.split("#", 1)[0]).strip()) for n, line in enumerate(lines, 1)]
    cases = [(n, c) for n, c in cases if c]
    if not cases:
        fail(f"CASES={cases_path}: no case in it (one SV expression a line over {', '.join(f for f, _ in fields)})")
    for n, c in cases:
        try:
            gen_verify.flow_values.assume(c)
        except gen_verify.flow_values.Bad as e:
            fail(f"CASES={cases_path}:{n}: {c}: {e}")
        check_case(c, [f for f, _ in fields], f"CASES={cases_path}:{n}: {c}")
    cases = [c for _, c in cases]
    vw, lo, decl = sum(w for _, w in fields), 0, []
    for fname, w in fields:
        decl.append(f"  wire [{w - 1}:0] {fname} = vec[{lo} +: {w}];\n")
        lo += w
    anyc = "\n      || ".join(f"({c})" for c in cases)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cover_top.sv"), "w") as f:
        f.write(f"""// Generated by tb/prove/gen_prove.py --cover for make prove CASES={cases_path}: do not edit.
// {ins['arch']}:{ins['name']}: every vector meets one of the {len(cases)} cases
module cover_top (input logic [{vw - 1}:0] vec);
{''.join(decl)}  always @* assert ({anyc});
endmodule
""")
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("".join(c + "\n" for c in cases))
    print(len(cases))
    return 0


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--replay-property":
        sys.exit(replay_property(*sys.argv[2:]))
    if len(sys.argv) == 7 and sys.argv[1] == "--cover":
        sys.exit(write_cover(*sys.argv[2:]))
    if len(sys.argv) != 14:
        fail("usage: gen_prove.py MMAREF ARCH:INSTR DUT_TOP DUT_PARAMS DUT_AW REF_TOP REF_PARAMS REF_AW PROPERTY BOUND "
             "FORMATS ASSUME OUTDIR")
    mmaref, instr, top, params, dut_aw, ref_top, ref_params, ref_aw, prop_text, bound, formats, assume, out = \
        sys.argv[1:]
    values = gen_verify.flow_values
    for what, grammar, value in (("DUT_TOP", values.identifier, top), ("REF", values.identifier, ref_top),
                                 ("BOUND", values.FLOWS["prove"]["BOUND"], bound)):
        if value == "-" and what == "REF":
            continue
        try:
            grammar(value)
        except values.Bad as e:
            fail(f"{what}={value}: {e}")
    if formats != "instr" and prop_text:
        fail(f"FORMATS={formats} with PROPERTY: a property is proven on one instruction's formats (FORMATS=instr)")
    ins, schema, con = gen_verify.contract(mmaref, instr)
    fmts = {f["name"]: f for f in schema["formats"]}
    outs = {o["name"]: o["code"] for o in schema["outputs"]}
    combos, covered = combinations_of(mmaref, ins, con, schema, formats)
    k, ns = con["k"], con["ns"]
    aw, cw, dw = (max(c[f] for _, c in combos) for f in ("aw", "cw", "dw"))
    wa, wb, wc = (max(fmts[i[r]]["width"] for i, _ in combos) for r in ("a", "b", "c"))
    out_kind = outs[ins["schedule"][-1]["out"]]
    prop = parse_property(prop_text, k, ins, fmts) if prop_text else None
    if ref_top == "-" and prop:  # a property: the unit against itself
        ref_top, ref_params, ref_aw, ref_name = top, params, dut_aw, f"{top} itself"
    elif ref_top == "-":
        unit, ref_top, ref_params = reference(ins["arch"], ins["name"])
        ref_name = f"unit {unit} ({ref_top})"
    else:
        ref_name = ref_top
    dut_inst = top + (" #(" + ", ".join(param_list(params, "PARAMS")) + ")" if params else "")
    ref_inst = ref_top + (" #(" + ", ".join(param_list(ref_params, "REF_PARAMS")) + ")" if ref_params else "")
    scale_code = fmts[ins["scale"]]["code"] if ins["scale"] else 0
    # each side's lanes: the contract's AW bits, or wider (an operand in the low end of its lane, as the
    # benches place it) -- DUT_AW for the unit, the reference's own width for the project's units
    daw = gen_verify.lane_width(dut_aw, aw, "DUT_AW")
    raw = gen_verify.lane_width(ref_aw or str(unit_lane_width(ref_top, ref_params, schema) or ""), aw, "REF_AW")

    # the vector is one register loaded in cycle 0 (the reset cycle) from the free input vec_in: the
    # solver picks its value.  Its fields, low to high, in the order of a `mmaref batch` line.
    # FORMATS=all: sel last, its combination's masks on C and the lanes
    fields = vector_fields(combos, fmts, k, ns)
    mask = {"c": " & MASK_C", "a": " & MASK_A", "b": " & MASK_B"} if len(combos) > 1 else {}
    vw, lo, decl = sum(w for _, w in fields), 0, []
    for fname, w in fields:
        decl.append(f"  wire [{w - 1}:0] {fname} = vec[{lo} +: {w}]{mask.get(fname[0], '')};\n")
        lo += w
    if len(combos) > 1:
        sel_decl, sel_case = select_formats(combos, fmts, outs, wa, wb, wc)
        decl.append(sel_case)
        formats_decl = sel_decl
    else:
        formats_decl = f"""  localparam logic [mma_pkg::FMT_BITS-1:0] FMT_A = {fmts[ins['a']]['code']}, FMT_B = {fmts[ins['b']]['code']}, FMT_C = {fmts[ins['c']]['code']}, FMT_S = {scale_code};
  localparam logic [mma_pkg::OUT_BITS-1:0] OUT_KIND = {out_kind};
  localparam logic BLOCK32 = {int(ins['block_size'] == 32)};
"""
    # ASSUME: one case of a split (tb/prove/cases.sh); the vector holds it from cycle 1, once loaded
    case_decl = ""
    if assume:
        check_case(assume, [f for f, _ in fields])
        case_decl = f"\n  // ---- the case: the vectors this proof covers ----\n  always @* if (cycle != 8'd0) assume ({assume});\n"
    # the reference's side: the fields as they are; the unit's side: moved or negated by the property
    swap = prop and prop["swap_ab"]
    perm = prop["perm"] if prop else list(range(k))
    neg_a = f" ^ {wb if swap else wa}'h{1 << ((wb if swap else wa) - 1):x}" if prop and prop["neg_a"] else ""
    for side in ("a", "b"):
        src = {"a": "b", "b": "a"}[side] if swap else side
        decl += [f"  assign ref_{side}[{i * raw} +: {raw}] = {raw}'({side}{i});\n" for i in range(k)]
        decl += [f"  assign dut_{side}[{i * daw} +: {daw}] = {daw}'({src}{perm[i]}{neg_a if side == 'a' else ''});\n"
                 for i in range(k)]
        decl.append(f"  assign ref_s{side} = {{{', '.join(f's{side}{j}' for j in reversed(range(ns)))}}};\n" if ns
                    else f"  assign ref_s{side} = '0;\n")
        decl.append(f"  assign dut_s{side} = ref_s{src};\n  assign dut_fmt_{side} = FMT_{src.upper()};\n")
    c_sign = f"{wc}'h{1 << (wc - 1):x}"
    dut_c = (f"c_raw ^ {c_sign}" if prop and prop["neg_c"] else
             f"c_raw[{wc - 2}:0] == '0 ? c_raw ^ {c_sign} : c_raw" if prop and prop["czero"] else "c_raw")
    seen = negate_d_expr("dut_kept", fmts[ins["d"]], dw) if prop and prop["neg_d"] else "dut_kept"
    fd = fmts[ins["d"]]
    keep = f"{dw}'h{((1 << dw) - 1) ^ (1 << (fd['width'] - 1)):x}"  # every bit but D's sign
    # negate: a zero D of either sign compared as +0
    canon = (lambda x: f"({x}[{fd['width'] - 2}:0] == {fd['width'] - 1}'d0 ? {x} & {keep} : {x})") \
        if prop and prop["neg_d"] else (lambda x: x)
    dut_ports = unit_ports(top, params, "dut_") if top in PROJECT_UNITS else unit_ports("fda_unit", "", "dut_")
    text = f"""// Generated by tb/prove/gen_prove.py for make prove: do not edit.
// {ins['arch']}:{ins['name']} ({ins['sass']}): A {ins['a']}, B {ins['b']}, C {ins['c']}, D {ins['d']}, K = {k}, scales {ins['scale'] or 'none'}
// the unit under proof: {dut_inst}; the reference: {ref_name}{f"; property {prop_text}" if prop else ""}{f"; FORMATS=all: {len(combos)} format combinations (formats.txt)" if len(combos) > 1 else ""}
module prove_top (input logic clk, input logic [{vw - 1}:0] vec_in);
  localparam int K = {k}, DAW = {daw}, RAW = {raw}, NSW = {max(ns, 1)}, CW = {cw}, DW = {dw}, BOUND = {bound};
{formats_decl}
  logic [7:0] cycle = 8'd0;
  always @(posedge clk) if (cycle != 8'hff) cycle <= cycle + 8'd1;
  wire rst_n = cycle != 8'd0;

  // ---- the vector: free, one value for the whole trace ----
  wire [K*DAW-1:0] dut_a, dut_b;
  wire [K*RAW-1:0] ref_a, ref_b;
  wire [NSW*8-1:0] dut_sa, dut_sb, ref_sa, ref_sb;
  wire [mma_pkg::FMT_BITS-1:0] dut_fmt_a, dut_fmt_b, ref_fmt_a = FMT_A, ref_fmt_b = FMT_B;
  logic [{vw - 1}:0] vec;
  always @(posedge clk) if (cycle == 8'd0) vec <= vec_in;
{''.join(decl)}  wire [CW-1:0] ref_c = CW'(c_raw), dut_c = CW'({dut_c});
{case_decl}
  // ---- reset in cycle 0, the vector offered from cycle 1 until taken, every result taken ----
  logic dut_sent = 1'b0, dut_got = 1'b0, ref_sent = 1'b0, ref_got = 1'b0;
  logic dut_in_ready, dut_out_valid, ref_in_ready, ref_out_valid;
  logic [DW-1:0] dut_d, ref_d, dut_kept, ref_kept;
  `PROVE_DUT dut (.clk(clk), .rst_n(rst_n), .in_valid(rst_n && !dut_sent), .in_ready(dut_in_ready),
    {dut_ports}.out_valid(dut_out_valid), .out_ready(rst_n), .d(dut_d));
  {ref_inst} ref_unit (.clk(clk), .rst_n(rst_n), .in_valid(rst_n && !ref_sent), .in_ready(ref_in_ready),
    {unit_ports(ref_top, ref_params, "ref_") if ref_top in PROJECT_UNITS else unit_ports("fda_unit", "", "ref_")}.out_valid(ref_out_valid), .out_ready(rst_n), .d(ref_d));

  always @(posedge clk) begin
    if (rst_n && !dut_sent && dut_in_ready) dut_sent <= 1'b1;
    if (rst_n && !ref_sent && ref_in_ready) ref_sent <= 1'b1;
    if (rst_n && !dut_got && dut_out_valid) begin dut_got <= 1'b1; dut_kept <= dut_d; end
    if (rst_n && !ref_got && ref_out_valid) begin ref_got <= 1'b1; ref_kept <= ref_d; end
  end

  // ---- the check: by cycle BOUND both sides have answered, with the same D (the unit's side's seen
  // through the property's inverse) ----
  wire [DW-1:0] dut_seen = {seen};
  always @* if (cycle == BOUND) assert (dut_got && ref_got && {canon("dut_seen")} == {canon("ref_kept")});
endmodule
"""
    text = text.replace("`PROVE_DUT", dut_inst)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "prove_top.sv"), "w") as f:
        f.write(text)
    # the layout of the counterexample, for prove.sh: lane signals in the order of a `mmaref batch` line
    with open(os.path.join(out, "layout.txt"), "w") as f:
        f.write(" ".join(f"{fname}:{w}" for fname, w in fields) + "\n")
    # the combinations (FORMATS=all: sel's values; one line otherwise): sel, the instruction of each, the
    # widths of its C, A and B fields
    with open(os.path.join(out, "formats.txt"), "w") as f:
        for n, (i, _) in enumerate(combos):
            f.write(f"{n} {i['arch']}:{i['name']} " + " ".join(str(fmts[i[r]]["width"]) for r in ("c", "a", "b")) + "\n")
    print(f"{ins['arch']}:{ins['name']} K={k} AW={aw} NS={ns} CW={cw} DW={dw} "
          f"F={ins['schedule'][0]['frac_bits']} passes={len(ins['schedule'])} out={ins['schedule'][-1]['out']} "
          f"formats={len(combos)} instructions={covered} ref={ref_name}")


if __name__ == "__main__":
    main()
