#!/usr/bin/env python3
"""Writes prove_top.sv for make prove (tb/prove/prove.sh, docs/formal.md): a miter of one transaction.

Both units -- the unit under proof (the port contract of docs/verify-your-design.md) and the reference
(the project's unit serving the instruction, build/rtl/gen/instrs.txt and units.txt, or any module given
as REF) -- are reset in cycle 0 and offered the same vector from cycle 1 until each takes it; each side's
first result is kept, and in cycle BOUND both must have one and the two D must be equal.  The vector is
free (a register loaded in the reset cycle from an input the solver chooses): every lane holds any value of
its format (a narrower format's high bits 0, as the bench drives them), C any value of its format, every
scale slot the instruction has any byte.  Formats and the output kind are the instruction's codes.

The port widths and codes come from the model's own table (`mmaref list ARCH --json`, `--schema --json`),
as make verify's do (tb/verify/gen_verify.py).  Prints one line: the instruction, the widths, the
reference and the lane layout that prove.sh decodes a counterexample with.

usage: gen_prove.py MMAREF ARCH:INSTR DUT_TOP DUT_PARAMS REF_TOP REF_PARAMS BOUND OUTDIR
  REF_TOP '-': the project's unit for the instruction (REF_PARAMS ignored)
A bad argument: one line on stderr, exit status 2."""
import os
import re
import sys

GEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "rtl", "gen")


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "verify"))
import gen_verify  # noqa: E402  (make verify's lookup of the instruction and the port contract's widths)
from gen_verify import fail  # noqa: E402

gen_verify.PREFIX = "prove: "


def param_list(text, what):
    """NAME=VALUE,... as Verilog named parameter assignments."""
    plist = []
    for item in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?[0-9]+)", item)
        if not m:
            fail(f"{what}: '{item}' is not NAME=INTEGER (e.g. {what}=K=16,F=25)")
        plist.append(f".{m.group(1)}({m.group(2)})")
    return plist


def table_row(path, arch, name):
    for line in open(path):
        f = line.split()
        if f and not f[0].startswith("#") and f[0] == arch and f[1] == name:
            return f
    return None


def reference(arch, name):
    """The project's unit serving ARCH:NAME: (unit index, top module, parameter text)."""
    row = table_row(os.path.join(GEN, "instrs.txt"), arch, name)
    if row is None:
        fail(f"INSTR={arch}:{name}: no unit of rtl/ serves it (build/rtl/gen/instrs.txt); give REF=module")
    unit = row[3]
    for line in open(os.path.join(GEN, "units.txt")):
        f = line.split()
        if f and f[0] == unit:
            return int(unit), f[10], f[11]
    fail(f"unit {unit} missing from build/rtl/gen/units.txt")


# The reference's ports by module: fda_unit has the contract's own; the other units serve fewer
# run-time selects (tb/mma_bench.sv connects them the same way).
def ref_ports(top, params):
    if top == "gdfs_unit":
        k = int(dict(p.split("=") for p in params.split(","))["K"])
        return (f".fmt_s(FMT_S), .block32(BLOCK32), .c(c[31:0]), .a(a), .b(b), "
                f".sa({{{(k // 16) * 8}'(sa)}}), .sb({{{(k // 16) * 8}'(sb)}}), ")
    if top in ("fdrda_unit", "gps_unit"):
        return ".fmt_a(FMT_A), .fmt_b(FMT_B), .c(c[31:0]), .a(a), .b(b), "
    if top == "sfma_unit":
        return ".out_kind(OUT_KIND), .c(c), .a(a), .b(b), "
    return (".fmt_a(FMT_A), .fmt_b(FMT_B), .fmt_c(FMT_C), .out_kind(OUT_KIND), .c(c), .a(a), .b(b), "
            ".sa(sa), .sb(sb), ")


def main():
    if len(sys.argv) != 9:
        fail("usage: gen_prove.py MMAREF ARCH:INSTR DUT_TOP DUT_PARAMS REF_TOP REF_PARAMS BOUND OUTDIR")
    mmaref, instr, top, params, ref_top, ref_params, bound, out = sys.argv[1:]
    for what, mod in (("DUT_TOP", top), ("REF", ref_top)):
        if mod != "-" and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", mod):
            fail(f"{what}={mod}: not a Verilog module name")
    if not bound.isdigit() or not 2 <= int(bound) <= 200:
        fail(f"BOUND={bound}: cycles from reset to the check, 2 to 200")
    ins, schema, con = gen_verify.contract(mmaref, instr)
    fmts = {f["name"]: f for f in schema["formats"]}
    outs = {o["name"]: o["code"] for o in schema["outputs"]}
    k, aw, ns, cw, dw = con["k"], con["aw"], con["ns"], con["cw"], con["dw"]
    wa, wb, wc = fmts[ins["a"]]["width"], fmts[ins["b"]]["width"], fmts[ins["c"]]["width"]
    out_kind = outs[ins["schedule"][-1]["out"]]
    if ref_top == "-":
        unit, ref_top, ref_params = reference(ins["arch"], ins["name"])
        ref_name = f"unit {unit} ({ref_top})"
    else:
        ref_name = ref_top
    dut_inst = top + (" #(" + ", ".join(param_list(params, "PARAMS")) + ")" if params else "")
    ref_inst = ref_top + (" #(" + ", ".join(param_list(ref_params, "REF_PARAMS")) + ")" if ref_params else "")
    scale_code = fmts[ins["scale"]]["code"] if ins["scale"] else 0

    # the vector is one register loaded in cycle 0 (the reset cycle) from the free input vec_in: the
    # solver picks its value.  Its fields, low to high, in the order of a `mmaref batch` line.
    fields = [("c_raw", wc)] + [(f"a{i}", wa) for i in range(k)] + [(f"b{i}", wb) for i in range(k)] + \
             [(f"sa{j}", 8) for j in range(ns)] + [(f"sb{j}", 8) for j in range(ns)]
    vw, lo, decl = sum(w for _, w in fields), 0, []
    for fname, w in fields:
        decl.append(f"  wire [{w - 1}:0] {fname} = vec[{lo} +: {w}];\n")
        lo += w
    for side in ("a", "b"):
        decl += [f"  assign {side}[{i * aw} +: {aw}] = {aw}'({side}{i});\n" for i in range(k)]
    decl += [f"  assign s{side}[{j * 8} +: 8] = s{side}{j};\n" for side in ("a", "b") for j in range(ns)]
    if not ns:
        decl.append("  assign sa = '0;\n  assign sb = '0;\n")
    text = f"""// Generated by tb/prove/gen_prove.py for make prove: do not edit.
// {ins['arch']}:{ins['name']} ({ins['sass']}): A {ins['a']}, B {ins['b']}, C {ins['c']}, D {ins['d']}, K = {k}, scales {ins['scale'] or 'none'}
// the unit under proof: {dut_inst}; the reference: {ref_name}
module prove_top (input logic clk, input logic [{vw - 1}:0] vec_in);
  localparam int K = {k}, AW = {aw}, NSW = {max(ns, 1)}, CW = {cw}, DW = {dw}, BOUND = {bound};
  localparam logic [mma_pkg::FMT_BITS-1:0] FMT_A = {fmts[ins['a']]['code']}, FMT_B = {fmts[ins['b']]['code']}, FMT_C = {fmts[ins['c']]['code']}, FMT_S = {scale_code};
  localparam logic [mma_pkg::OUT_BITS-1:0] OUT_KIND = {out_kind};
  localparam logic BLOCK32 = {int(ins['block_size'] == 32)};

  logic [7:0] cycle = 8'd0;
  always @(posedge clk) if (cycle != 8'hff) cycle <= cycle + 8'd1;
  wire rst_n = cycle != 8'd0;

  // ---- the vector: free, one value for the whole trace ----
  wire [K*AW-1:0] a, b;
  wire [NSW*8-1:0] sa, sb;
  logic [{vw - 1}:0] vec;
  always @(posedge clk) if (cycle == 8'd0) vec <= vec_in;
{''.join(decl)}  wire [CW-1:0] c = CW'(c_raw);

  // ---- reset in cycle 0, the vector offered from cycle 1 until taken, every result taken ----
  logic dut_sent = 1'b0, dut_got = 1'b0, ref_sent = 1'b0, ref_got = 1'b0;
  logic dut_in_ready, dut_out_valid, ref_in_ready, ref_out_valid;
  logic [DW-1:0] dut_d, ref_d, dut_kept, ref_kept;
  `PROVE_DUT dut (.clk(clk), .rst_n(rst_n), .in_valid(rst_n && !dut_sent), .in_ready(dut_in_ready),
    .fmt_a(FMT_A), .fmt_b(FMT_B), .fmt_c(FMT_C), .out_kind(OUT_KIND), .c(c), .a(a), .b(b), .sa(sa), .sb(sb),
    .out_valid(dut_out_valid), .out_ready(rst_n), .d(dut_d));
  {ref_inst} ref_unit (.clk(clk), .rst_n(rst_n), .in_valid(rst_n && !ref_sent), .in_ready(ref_in_ready),
    {ref_ports(ref_top, ref_params)}.out_valid(ref_out_valid), .out_ready(rst_n), .d(ref_d));

  always @(posedge clk) begin
    if (rst_n && !dut_sent && dut_in_ready) dut_sent <= 1'b1;
    if (rst_n && !ref_sent && ref_in_ready) ref_sent <= 1'b1;
    if (rst_n && !dut_got && dut_out_valid) begin dut_got <= 1'b1; dut_kept <= dut_d; end
    if (rst_n && !ref_got && ref_out_valid) begin ref_got <= 1'b1; ref_kept <= ref_d; end
  end

  // ---- the property: by cycle BOUND both sides have answered, with the same D ----
  always @* if (cycle == BOUND) assert (dut_got && ref_got && dut_kept == ref_kept);
endmodule
"""
    text = text.replace("`PROVE_DUT", dut_inst)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "prove_top.sv"), "w") as f:
        f.write(text)
    # the layout of the counterexample, for prove.sh: lane signals in the order of a `mmaref batch` line
    with open(os.path.join(out, "layout.txt"), "w") as f:
        f.write(" ".join(f"{fname}:{w}" for fname, w in fields) + "\n")
    print(f"{ins['arch']}:{ins['name']} K={k} AW={aw} NS={ns} CW={cw} DW={dw} "
          f"F={ins['schedule'][0]['frac_bits']} passes={len(ins['schedule'])} out={ins['schedule'][-1]['out']} "
          f"ref={ref_name}")


if __name__ == "__main__":
    main()
