#!/usr/bin/env python3
"""Derive the RTL co-simulation configurations from the instruction table (`mmaref list --json`).

The RTL implements passes of kind FDA (fda_unit; its CHAIN parameter chains passes) and GDFS (gdfs_unit)
that align by truncation (align_products and align_c "rz"), and SFMA (sfma_unit: K IEEE FMAs, "rne"),
without flushing (how each unit kind aligns: the schema's unit catalogue); and the AMD kinds below.  An instruction whose schedule has only such passes, all
alike but for the products they take, is served by a unit.

A unit is the hardware: one per (kind, number of passes, products per pass, F, scales, block size of
per-product scales, group); its parameters are K = passes x products per pass, F, CHAIN = passes and
BLOCK, and the operand formats and output kinds it serves at run time are the union over its
configurations (gdfs_unit takes its scale format and block size at run time).  A configuration is one
distinct (unit, a, b, c, d, output, scale format, block size) among the instructions (the first
instruction of the table stands for the others).  Three mutants (a unit with F one bit short; a CoFDA
unit built single-pass; an f64 SFMA unit that loses the sticky bit) are added for the mutation check.
SFMA's units and configurations are numbered after the M3XU designs.

Hopper's and Blackwell's mma.sync FP8 schedule (products in runs of k_run dealt to the passes, operands
converted to f16, C added last) is fda_unit's K_RUN, AB_F16 and C_LAST (part of the unit key, with the
zero terms' exponent); its units and configurations come after SFMA's, then three mutants on Hopper's
m16n8k32 unit: C in the first pass, passes over the halves of K, the FP8 operands' own exponents.  Format and output codes come from the
model's schema (`mmaref list --schema --json`), as rtl/mma_formats.svh's do, and so do the unit kinds:
their codes, top modules, the summation kinds they run and their parameters (the schema's "units").

The AMD units: fdrda_unit serves FDRDA and GFDRDA passes (CDNA3; CHAIN = 2 for CoFDRDA/CoGFDRDA), gps_unit
GPS passes (CDNA1/CDNA2); the table's Step 6 roundings (align_products, align_c), GPS's group and flush
are part of the unit key and become the unit's parameters (ALIGN_DOT, ALIGN_C, G, FLUSH; the schema's
codes), as does D's output kind (OUT).  Their mutants: the CDNA3 f16 K = 8 unit with C rounded toward
zero (the paper's `_rz`) and a CDNA2 GPS unit without flushing.

The M3XU design (architecture `m3xu`) is one unit serving several instructions, one per mode, chosen
at run time: m3xu_unit, and the comparison designs of the M3XU paper's Table III as its parameter sets
(M3XU_DESIGNS: which modes, multiplier width, pipelined), plus naive_fp32_unit.  Their lanes L, F_LO
and OUT_LO (the f16 mode's FDA pass), F_HI and OUT_HI (the f32 mode's M3XU pass) come from the table;
each design runs every m3xu instruction of its modes, the naive unit the f32 one with K = L (a schedule
built at run time through mmaref_dpi_with_k: the config's k column).  Two M3XU mutants (a_L b_L dropped
from the product register; FP32C's real part without its sign flip) must be caught.

Writes OUT/tb_units.svh (bench instances, configuration table and the instruction -> configuration lookup
of +instr for tb/tb_mma.sv), OUT/configs.txt
(index, unit, kind, arch, name, K, F, passes, formats, out, scale, block, instructions covered) and
OUT/units.txt (read by synth/lint.sh and synth/synth.sh), OUT/instrs.txt (every instruction a unit serves: its
configuration and unit; make prove's reference unit), and OUT/design.json: the same as records with named
fields and a schema version (the design database; tools/design.py queries it).

usage: gen_configs.py MMAREF_BINARY OUT_DIR
"""
import io
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "synth"))
from mma_schema import codes_of, read_schema  # noqa: E402  (the schema reader gen_formats.py shares)

# The RTL unit kinds come from the model's schema (its "units" catalogue, through synth/mma_schema.py):
# each kind's code (the bench's KIND parameter, mma_pkg::UNIT_KIND_*), top module, the summation kinds
# of the passes it runs and the parameters a configuration sets, so synth/lint.sh and synth/synth.sh
# learn a unit's top module and parameters (units.txt) from the schema.  load_catalogue() fills these:
UNIT_CODE = {}      # unit kind -> its code
UNIT_MODULES = {}   # unit kind -> (top module, its parameters in units.txt's order)
UNIT_OF_PASS = {}   # summation kind of a pass -> the first unit kind (in code order) that runs it
# How the unit of each summation kind aligns (align_products and align_c: FDA and GDFS truncate, SFMA's IEEE
# operations round to nearest even): its unit kind's "align", for the kinds whose units come one per
# configuration of the table -- not the AMD units (AMD_UNITS: their roundings are parameters) nor the M3XU
# designs (M3XU_DESIGNS, units of their own).
ALIGN = {}
# The unit kinds whose passes' Step 6 roundings, GPS's group and flushing are unit parameters (AMD):
# fdrda_unit serves FDRDA and GFDRDA passes (its ALGO parameter), gps_unit GPS passes.
AMD_UNITS = ("FDRDA", "GPS")
# The field of a unit (below) that gives each parameter of the catalogue.
PARAM_FIELD = {"K": "k", "L": "k", "F": "f", "F_HI": "f", "CHAIN": "chain", "BLOCK": "block", "AB_MASK": "ab",
               "C_MASK": "c", "OUT_MASK": "out", "ZERO_EXP": "zero_exp", "K_RUN": "k_run", "AB_F16": "ab_f16",
               "C_LAST": "c_last", "ALGO": "pass_algo", "ALIGN_DOT": "align_dot", "ALIGN_C": "align_c",
               "OUT": "out_kind", "G": "group", "FLUSH": "flush", "MUL_W": "mul_w", "F_LO": "f_lo",
               "OUT_LO": "out_lo", "OUT_HI": "out_hi", "PIPE": "pipe"}


def load_catalogue(schema):
    """UNIT_CODE, UNIT_MODULES and UNIT_OF_PASS from the schema's unit catalogue."""
    for u in schema["units"]:
        unknown = [p for p in u["params"] if p not in PARAM_FIELD]
        if unknown:
            sys.exit(f"gen_configs.py: unit kind {u['name']}: no unit field gives parameter {', '.join(unknown)}")
        UNIT_CODE[u["name"]] = u["code"]
        UNIT_MODULES[u["name"]] = (u["module"], tuple((p, PARAM_FIELD[p]) for p in u["params"]))
        for a in u["algos"]:
            UNIT_OF_PASS.setdefault(a, u["name"])
    missing = [k for k in ("FDA", "GDFS", "SFMA", "M3XU", "NAIVE_FP32") + AMD_UNITS if k not in UNIT_CODE]
    if missing:
        sys.exit(f"gen_configs.py: the schema's unit catalogue lacks {', '.join(missing)}")
    if any("align" not in u for u in schema["units"]):
        sys.exit("gen_configs.py: the schema's unit catalogue does not say how a unit aligns (\"align\"): "
                 "an older mmaref?")
    align = {u["name"]: u["align"] for u in schema["units"]}
    designs = {d[0] for d in M3XU_DESIGNS}
    ALIGN.update({a: align[k] for a, k in UNIT_OF_PASS.items()
                  if k not in AMD_UNITS and k not in designs and align[k] is not None})

# The M3XU unit and the comparison designs of the paper's Table III (synthesized for area):
# (kind, name, the modes it serves = formats of A, multiplier width, pipelined data-assignment stage).
M3XU_DESIGNS = (
    ("M3XU", "m3xu", ("f16", "bf16", "f32", "f32c"), 12, 0),
    ("M3XU", "m3xu-pipelined", ("f16", "bf16", "f32", "f32c"), 12, 1),
    ("M3XU", "m3xu-without-fp32c", ("f16", "bf16", "f32"), 12, 0),
    ("M3XU", "baseline-fp16-mul12", ("f16", "bf16"), 12, 0),   # the 12th multiplier bit alone
    ("M3XU", "baseline-fp16", ("f16", "bf16"), 11, 0),         # the FP16/BF16 MXU unit
    ("NAIVE_FP32", "naive-fp32", ("f16", "bf16", "f32"), 24, 0),  # 24 x 24 multipliers, K = 8 FP32
)
# (design, mode, MUTANT code of m3xu_unit): a_L b_L dropped (f32); no sign flip in FP32C's real part
M3XU_MUTANTS = (("m3xu", "f32", 1, "mutant-no-low-low"), ("m3xu", "f32c", 2, "mutant-no-sign-flip"))


def unit_module(u):
    """(top module, "NAME=VALUE,..." parameters) of a unit (those it has: fda_unit's K_RUN, AB_F16 and
    C_LAST only where the FP8 mma.sync schedule sets them, so the other units keep their parameter sets)."""
    top, params = UNIT_MODULES[u["kind"]]
    return top, ",".join(f"{name}={u[field]}" for name, field in params if field in u)


class Output(io.StringIO):
    """A file written only when its content changes, so that an unchanged table does not re-verilate."""

    def __init__(self, path):
        super().__init__()
        self.path = path

    def __exit__(self, *exc):
        text = self.getvalue()
        old = open(self.path).read() if os.path.exists(self.path) else None
        if text != old:
            with open(self.path, "w") as f:
                f.write(text)
        return super().__exit__(*exc)


def write_table(path, header, rows):
    """A text table read by the scripts: a '#' header line, then one space-separated row a line."""
    with Output(path) as f:
        f.write(f"# {header}\n")
        for row in rows:
            f.write(" ".join(str(x) for x in row) + "\n")


def unit_key(ins):
    """The hardware an instruction needs, from its schedule; None when no RTL unit implements it."""
    passes = ins["schedule"]
    p0 = passes[0]
    # Hopper/Blackwell mma.sync FP8 (fda_unit's K_RUN, AB_F16, C_LAST): products in runs of k_run dealt
    # to the passes in turn (pass i's first run at i * k_run, k_stride = passes * k_run), operands
    # converted to f16, C added last.  Only FDA passes, unscaled, with C in D's format do that.
    run, f16, c_last = p0.get("k_run", 0), p0.get("ab_f16", 0), ins.get("c_last", 0)
    if run or f16 or c_last:
        if (p0["algo"] != "FDA" or p0["scales"] != "none" or (c_last and ins["c"] != ins["d"])
                or any(p["k_first"] != (i * run if run else i * p0["k_count"])
                       or p["k_stride"] != (len(passes) * run if run else 0) for i, p in enumerate(passes))):
            return None
    alike = all({k: v for k, v in p.items() if k not in ("k_first", "k_count", "out")}
                == {k: v for k, v in p0.items() if k not in ("k_first", "k_count", "out")}
                and p["k_count"] == p0["k_count"] for p in passes)
    if UNIT_OF_PASS.get(p0["algo"]) in AMD_UNITS and alike and p0["scales"] == "none":
        # AMD: the table's Step 6 roundings (FDRDA) and flushing (GPS) are the unit's parameters
        return (p0["algo"], len(passes), p0["k_count"], p0["frac_bits"], p0["scales"], 0, p0["group"],
                (p0["align_products"], p0["align_c"], p0["flush"]), 0, (0, 0, 0))
    if (p0["algo"] not in ALIGN or not alike or p0["align_products"] != ALIGN[p0["algo"]]
            or p0["align_c"] != ALIGN[p0["algo"]] or p0["flush"]):
        return None
    block = ins["block_size"] if p0["scales"] == "per-product" else 0
    return (p0["algo"], len(passes), p0["k_count"], p0["frac_bits"], p0["scales"], block, p0["group"], (),
            p0.get("zero_term_exp", 0), (run, f16, c_last))


def m3xu_units(table, fmt, out, units, configs):
    """The M3XU designs (M3XU_DESIGNS) and their configurations: every m3xu instruction of a design's
    modes; the naive unit's f32 mode runs the f32 instruction with K = L.  Appends to units, configs."""
    m3xu = {ins["a"]: ins for ins in table if ins["arch"] == "m3xu"}
    if not m3xu:
        return
    lo, hi = m3xu["f16"], m3xu["f32"]       # the one-step mode's pass, the wide modes' pass
    lanes = lo["k"]
    params = dict(k=lanes, f=hi["schedule"][0]["frac_bits"], f_lo=lo["schedule"][0]["frac_bits"],
                  out_lo=out[lo["schedule"][0]["out"]], out_hi=out[hi["schedule"][0]["out"]], block=0)
    steps = {"f32": 2, "f32c": 4}            # M3XU's steps per mode (docs/m3xu.md); 1 otherwise
    design_of = {}
    for kind, name, modes, mul_w, pipe in M3XU_DESIGNS:
        u = dict(params, code=UNIT_CODE[kind], kind=kind, design=name, mul_w=mul_w, pipe=pipe, mutant=0,
                 chain=1 if kind == "NAIVE_FP32" else max(steps.get(m, 1) for m in modes),
                 ab=sum(1 << fmt[m] for m in modes), c=0, out=0)
        if kind == "NAIVE_FP32":
            del u["mul_w"], u["pipe"]
        for m in modes:
            ins = m3xu[m]
            u["c"] |= 1 << fmt[ins["c"]]
            u["out"] |= 1 << out[ins["schedule"][-1]["out"]]
        design_of[name] = len(units)
        units.append(u)
        for m in modes:
            ins = m3xu[m]
            k_run = lanes if kind == "NAIVE_FP32" and m in steps else 0
            configs.append(dict(ins, unit=design_of[name], kind="check", k=k_run or ins["k"],
                                f=ins["schedule"][0]["frac_bits"],
                                chain=1 if kind == "NAIVE_FP32" else steps.get(m, 1),
                                out=ins["schedule"][-1]["out"], covers=1, k_run=k_run))
    for name, mode, code, label in M3XU_MUTANTS:
        units.append(dict(units[design_of[name]], mutant=code, design=f"{name}:{label}"))
        ins = m3xu[mode]
        configs.append(dict(ins, unit=len(units) - 1, kind=label, k=ins["k"], f=ins["schedule"][0]["frac_bits"],
                            chain=steps[mode], out=ins["schedule"][-1]["out"], covers=0, k_run=0))


def main():
    mmaref, out_dir = sys.argv[1], sys.argv[2]
    table = json.loads(subprocess.check_output([mmaref, "list", "--json"]))
    schema = read_schema(mmaref)
    load_catalogue(schema)
    fmt, out, algo, rounding = (codes_of(schema, key) for key in ("formats", "outputs", "algos", "roundings"))

    configs, seen, served = [], {}, []   # served: (arch, name, the configuration standing for it)
    for ins in table:
        ukey = unit_key(ins)
        if ukey is None:
            continue
        d_out = ins["schedule"][-1]["out"]
        key = (ukey, ins["a"], ins["b"], ins["c"], ins["d"], d_out, ins["scale"], ins["block_size"])
        if key in seen:
            configs[seen[key]]["covers"] += 1
            served.append((ins["arch"], ins["name"], configs[seen[key]]))
            continue
        served.append((ins["arch"], ins["name"], None))
        seen[key] = len(configs)
        configs.append(dict(ins, ukey=ukey, out=d_out, covers=1))
        served[-1] = (ins["arch"], ins["name"], configs[-1])

    # SFMA's units and configurations come after the M3XU designs, and the FP8 mma.sync schedule's (runs,
    # f16 operands, C last) after SFMA's, so that the others keep their numbers
    fp8 = [c for c in configs if c["ukey"][-1] != (0, 0, 0)]
    later = [c for c in configs if c["ukey"][0] == "SFMA" and c["ukey"][-1] == (0, 0, 0)]
    configs = [c for c in configs if c["ukey"][0] != "SFMA" and c["ukey"][-1] == (0, 0, 0)]
    units, unit_of = [], {}

    def group_units(cfgs):
        for cfg in cfgs:
            kind, passes, k_count, f, _, block, group, amd, zero, (run, f16, c_last) = ukey = cfg["ukey"]
            if ukey not in unit_of:
                unit_of[ukey] = len(units)
                if amd:  # AMD units: GPS runs its K/G groups through one datapath, in one table pass
                    units.append(dict(code=UNIT_CODE[UNIT_OF_PASS[kind]], kind=UNIT_OF_PASS[kind], k=passes * k_count, f=f,
                                      chain=passes, block=0, ab=0, c=0, out=0, mutant=0, pass_algo=algo[kind],
                                      group=group, align_dot=rounding[amd[0]], align_c=rounding[amd[1]], flush=amd[2],
                                      out_kind=out[cfg["schedule"][-1]["out"]]))
                else:
                    units.append(dict(code=UNIT_CODE[kind], kind=kind, k=passes * k_count, f=f, chain=passes, block=block,
                                      ab=0, c=0, out=0, mutant=0,
                                      **({"zero_exp": zero} if kind == "FDA" else {}),
                                      **(dict(k_run=run, ab_f16=f16, c_last=c_last) if run or f16 or c_last else {})))
            u = units[unit_of[ukey]]
            u["ab"] |= (1 << fmt[cfg["a"]]) | (1 << fmt[cfg["b"]])
            u["c"] |= 1 << fmt[cfg["c"]]
            for p in cfg["schedule"]:
                u["out"] |= 1 << out[p["out"]]
            cfg.update(unit=unit_of[ukey], kind="check", k=u["k"], f=f, chain=passes)

    group_units(configs)

    # Mutants: a Hopper-style f16 FDA unit with F one bit short, and an Ampere CoFDA unit in one pass.
    def add_mutant(pred, change, label):
        for cfg in configs:
            if cfg["kind"] == "check" and pred(cfg):
                m = dict(units[cfg["unit"]], mutant=1)
                change(m)
                units.append(m)
                configs.append(dict(cfg, unit=len(units) - 1, kind=label, covers=0))
                return
    add_mutant(lambda c: c["ukey"][0] == "FDA" and c["a"] == "f16" and c["chain"] == 1 and c["f"] == 25
               and c["k"] == 16 and c["out"] == "f32-rz",
               lambda m: m.update(f=m["f"] - 1), "mutant-F-1")
    add_mutant(lambda c: c["ukey"][0] == "FDA" and c["chain"] == 2 and c["a"] == "f16",
               lambda m: m.update(chain=1), "mutant-single-pass")
    # AMD: the CDNA3 f16 K = 8 FDRDA unit with C rounded toward zero in Step 6 (the paper's hypothetical
    # _rz), and a CDNA2 GPS unit built without flushing (CDNA1's arithmetic)
    add_mutant(lambda c: c["ukey"][0] == "FDRDA" and c["a"] == "f16" and c["k"] == 8 and c["chain"] == 1,
               lambda m: m.update(align_c=rounding["rz"]), "mutant-c-rz")
    add_mutant(lambda c: c["ukey"][0] == "GPS" and c["arch"] == "cdna2" and c["a"] == "f16" and c["k"] == 8,
               lambda m: m.update(flush=0), "mutant-no-flush")
    m3xu_units(table, fmt, out, units, configs)
    configs += later
    group_units(later)
    # SFMA: an f64 unit whose FMA drops the sticky bit of C's alignment (sfma_unit MUTANT = 1)
    add_mutant(lambda c: c.get("ukey", ("M3XU",))[0] == "SFMA" and c["a"] == "f64" and c["k"] == 4, lambda m: None,
               "mutant-no-sticky")
    configs += fp8
    group_units(fp8)
    # Hopper mma.sync FP8 (fda_unit K_RUN = 2, AB_F16, C_LAST) built with C entering the first pass, with
    # the passes over the halves of K, and with the FP8 operands' own exponents (no f16 conversion:
    # mixed e4m3 x e5m2, where an e4m3 subnormal's exponent differs)
    def hopper_fp8(a, b, d):
        return lambda c: (c.get("ukey", ("M3XU",))[0] == "FDA" and c["ukey"][-1][2] == 1 and c["arch"] == "hopper"
                          and c["k"] == 32 and (c["a"], c["b"], c["d"]) == (a, b, d))
    add_mutant(hopper_fp8("e4m3", "e4m3", "f32"), lambda m: m.update(c_last=0), "mutant-c-first")
    add_mutant(hopper_fp8("e4m3", "e4m3", "f16"), lambda m: m.update(k_run=0), "mutant-halves")
    add_mutant(hopper_fp8("e4m3", "e5m2", "f32"), lambda m: m.update(ab_f16=0), "mutant-fp8-exponents")

    os.makedirs(out_dir, exist_ok=True)
    with Output(os.path.join(out_dir, "tb_units.svh")) as f:
        f.write("// Generated by tb/gen_configs.py from `mmaref list --json`; do not edit.\n")
        f.write(f"localparam int NUM_CFG = {len(configs)};\n")
        f.write(f"localparam int NUM_UNITS = {len(units)};\n\n")
        f.write("// k: 0, or the K of a schedule built at run time from the instruction (mmaref_dpi_with_k)\n")
        f.write("function automatic void cfg_entry(input int i, output string arch, output string name,\n"
                "                                  output int unit, output int mutant, output int k);\n")
        f.write("  arch = \"\"; name = \"\"; unit = -1; mutant = 0; k = 0;\n  case (i)\n")
        for i, cfg in enumerate(configs):
            f.write(f"    {i}: begin arch = \"{cfg['arch']}\"; name = \"{cfg['name']}\"; unit = {cfg['unit']}; "
                    f"mutant = {int(cfg['kind'] != 'check')}; k = {cfg.get('k_run', 0)}; end\n")
        f.write("    default: ;\n  endcase\nendfunction\n\n")
        index = {id(c): i for i, c in enumerate(configs)}
        f.write("// +instr=ARCH:NAME: the configuration whose unit serves the instruction (instrs.txt), or -1\n")
        f.write("function automatic int cfg_of_instr(input string instr);\n")
        for arch, name, c in served:
            f.write(f"  if (instr == \"{arch}:{name}\") return {index[id(c)]};\n")
        f.write("  return -1;\nendfunction\n\n")
        for i, u in enumerate(units):
            m3xu = "".join(f", .{p}({u[p.lower()]})" for p in ("MUL_W", "PIPE", "F_LO", "OUT_LO", "OUT_HI")
                           if p.lower() in u)
            m3xu += "".join(f", .{p}({u[field]})" for p, field in (("PASS_ALGO", "pass_algo"), ("GROUP", "group"),
                            ("FLUSH", "flush"), ("ALIGN_P", "align_dot"), ("ALIGN_C", "align_c"),
                            ("ZERO_EXP", "zero_exp"), ("K_RUN", "k_run"), ("AB_F16", "ab_f16"),
                            ("C_LAST", "c_last")) if field in u)
            f.write(f"mma_bench #(.KIND({u['code']}), .K({u['k']}), .F({u['f']}), .CHAIN({u['chain']}), "
                    f".AB_MASK({u['ab']}), .C_MASK({u['c']}), .OUT_MASK({u['out']}), .BLOCK({u['block']}){m3xu}, "
                    f".UNIT({i}), .MUTANT({u['mutant']}))\n  u_bench{i} (.clk(clk && unit_sel == {i}));"
                    f"{'  // ' + u['design'] if 'design' in u else ''}\n")
    write_table(os.path.join(out_dir, "configs.txt"), "index unit kind arch name k F passes a b c d out scale block covers",
                [(i, c["unit"], c["kind"], c["arch"], c["name"], c["k"], c["f"], c["chain"], c["a"], c["b"], c["c"],
                  c["d"], c["out"], c["scale"] or "-", c["block_size"], c["covers"]) for i, c in enumerate(configs)])
    write_table(os.path.join(out_dir, "units.txt"),
                "unit algo K F chain block ab_mask c_mask out_mask mutant top params",
                [(i, u["kind"], u["k"], u["f"], u["chain"], u["block"], u["ab"], u["c"], u["out"], u["mutant"],
                  *unit_module(u)) for i, u in enumerate(units)])
    index = {id(c): i for i, c in enumerate(configs)}
    write_table(os.path.join(out_dir, "instrs.txt"), "arch name config unit (every instruction a unit serves)",
                [(arch, name, index[id(c)], c["unit"]) for arch, name, c in served])
    write_table(os.path.join(out_dir, "designs.txt"), "unit design (the M3XU units and comparison designs)",
                [(i, u["design"]) for i, u in enumerate(units) if "design" in u])
    write_design(os.path.join(out_dir, "design.json"), schema, units, configs, served, index)


# The design database's version: raised when a field is renamed, removed or changes its meaning (a new
# field keeps it); tools/design.py refuses a database of another version.
DESIGN_SCHEMA_VERSION = 1


def names_of(mask, codes):
    """The names whose codes a run-time mask (bit code set) holds, in code order."""
    return [name for name, code in sorted(codes.items(), key=lambda x: x[1]) if mask >> code & 1]


def write_design(path, schema, units, configs, served, index):
    """The design database (design.json): every unit with its kind, top module, parameters (by name), the
    formats and output kinds it serves; every configuration; every instruction with its configuration
    and unit -- the tables above as records read by field name (tools/design.py)."""
    fmt, out = codes_of(schema, "formats"), codes_of(schema, "outputs")
    db = {"schema_version": DESIGN_SCHEMA_VERSION, "generator": "tb/gen_configs.py", "units": [], "configs": [],
          "instructions": []}
    for i, u in enumerate(units):
        top, params = unit_module(u)
        db["units"].append({
            "index": i, "kind": u["kind"], "top": top, "file": f"rtl/{top}.sv", "k": u["k"], "f": u["f"],
            "chain": u["chain"], "block": u["block"], "mutant": u["mutant"], "design": u.get("design", ""),
            "ab_mask": u["ab"], "c_mask": u["c"], "out_mask": u["out"],
            "params": {k: int(v) for k, v in (p.split("=") for p in params.split(","))}, "params_text": params,
            "ab_formats": names_of(u["ab"], fmt), "c_formats": names_of(u["c"], fmt),
            "outputs": names_of(u["out"], out)})
    for i, c in enumerate(configs):
        db["configs"].append({
            "index": i, "unit": c["unit"], "kind": c["kind"], "arch": c["arch"], "name": c["name"], "k": c["k"],
            "f": c["f"], "passes": c["chain"], "a": c["a"], "b": c["b"], "c": c["c"], "d": c["d"], "out": c["out"],
            "scale": c["scale"] or "", "block": c["block_size"], "covers": c["covers"]})
    db["instructions"] = [{"arch": arch, "name": name, "config": index[id(c)], "unit": c["unit"]}
                          for arch, name, c in served]
    with Output(path) as f:
        json.dump(db, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
