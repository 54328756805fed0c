"""The model's schema as the hardware generators read it: the one schema-reading module of
synth/gen_formats.py (rtl/mma_formats.svh) and tb/gen_configs.py (the co-simulation's units and
configurations).

`mmaref list --schema --json` gives the codes, formats, limits, the per-kind constants the RTL shares
with the model ("constants", cmodel/src/kind_consts.h) and the catalogue of RTL unit kinds ("units":
top module, the summation kinds it runs, how it aligns, the parameters a configuration sets, input and
output ports).
unit_problems() checks that catalogue against the modules' headers in rtl/.
"""
import json
import os
import re
import subprocess
import sys

RTL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rtl")


def read_schema(mmaref="build/mmaref", json_path=None):
    """The schema: from json_path ("-": standard input) when given, else from `MMAREF list --schema --json`."""
    if json_path:
        return json.load(sys.stdin if json_path == "-" else open(json_path))
    return json.loads(subprocess.check_output([mmaref, "list", "--schema", "--json"]))


def ident(prefix, name):
    """SystemVerilog constant name of a schema name: f32_e8m13-rz -> OUT_F32_E8M13_RZ (prefix OUT)."""
    s = (prefix + "_" if prefix else "") + re.sub(r"[^A-Za-z0-9]", "_", name).upper()
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", s):
        sys.exit(f"mma_schema.py: cannot name '{name}' in SystemVerilog")
    return s


def codes_of(schema, key):
    """{name: code} of one of the schema's code lists (formats, outputs, roundings, algos, scales, units)."""
    return {x["name"]: x["code"] for x in schema[key]}


def unit_kinds(schema):
    """{unit kind name: its catalogue entry} in code order."""
    return {u["name"]: u for u in schema["units"]}


def module_header(path, module):
    """(parameters, inputs, outputs) of `module` in the SystemVerilog file `path`, read from its header
    `module NAME #(parameter ...) (input ..., output ...);` (comments and ranges dropped)."""
    text = re.sub(r"/\*.*?\*/", "", re.sub(r"//[^\n]*", "", open(path).read()), flags=re.S)
    m = re.search(rf"\bmodule\s+{module}\s*#\((.*?)\)\s*\((.*?)\);", text, re.S)
    if not m:
        return None
    params = re.findall(r"\bparameter\s+(?:int\s+|bit\s+)?(\w+)\s*=", m.group(1))
    ports, direction = {"input": [], "output": []}, None
    for item in re.sub(r"\[[^\]]*\]", "", m.group(2)).split(","):
        words = item.split()
        if words and words[0] in ports:
            direction = words[0]
        if words and direction:
            ports[direction].append(words[-1])
    return params, ports["input"], ports["output"]


def unit_problems(schema, rtl_dir=RTL_DIR):
    """What in the schema's unit catalogue disagrees with rtl/: a module missing, a parameter it lacks, a
    port set other than the module's.  [] when every unit kind matches its module."""
    bad = []
    for u in schema["units"]:
        path = os.path.join(rtl_dir, u["module"] + ".sv")
        head = module_header(path, u["module"]) if os.path.exists(path) else None
        if head is None:
            bad.append(f"unit kind {u['name']}: no module {u['module']} in {path}")
            continue
        params, inputs, outputs = head
        missing = [p for p in u["params"] if p not in params]
        if missing:
            bad.append(f"unit kind {u['name']}: {u['module']} has no parameter {', '.join(missing)}")
        if sorted(inputs) != sorted(u["inputs"]) or sorted(outputs) != sorted(u["outputs"]):
            bad.append(f"unit kind {u['name']}: {u['module']}'s ports are inputs {' '.join(inputs)}, outputs "
                       f"{' '.join(outputs)}; the schema says inputs {' '.join(u['inputs'])}, outputs "
                       f"{' '.join(u['outputs'])}")
    return bad
