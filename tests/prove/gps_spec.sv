// gps_spec: an independent specification of AMD CDNA1/CDNA2's group pairwise sum (GPS, the f16 and bf16
// MFMA) for make prove (tests/prove/all.sh, docs/formal.md), written from the MMA-Sim paper (section IV-B,
// Algorithms 2 and 3) and IEEE 754's multiplication and addition; it shares no arithmetic with rtl/: only
// the format table (mma_pkg's fields of rtl/mma_formats.svh) is read.  One vector -> D, combinationally:
//   Step 1 (FLUSH = 1, CDNA2): C, and every A and B operand, subnormal or zero -> +0.
//   Step 2: p_k = a_k * b_k in f32, rounded once to nearest even (IEEE multiplication: the exact product
//     of the decoded significands and exponents, spec_round to f32; a NaN operand or 0 * inf is f32's
//     canonical NaN, inf * x an infinity of the XOR of the signs, a zero product a zero of that sign);
//     FLUSH: a subnormal p_k -> a zero of its sign.
//   Step 3: every G consecutive products summed pairwise (Algorithm 2: PS(p_0 .. p_n-1) =
//     PS(first half) + PS(second half), each addition IEEE f32 rounded to nearest even: fda_spec_add);
//     FLUSH: every subnormal sum -> a zero of its sign.
//   Step 4 (Algorithm 3): d = C; for each group in order d = d + PS(group), rounded (and flushed) alike.
// Scope: f16 and bf16 A and B (any mix of AB_MASK's), C and D f32 (OUT f32 RNE), G a power of two
// dividing K.
// Ports: gps_unit's (clk, rst_n, in_valid/in_ready, fmt_a, fmt_b, c, a, b, out_valid/out_ready, d), and,
// unused, the port contract's fmt_c, out_kind, sa, sb (make verify and make prove connect a module that is
// not one of the project's units by fda_unit's ports: docs/verify-your-design.md, section 4).
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 sums each
// group one product after another, ((p_0 + p_1) + p_2) + p_3, instead of pairwise; 2 takes the groups in
// the other order (group g is made of group NG - 1 - g's products), a mutant of the chaining.
// DECODE_CUT (make prove's cut point; 0 for the specification): 1 decodes A and B with rtl/'s mma_unpack
// (spec_decode_rtl), which tests/prove/fda_cut_harness.sv's PART 0 proves equal to spec_decode, so that
// both sides' multipliers read the same significands.
// OP_CUT (make prove's cut point; 0 for the specification): 1 runs each product and each addition through
// rtl/'s mma_fp_mul and mma_fp_add instead, so that a proof against the unit checks the order of the
// operations (the pairwise tree, C first, the groups in order) and the handshake alone; the operations
// themselves are proven equal for every input by tests/prove/gps_cut_harness.sv.
// PASS_CUT (make prove's cut point; 0 for the specification): 1 runs each group (its products, its
// pairwise sum and the addition to d, Steps 1-4 of one group) through rtl/'s gps_datapath instead, so
// that a proof against the unit with that module cut (CUT=gps_datapath) checks the groups' chaining and
// the handshake alone; one group is proven equal part by part (the rows above).
// The port contract of make verify: D is registered on the handshake and held until taken.
`ifndef GPS_SPEC_SV
`define GPS_SPEC_SV
`include "tests/prove/spec_common.svh"
`include "tests/prove/fda_spec_add.svh"
`include "tests/prove/decode_cut.svh"

/* verilator lint_off DECLFILENAME */  // the specification's steps, in its file
// a subnormal f32 value -> a zero of its sign (the paper's "x <- x * 0.0 if |x| < 2^-126"), when FLUSH
function automatic logic [31:0] gps_spec_flush(input int flush, input logic [31:0] x);
  gps_spec_flush = flush != 0 && x[30:23] == 8'd0 ? {x[31], 31'd0} : x;
endfunction

// Steps 1-2: one product a * b in f32
module gps_spec_mul #(
  parameter int AB_MASK    = 1 << mma_pkg::FMT_F16,
  parameter int FLUSH      = 0,
  parameter int DECODE_CUT = 0,
  parameter int OP_CUT     = 0,
  parameter int AW         = mma_pkg::max_width(AB_MASK)
) (
  input  logic [mma_pkg::FMT_BITS-1:0] fmt_a, fmt_b,
  input  logic [AW-1:0]                a, b,
  output logic [31:0]                  p
);
  localparam int MW = mma_pkg::max_man_bits(AB_MASK);  // fractional bits of a decoded significand
  localparam int PW = 2 * MW + 3;                      // the exact product, signed (below 4)
  localparam int EW = 16;
  logic                 sa0, sb0, za0, zb0, ia, ib, na, nb;
  logic signed [EW-1:0] ea, eb;
  logic [MW:0]          ma, mb;
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(AB_MASK), .AW(AW), .MW(MW), .EW(EW)) u_a (
    .fmt(fmt_a), .raw(a), .s(sa0), .e(ea), .m(ma), .zero(za0), .inf(ia), .nan(na));
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(AB_MASK), .AW(AW), .MW(MW), .EW(EW)) u_b (
    .fmt(fmt_b), .raw(b), .s(sb0), .e(eb), .m(mb), .zero(zb0), .inf(ib), .nan(nb));

  // Step 1 (FLUSH): a zero or subnormal operand (no hidden one) is +0, as spec_decode reads +0: sign 0,
  // exponent ZERO_EXP, significand 0
  logic                 sa, sb, za, zb;
  logic signed [EW-1:0] fea, feb;
  logic [MW:0]          fa, fb;
  always @* begin
    {sa, za, fea, fa} = {sa0, za0, ea, ma};
    {sb, zb, feb, fb} = {sb0, zb0, eb, mb};
    if (FLUSH != 0 && !ia && !na && !ma[MW]) {sa, za, fea, fa} = {2'b01, EW'(mma_pkg::ZERO_EXP), (MW+1)'(0)};
    if (FLUSH != 0 && !ib && !nb && !mb[MW]) {sb, zb, feb, fb} = {2'b01, EW'(mma_pkg::ZERO_EXP), (MW+1)'(0)};
  end

  // Step 2: the exact product (-1)^(sa^sb) * ma * mb * 2^(ea + eb - 2 MW), rounded once to f32 RNE
  logic                 s;
  logic [PW-1:0]        mag;
  logic signed [PW-1:0] prod;
  logic [31:0]          rounded;
  assign s    = sa ^ sb;
  assign mag  = fa * fb;
  assign prod = s ? -mag : mag;
  spec_round #(.OUT_MASK(1 << mma_pkg::OUT_F32_RNE), .SW(PW), .EW(EW)) u_round (
    .out_kind(mma_pkg::OUT_BITS'(mma_pkg::OUT_F32_RNE)), .sum(prod), .lsb(fea + feb - EW'(2 * MW)),
    .any_nan(1'b0), .pos_inf(1'b0), .neg_inf(1'b0), .d(rounded));
  logic [31:0] p_spec;
  always @* begin
    if (na || nb || (ia && zb) || (za && ib)) p_spec = 32'(mma_pkg::fmt_canonical_nan(mma_pkg::FMT_F32));
    else if (ia || ib)                        p_spec = 32'(mma_pkg::fmt_inf(mma_pkg::FMT_F32)) | {s, 31'd0};
    else if (za || zb)                        p_spec = {s, 31'd0};
    else                                      p_spec = gps_spec_flush(FLUSH, rounded);
  end
  generate
    if (OP_CUT != 0) begin : g_op_cut
      logic unused_spec;
      assign unused_spec = ^p_spec;
      mma_fp_mul #(.AB_MASK(AB_MASK), .OUT(mma_pkg::OUT_F32_RNE), .FLUSH(FLUSH), .AW(AW), .DW(32)) u_mul (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a), .b(b), .d(p));
    end else begin : g_op_spec
      assign p = p_spec;
    end
  endgenerate
endmodule

// one f32 addition rounded to nearest even (fda_spec_add), flushed when FLUSH (OP_CUT: rtl/'s mma_fp_add)
module gps_spec_add #(
  parameter int FLUSH  = 0,
  parameter int OP_CUT = 0
) (
  input  logic [31:0] x, y,
  output logic [31:0] d
);
  generate
    if (OP_CUT != 0) begin : g_cut
      mma_fp_add #(.FMT(mma_pkg::FMT_F32), .OUT(mma_pkg::OUT_F32_RNE), .FLUSH(FLUSH)) u_add (.x(x), .y(y), .d(d));
    end else begin : g_spec
      logic [31:0] sum;
      fda_spec_add #(.OUT_MASK(1 << mma_pkg::OUT_F32_RNE)) u_add (
        .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F32)), .x(x), .y(y), .d(sum));
      assign d = gps_spec_flush(FLUSH, sum);
    end
  endgenerate
endmodule
/* verilator lint_on DECLFILENAME */

module gps_spec #(
  parameter int K           = 4,
  parameter int G           = 4,
  parameter int FLUSH       = 0,
  parameter int AB_MASK     = 1 << mma_pkg::FMT_F16,
  parameter int OUT         = mma_pkg::OUT_F32_RNE,  // the unit's output kind: f32 RNE, the only one GPS has
  parameter int SPEC_MUTANT = 0,
  parameter int DECODE_CUT  = 0,
  parameter int OP_CUT      = 0,
  parameter int PASS_CUT    = 0,
  parameter int AW          = mma_pkg::max_width(AB_MASK)
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  /* verilator lint_off UNUSEDSIGNAL */  // the port contract's selects: C and D are f32, no scales
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [7:0]                    sa, sb,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int NG = K / G;                             // groups
  localparam int LV = mma_pkg::clog2(G);                 // levels of a group's pairwise sum
  generate
    if (OUT != mma_pkg::OUT_F32_RNE || (1 << LV) != G || K % G != 0) begin : g_scope
      $error("gps_spec: OUT must be f32 RNE and G a power of two dividing K");
    end
  endgenerate

  // Step 2: the products
  logic [K*32-1:0] p;                                   // product k at [k*32 +: 32]
  genvar k, g, l, j;
  generate
    for (k = 0; k < K; k++) begin : g_mul
      localparam int KK = SPEC_MUTANT == 2 ? (NG - 1 - k / G) * G + k % G : k;  // the operands it takes
      gps_spec_mul #(.AB_MASK(AB_MASK), .FLUSH(FLUSH), .DECODE_CUT(DECODE_CUT), .OP_CUT(OP_CUT), .AW(AW)) u_mul (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[KK*AW +: AW]), .b(b[KK*AW +: AW]), .p(p[k*32 +: 32]));
    end
  endgenerate

  // Step 3: each group's sum.  Algorithm 2 on G = 2^LV products: level l + 1's sum j adds level l's sums
  // 2j (the first half) and 2j + 1 (the second); level 0 holds the products.  The mutant adds the
  // products in order instead.
  logic [NG*32-1:0] ps;                                 // group g's sum at [g*32 +: 32]
  generate
    for (g = 0; g < NG; g++) begin : g_group
      if (SPEC_MUTANT == 1) begin : g_mutant
        logic [G*32-1:0] run;                            // the sum of products 0 .. j at [j*32 +: 32]
        assign run[31:0] = p[g*G*32 +: 32];
        for (j = 1; j < G; j++) begin : g_step
          gps_spec_add #(.FLUSH(FLUSH), .OP_CUT(OP_CUT)) u_add (.x(run[(j-1)*32 +: 32]), .y(p[(g*G + j)*32 +: 32]), .d(run[j*32 +: 32]));
        end
        assign ps[g*32 +: 32] = run[(G-1)*32 +: 32];
      end else begin : g_pairwise
        /* verilator lint_off UNUSEDSIGNAL */             // a level past 0 fills its first G >> l slots
        logic [(LV+1)*G*32-1:0] lvl;                     // level l's sum j at [(l*G + j)*32 +: 32]
        /* verilator lint_on UNUSEDSIGNAL */
        assign lvl[0 +: G*32] = p[g*G*32 +: G*32];
        for (l = 0; l < LV; l++) begin : g_level
          for (j = 0; j < (G >> (l + 1)); j++) begin : g_pair
            gps_spec_add #(.FLUSH(FLUSH), .OP_CUT(OP_CUT)) u_add (.x(lvl[(l*G + 2*j)*32 +: 32]), .y(lvl[(l*G + 2*j + 1)*32 +: 32]),
                                                 .d(lvl[((l+1)*G + j)*32 +: 32]));
          end
          // the level's upper slots hold nothing
          assign lvl[((l+1)*G + (G >> (l + 1)))*32 +: (G - (G >> (l + 1)))*32] = '0;
        end
        assign ps[g*32 +: 32] = lvl[(LV*G)*32 +: 32];
      end
    end
  endgenerate

  // Steps 1 and 4: d = C (FLUSH: subnormal or zero -> +0), then d = d + PS(group), group after group
  logic [(NG+1)*32-1:0] acc;                            // d after g groups at [g*32 +: 32]
  assign acc[31:0] = FLUSH != 0 && c[30:23] == 8'd0 ? 32'd0 : c;
  generate
    for (g = 0; g < NG; g++) begin : g_acc
      gps_spec_add #(.FLUSH(FLUSH), .OP_CUT(OP_CUT)) u_add (.x(acc[g*32 +: 32]), .y(ps[g*32 +: 32]), .d(acc[(g+1)*32 +: 32]));
    end
  endgenerate

  // PASS_CUT: group g through rtl/'s gps_datapath, from the previous group's d (the first from C)
  logic [31:0] result;
  generate
    if (PASS_CUT != 0) begin : g_pass_cut
      logic [(NG+1)*32-1:0] cut;                        // d after g groups at [g*32 +: 32]
      logic                 unused_spec;
      assign unused_spec = ^acc;
      assign cut[31:0] = c;
      for (g = 0; g < NG; g++) begin : g_pass
        localparam int GG = SPEC_MUTANT == 2 ? NG - 1 - g : g;
        gps_datapath #(.G(G), .AB_MASK(AB_MASK), .FLUSH(FLUSH), .OUT(OUT), .AW(AW)) u_pass (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .first(g == 0), .c(cut[g*32 +: 32]), .a(a[GG*G*AW +: G*AW]),
          .b(b[GG*G*AW +: G*AW]), .d(cut[(g+1)*32 +: 32]));
      end
      assign result = cut[NG*32 +: 32];
    end else begin : g_spec
      assign result = acc[NG*32 +: 32];
    end
  endgenerate

  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(result),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
`endif
