// make prove's harness for the sign symmetry of one FDA pass: fda_datapath(-A, B, -C) = -fda_datapath(A,
// B, C), a NaN D as it is and a zero D of either sign (the property make prove's PROPERTY=negate states of
// a whole unit, which SAT sweeping does not decide: the negated copy's sums are the arithmetic negations
// of the other's).  Cut in three parts as fda_datapath puts them together (d = mma_encode(fda_sum(C,
// fda_term(a_k, b_k) ..))), each claim over every input of its part:
//   PART 0  one product (rtl/fda_term.sv, lane 0 of A in fmt_a and of B in fmt_b): A negated gives the
//           same NaN, infinity, exponent and magnitude and the sign flipped;
//   PART 1  C and the products summed (rtl/fda_sum.sv), each product free (its NaN, infinity, sign,
//           exponent and magnitude read from A's and B's bits): C's and every product's sign flipped give
//           the same NaN and infinity flags, an infinity's sign flipped, and where no special value
//           decides D the same lsb and the sum negated; and the sum is never the most negative number of
//           its width, so that its negation is exact;
//   PART 2  the rounding (rtl/mma_encode.sv): the sum negated (any sum but the most negative number, any
//           lsb) and an infinity's sign flipped give D negated.
// PARTs 1 and 2 read C's format and the output kind from the vector too (every one of the unit's masks):
// one proof covers every instruction of the unit.
// With the three, fda_datapath (no block scales) is sign-symmetric for every input: its products are
// PART 0's, lane by lane; their sum PART 1's; D PART 2's.
// Each side wears make verify's port contract.  SIDE 0 computes both copies of the part and gives 1 where
// they break the claim, else 0; SIDE 1, the reference, gives 0; SIDE 2 is SIDE 0 with a mutant claim that
// must be refuted: PART 0 B negated too, PART 1 C kept, PART 2 D not negated back.
// A operand is negated by flipping its format's sign bit (every format fda_term reads is signed and
// IEEE-like); C by flipping bit 31 (f32) or 15 (f16).
`include "tests/prove/spec_common.svh"
/* verilator lint_off UNUSEDSIGNAL */  // the contract's inputs that a part does not read
/* verilator lint_off UNUSEDPARAM */   // the unit's parameters that no part reads
module sign_harness #(
  parameter int SIDE     = 0,                             // 0: both copies, 1: the reference (0), 2: a mutant
  parameter int PART     = 0,                             // 0: one product, 1: the sum, 2: the rounding
  parameter int K        = 16,                            // the instruction's K (the vector's width)
  parameter int F        = 24,
  parameter int CHAIN    = 1,
  parameter int KD       = K / CHAIN,                     // products of the pass
  parameter int BLOCK    = 0,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int ZERO_EXP = 0,
  parameter int AW       = 16,
  parameter int NSW      = 1
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int EW  = mma_pkg::EW;
  localparam int LW  = EW + 2;
  localparam int CM  = C_MASK | mma_pkg::out_formats(OUT_MASK);
  localparam int TF  = mma_pkg::fda_grid_bits(AB_MASK, CM, F);         // fda_datapath's grid ...
  localparam int XW  = TF + 2;
  localparam int SW  = mma_pkg::fda_sum_width(KD, F);                  // ... and sum
  localparam int TW  = 3 + EW + XW;                                    // one free product of PART 1
  localparam int FB  = mma_pkg::FMT_BITS;
  localparam int OB  = mma_pkg::OUT_BITS;
  localparam int NEED = PART == 1 ? KD * TW + FB + OB : PART == 2 ? SW + LW + 3 + OB : 0;

  if (BLOCK != 0 || 2 * K * AW < NEED) begin : g_not_cut
    $error("sign_harness: block scales, or too few bits of A and B for the part (a wider instruction's vector)");
  end

  // an operand negated: its format's sign bit flipped (that bit alone written: Yosys 0.23 does not merge
  // the logic behind x and x ^ constant, which stalls the solver, but does behind the bits of x kept)
  function automatic logic [AW-1:0] negate_ab(input logic [mma_pkg::FMT_BITS-1:0] fmt, input logic [AW-1:0] x);
    negate_ab = x;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (AB_MASK[f] && fmt == mma_pkg::FMT_BITS'(f)) negate_ab[mma_pkg::fmt_width(f) - 1] = ~x[mma_pkg::fmt_width(f) - 1];
  endfunction
  // PARTs 1 and 2: C's format and the output kind free among the unit's (from the vector's last bits;
  // a code outside the masks reads as the port's), so that one proof covers every instruction of the unit
  logic [2*K*AW-1:0] bits;
  logic [FB-1:0]     fmt_c_any;
  logic [OB-1:0]     kind_any;
  assign bits = {b, a};
  always @* begin
    fmt_c_any = fmt_c;
    kind_any  = out_kind;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (C_MASK[f] && bits[2*K*AW-1 -: FB] == FB'(f)) fmt_c_any = FB'(f);
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && bits[2*K*AW-FB-1 -: OB] == OB'(o)) kind_any = OB'(o);
  end
  wire [31:0] c_neg = fmt_c_any == FB'(mma_pkg::FMT_F16) ? {c[31:16], ~c[15], c[14:0]} : {~c[31], c[30:0]};

  logic        bad;                                                   // the claim broken (SIDE 0, 2)
  logic [31:0] result;
  assign result = SIDE == 1 ? 32'd0 : 32'(bad);
  generate
    if (SIDE == 1) begin : g_reference
      assign bad = 1'b0;
    end else if (PART == 0) begin : g_term
      // lane 0, as it is (copy 0) and with A negated (copy 1; the mutant: B negated too)
      logic [1:0]          nan, inf, neg;
      logic [2*EW-1:0]     exp;
      logic [2*XW-1:0]     x;
      genvar s;
      for (s = 0; s < 2; s++) begin : g_copy
        fda_term #(.AB_MASK(AB_MASK), .TF(TF), .ZERO_EXP(ZERO_EXP), .AW(AW)) u_term (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .a(s == 0 ? a[AW-1:0] : negate_ab(fmt_a, a[AW-1:0])),
          .b(s == 1 && SIDE == 2 ? negate_ab(fmt_b, b[AW-1:0]) : b[AW-1:0]), .s_exp(EW'(0)),
          .nan(nan[s]), .inf(inf[s]), .neg(neg[s]), .exp(exp[s*EW +: EW]), .x(x[s*XW +: XW]));
      end
      assign bad = !(nan[1] == nan[0] && inf[1] == inf[0] && neg[1] != neg[0] && exp[EW +: EW] == exp[0 +: EW] &&
                     x[XW +: XW] == x[0 +: XW]);
    end else if (PART == 1) begin : g_sum
      // KD free products from A's and B's bits: product k's {nan, inf, neg, exp, x} at [k*TW +: TW]
      logic [KD-1:0]         p_nan, p_inf, p_neg;
      logic [KD*EW-1:0]      p_exp;
      logic [KD*XW-1:0]      p_x;
      logic signed [SW-1:0]  sum [2];
      logic signed [LW-1:0]  lsb [2];
      logic [1:0]            d_nan, d_inf, d_inf_neg;
      genvar k, s;
      for (k = 0; k < KD; k++) begin : g_product
        assign {p_nan[k], p_inf[k], p_neg[k], p_exp[k*EW +: EW], p_x[k*XW +: XW]} = bits[k*TW +: TW];
      end
      // copy 0 as it is, copy 1 with C and every product's sign flipped (the mutant: C kept)
      for (s = 0; s < 2; s++) begin : g_copy
        fda_sum #(.KD(KD), .F(F), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .ZERO_EXP(ZERO_EXP)) u_sum (
          .fmt_c(fmt_c_any), .out_kind(kind_any), .c(s == 1 && SIDE != 2 ? c_neg : c), .p_nan(p_nan), .p_inf(p_inf),
          .p_neg(s == 1 ? ~p_neg : p_neg), .p_exp(p_exp), .p_x(p_x), .s_nan(1'b0), .sum(sum[s]), .lsb_exp(lsb[s]),
          .d_nan(d_nan[s]), .d_inf(d_inf[s]), .d_inf_neg(d_inf_neg[s]));
      end
      // Step 1's verdict mirrored (an infinity's sign read only where no NaN decides), the sum negated
      // where no special value decides, never the most negative number
      wire special = d_nan[0] || d_inf[0];
      assign bad = !(d_nan[1] == d_nan[0] && d_inf[1] == d_inf[0] && (d_nan[0] || !d_inf[0] || d_inf_neg[1] != d_inf_neg[0]) &&
                     (special || (sum[1] == -sum[0] && lsb[1] == lsb[0])) && sum[0] != {1'b1, {(SW-1){1'b0}}});
    end else begin : g_round
      // a free sum (not the most negative number), lsb and flags from A's bits; copy 1 the sum negated
      // and an infinity's sign flipped; D of copy 1 negated back (a NaN as it is, a zero of either sign)
      logic signed [SW-1:0] s_in;
      logic signed [LW-1:0] l_in;
      logic [2:0]           r;
      logic [31:0]          d0, d1, d1_back;
      logic [31:0]          sign_d, nan_d;
      assign s_in = bits[SW-1:0] == {1'b1, {(SW-1){1'b0}}} ? {1'b1, {(SW-2){1'b0}}, 1'b1} : bits[SW-1:0];
      assign l_in = bits[SW +: LW];
      assign r    = bits[SW+LW +: 3];                               // {inf_neg, inf, nan}
      mma_encode #(.SW(SW), .LW(LW), .OUT_MASK(OUT_MASK), .DW(32)) u_encode0 (
        .sum(s_in), .lsb_exp(l_in), .out_kind(kind_any), .nan(r[0]), .inf(r[1]), .inf_neg(r[2]), .d(d0));
      mma_encode #(.SW(SW), .LW(LW), .OUT_MASK(OUT_MASK), .DW(32)) u_encode1 (
        .sum(-s_in), .lsb_exp(l_in), .out_kind(kind_any), .nan(r[0]), .inf(r[1]), .inf_neg(!r[2]), .d(d1));
      // D's format (out_kind's): its sign bit and its NaN test
      always @* begin
        sign_d = 32'h8000_0000;
        nan_d  = 32'h7f80_0000;
        for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
          if (OUT_MASK[o] && kind_any == OB'(o) &&
              mma_pkg::fmt_width(mma_pkg::out_format(o)) == 16) begin
            sign_d = 32'h8000;
            nan_d  = 32'h7c00;
          end
      end
      wire d1_nan  = (d1 & nan_d) == nan_d && (d1 & ~nan_d & ~sign_d) != 0;
      wire d1_zero = (d1 & ~sign_d) == 0;
      assign d1_back = d1_nan || SIDE == 2 ? d1 : d1 ^ sign_d;
      assign bad = !(d1_zero ? (d0 & ~sign_d) == 0 : d1_back == d0);
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(result),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
