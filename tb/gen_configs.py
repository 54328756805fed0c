#!/usr/bin/env python3
"""Derive the RTL co-simulation configurations from the instruction table (`mmaref list --json`).

The RTL implements passes of kind FDA (fda_unit; its CHAIN parameter chains passes) and GDFS (gdfs_unit)
that align by truncation (align_products and align_c "rz") without flushing.  An instruction whose
schedule has only such passes, all alike but for the products they take, is served by a unit.

A unit is the hardware: one per (kind, number of passes, products per pass, F, scales, block size of
per-product scales, group); its parameters are K = passes x products per pass, F, CHAIN = passes and
BLOCK, and the operand formats and output kinds it serves at run time are the union over its
configurations (gdfs_unit takes its scale format and block size at run time).  A configuration is one
distinct (unit, a, b, c, d, output, scale format, block size) among the instructions (the first
instruction of the table stands for the others).  Two mutants (a unit with F one bit short; a CoFDA
unit built single-pass) are added for the mutation check.  Format and output codes come from the
model's schema (`mmaref list --schema --json`), as rtl/mma_formats.svh's do.

Writes OUT/tb_units.svh (bench instances + configuration table for tb/tb_mma.sv), OUT/configs.txt
(index, unit, kind, arch, name, K, F, passes, formats, out, scale, block, instructions covered) and
OUT/units.txt (read by synth/lint.sh and synth/synth.sh).

usage: gen_configs.py MMAREF_BINARY OUT_DIR
"""
import io
import json
import os
import subprocess
import sys

KINDS = {"FDA": 0, "GDFS": 1}     # the bench's ALGO parameter: fda_unit, gdfs_unit

# The RTL unit of each kind and the parameters it takes, from the unit's fields: the one place lint and
# synthesis (synth/lint.sh, synth/synth.sh) learn a unit's top module and parameters (units.txt).
UNIT_MODULES = {
    "FDA": ("fda_unit", (("K", "k"), ("F", "f"), ("CHAIN", "chain"), ("BLOCK", "block"), ("AB_MASK", "ab"),
                         ("C_MASK", "c"), ("OUT_MASK", "out"))),
    "GDFS": ("gdfs_unit", (("K", "k"), ("F", "f"))),
}


def unit_module(u):
    """(top module, "NAME=VALUE,..." parameters) of a unit."""
    top, params = UNIT_MODULES[u["kind"]]
    return top, ",".join(f"{name}={u[field]}" for name, field in params)


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
    alike = all({k: v for k, v in p.items() if k not in ("k_first", "k_count", "out")}
                == {k: v for k, v in p0.items() if k not in ("k_first", "k_count", "out")}
                and p["k_count"] == p0["k_count"] for p in passes)
    if (p0["algo"] not in KINDS or not alike or p0["align_products"] != "rz" or p0["align_c"] != "rz"
            or p0["flush"]):
        return None
    block = ins["block_size"] if p0["scales"] == "per-product" else 0
    return (p0["algo"], len(passes), p0["k_count"], p0["frac_bits"], p0["scales"], block, p0["group"])


def main():
    mmaref, out_dir = sys.argv[1], sys.argv[2]
    table = json.loads(subprocess.check_output([mmaref, "list", "--json"]))
    schema = json.loads(subprocess.check_output([mmaref, "list", "--schema", "--json"]))
    fmt = {f["name"]: f["code"] for f in schema["formats"]}
    out = {o["name"]: o["code"] for o in schema["outputs"]}

    configs, seen = [], {}
    for ins in table:
        ukey = unit_key(ins)
        if ukey is None:
            continue
        d_out = ins["schedule"][-1]["out"]
        key = (ukey, ins["a"], ins["b"], ins["c"], ins["d"], d_out, ins["scale"], ins["block_size"])
        if key in seen:
            configs[seen[key]]["covers"] += 1
            continue
        seen[key] = len(configs)
        configs.append(dict(ins, ukey=ukey, out=d_out, covers=1))

    units, unit_of = [], {}
    for cfg in configs:
        kind, passes, k_count, f, _, block, _ = ukey = cfg["ukey"]
        if ukey not in unit_of:
            unit_of[ukey] = len(units)
            units.append(dict(algo=KINDS[kind], kind=kind, k=passes * k_count, f=f, chain=passes, block=block,
                              ab=0, c=0, out=0, mutant=0))
        u = units[unit_of[ukey]]
        u["ab"] |= (1 << fmt[cfg["a"]]) | (1 << fmt[cfg["b"]])
        u["c"] |= 1 << fmt[cfg["c"]]
        for p in cfg["schedule"]:
            u["out"] |= 1 << out[p["out"]]
        cfg.update(unit=unit_of[ukey], kind="check", k=u["k"], f=f, chain=passes)

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

    os.makedirs(out_dir, exist_ok=True)
    with Output(os.path.join(out_dir, "tb_units.svh")) as f:
        f.write("// Generated by tb/gen_configs.py from `mmaref list --json`; do not edit.\n")
        f.write(f"localparam int NUM_CFG = {len(configs)};\n")
        f.write(f"localparam int NUM_UNITS = {len(units)};\n\n")
        f.write("function automatic void cfg_entry(input int i, output string arch, output string name,\n"
                "                                  output int unit, output int mutant);\n")
        f.write("  arch = \"\"; name = \"\"; unit = -1; mutant = 0;\n  case (i)\n")
        for i, cfg in enumerate(configs):
            f.write(f"    {i}: begin arch = \"{cfg['arch']}\"; name = \"{cfg['name']}\"; unit = {cfg['unit']}; "
                    f"mutant = {int(cfg['kind'] != 'check')}; end\n")
        f.write("    default: ;\n  endcase\nendfunction\n\n")
        for i, u in enumerate(units):
            f.write(f"mma_bench #(.ALGO({u['algo']}), .K({u['k']}), .F({u['f']}), .CHAIN({u['chain']}), "
                    f".AB_MASK({u['ab']}), .C_MASK({u['c']}), .OUT_MASK({u['out']}), .BLOCK({u['block']}), "
                    f".UNIT({i}), .MUTANT({u['mutant']}))\n  u_bench{i} (.clk(clk && unit_sel == {i}));\n")
    write_table(os.path.join(out_dir, "configs.txt"), "index unit kind arch name k F passes a b c d out scale block covers",
                [(i, c["unit"], c["kind"], c["arch"], c["name"], c["k"], c["f"], c["chain"], c["a"], c["b"], c["c"],
                  c["d"], c["out"], c["scale"] or "-", c["block_size"], c["covers"]) for i, c in enumerate(configs)])
    write_table(os.path.join(out_dir, "units.txt"),
                "unit algo K F chain block ab_mask c_mask out_mask mutant top params",
                [(i, u["kind"], u["k"], u["f"], u["chain"], u["block"], u["ab"], u["c"], u["out"], u["mutant"],
                  *unit_module(u)) for i, u in enumerate(units)])


if __name__ == "__main__":
    sys.exit(main())
