// Two stages of tests/prove/styles/sv_dot_e4m3.sv, each against its specification in isolation, as the
// measure of where a proof of the whole unit stops (docs/formal.md; tests/prove/styles/parts.sh runs them):
//   sv_dot_round_miter  Step 5: the unit's pack_rz against the specification's spec_round
//                       (tests/prove/spec_common.svh, the e8m13 output kind) for every signed 24-bit sum
//                       and every lsb exponent an e_max of the instruction gives (e_max - 13 in [-139, 114]);
//                       KEEP = 14 is the unit's planted bug (the check can fail).
//   sv_dot_sum_miter    Steps 3-4 from free terms: C (sign, exponent in [-126, 127], a 24-bit significand
//                       whose leading bit says normal) and K products (sign, exponent in [-132, 16], an
//                       8-bit significand up to 15 * 15): the unit's chain of comparisons, align and
//                       signed_term against the specification's formula (e_max as a maximum, every term on
//                       one grid of 23 fractional bits shifted right by e_max - e + 23 - F, one wide sum).
// Each drives `bad` high where its two sides differ on an input its range allows: a proof is `bad` never 1.
/* verilator lint_off DECLFILENAME */
module sv_dot_round_miter #(parameter int KEEP = 13) (input logic [23:0] s, input logic [8:0] l, output logic bad);
  logic [31:0] d_unit, d_spec;
  logic signed [15:0] lsb16;
  assign lsb16  = 16'($signed(l));
  assign d_unit = sv_dot_pkg::pack_rz($signed(s), int'($signed(l)), KEEP);
  spec_round #(.OUT_MASK(1 << mma_pkg::OUT_F32_E8M13_RZ), .SW(24), .EW(16)) u_spec (
    .out_kind(3'(mma_pkg::OUT_F32_E8M13_RZ)), .sum($signed(s)), .lsb(lsb16), .any_nan(1'b0), .pos_inf(1'b0),
    .neg_inf(1'b0), .d(d_spec));
  assign bad = $signed(l) >= -139 && $signed(l) <= 114 && d_unit != d_spec;
endmodule

module sv_dot_sum_miter #(parameter int K = 4) (input logic cs, input logic [8:0] ce9, input logic [23:0] csig,
  input logic [K-1:0] ps, input logic [K*9-1:0] pe9, input logic [K*8-1:0] psig, output logic bad);
  import sv_dot_pkg::*;
  int e_unit, e_spec, ce, pe [K];
  logic signed [SW-1:0] acc;
  logic signed [47:0] sum, y;
  logic ok;
  always_comb begin
    ce = int'($signed(ce9));
    ok = ce >= -126 && ce <= 127 && (csig[23] == (ce != -126));
    for (int k = 0; k < K; k++) begin
      pe[k] = int'($signed(pe9[k*9 +: 9]));
      ok = ok && pe[k] >= -132 && pe[k] <= 16 && psig[k*8 +: 8] <= 8'd225;
    end
    // the unit's Steps 3-4 (sv_dot_pkg's functions, its chain of comparisons)
    e_unit = ce;
    for (int k = 0; k < K; k++) if (pe[k] > e_unit) e_unit = pe[k];
    acc = signed_term(cs, align(csig, CF, e_unit - ce));
    for (int k = 0; k < K; k++) acc += signed_term(ps[k], align(24'(psig[k*8 +: 8]), PF, e_unit - pe[k]));
    // the specification's formula
    e_spec = ce;
    for (int k = 0; k < K; k++) e_spec = pe[k] > e_spec ? pe[k] : e_spec;
    y = 48'(csig) >> (e_spec - ce + 23 - F);
    sum = cs ? -y : y;
    for (int k = 0; k < K; k++) begin
      y = (48'(psig[k*8 +: 8]) << (23 - PF)) >> (e_spec - pe[k] + 23 - F);
      sum = ps[k] ? sum - y : sum + y;
    end
    bad = ok && (48'(acc) != sum || e_unit != e_spec);
  end
endmodule
