// make prove's harness for one FDRDA or GFDRDA pass (CDNA3's MFMA) cut in three, each part rtl/'s against
// the specification's (tests/prove/fdrda_spec_pass.svh) as fdrda_datapath and fdrda_spec_pass instantiate
// them for a pass of K / CHAIN products of the unit's parameters: PART = 0 the products' dot sum
// (rtl/fdrda_dot.sv, fdrda_spec_dot), PART = 1 C added (rtl/fdrda_add_c.sv, fdrda_spec_add_c), PART = 2
// the exact sum rounded to D (mma_encode, spec_round).  It wears make verify's port contract so that make
// prove's harness can drive it; SIDE 0 is rtl/, 1 the specification, 2 a mutant of rtl/'s part (PART 0:
// products aligned with F - 1 fractional bits; 1: C aligned with the other of RD and RZ; 2: D rounded
// to the other of f32-RNE and f32-RZ).  Every cut value matters only where no special value decides D; each part's D is one
// 32-bit word of its output cut (chosen by two input bits the part does not read otherwise), its
// values read as 0 where a special value decides D.
//   Cut 1, the dot sum: the products' findings for Steps 1 and 3 (nan, pos_inf, neg_inf, pos_ovf,
//   neg_ovf) and s_dot * 2^(e_dot - F), which matter only when no finding is set.  PART 0's words (C's
//   low bits choose): s_dot's low and high words (64 bits, sign-extended), {range bit, findings, e_dot}.
//   Cut 2, the exact sum: the verdict of Steps 1 and 3 (0 the sum, 1 NaN, 2 +inf, 3 -inf; rtl/'s from
//   d_nan, d_inf, d_inf_neg, the specification's from any_nan, p_inf, n_inf, as each side's rounding
//   reads them) and sum * 2^lsb.  PART 1's words (a[101:100] choose): the sum's low and high words,
//   {range bit, verdict, lsb}.
//   A range bit is 1 on the specification's side and, on rtl/'s, says that where the cut's values matter
//   they lie where the next part reads them: e_dot in [E_LO, E_HI] (the exponents of a product: a zero's
//   -126 twice to twice the largest exponent field of A's and B's formats), lsb in [L_LO, L_HI] (the
//   larger of that and C's exponent, less 31), and s_dot and sum not the most negative number of their
//   width.  So a proof says rtl/'s part only gives values that the next part is proven on.
//   PART 1 and PART 2 read their input cut from A and B: where the values matter, the same value on both
//   sides (an exponent E_LO + a[64 +: EB], past the top read as the top; s_dot or sum a's low bits, the
//   most negative number read as the next); where they do not, each side its own free value of its own
//   widths, rtl/'s from a, the specification's from b.  PART 1: C the port c, the findings b[84:80].
//   PART 2 (tests/prove/round_cut.svh, shared with GDFS's harness): rtl/'s d_nan, d_inf, d_inf_neg
//   a[98:96], and the specification's flags b[98:96] where they give the same verdict, else the
//   verdict's own (NaN: any_nan alone).  So a proof says the two parts
//   agree on every input cut the part before allows, whatever values a special value makes irrelevant.
// DECODE_CUT = 1 (PART 0): the specification's products decode their operands with rtl/'s mma_unpack
// (fdrda_spec_term), which tests/prove/fda_cut_harness.sv's PART 0 proves equal to spec_decode: the two
// sides' multipliers are then one (the 11-bit significands of f16 otherwise stall the solver).
// With the three proven, fdrda_datapath equals fdrda_spec_pass for every input (the parts compose the
// same way on both sides); fdrda_spec's PASS_CUT rows prove the rest of the unit.  PARTs 1 and 2 need
// K * AW of at least 102 bits (an elaboration error otherwise).
`include "tests/prove/spec_common.svh"
`include "tests/prove/fdrda_spec_pass.svh"
`include "tests/prove/round_cut.svh"

/* verilator lint_off UNUSEDSIGNAL */  // the contract's inputs that a half does not read
module fdrda_cut_harness #(
  parameter int SIDE      = 0,                           // 0: rtl/, 1: the specification, 2: a mutant
  parameter int PART      = 0,                           // 0: the dot sum, 1: C added, 2: the rounding
  parameter int K         = 16,
  parameter int F         = 24,
  parameter int CHAIN     = 1,
  parameter int ALGO      = mma_pkg::ALGO_GFDRDA,
  parameter int AB_MASK   = (1 << mma_pkg::FMT_E4M3FNUZ) | (1 << mma_pkg::FMT_E5M2FNUZ),
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,
  parameter int ALIGN_C   = mma_pkg::ROUND_RD,
  parameter int OUT       = mma_pkg::OUT_F32_RNE,
  parameter int AW        = 8,
  parameter int NSW       = 1,
  parameter int DECODE_CUT = 0                           // PART 0: the specification decodes with rtl/'s mma_unpack
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
  localparam int KP   = K / CHAIN;                                    // products per pass
  localparam int FM   = SIDE == 2 && PART == 0 ? F - 1 : F;           // PART 0's mutant
  localparam int DSW  = mma_pkg::fdrda_dot_width(KP, FM, ALGO);       // rtl/'s s_dot, sum ...
  localparam int RSW  = mma_pkg::fdrda_sum_width(KP, F, ALGO);
  localparam int LW   = mma_pkg::EW + 2;                              // ... and exponents
  localparam int SEW  = 16;                                           // the specification's
  localparam int SSW  = fdrda_spec_sum_width(KP, F, AB_MASK);
  localparam int E_LO = 2 * mma_pkg::ZERO_EXP;
  localparam int E_HI = 2 * cut_top_exp(AB_MASK);
  localparam int EB   = $clog2(E_HI - E_LO + 1);
  localparam int C_HI = (1 << mma_pkg::fmt_exp_bits(mma_pkg::FMT_F32)) - 2 - mma_pkg::fmt_bias(mma_pkg::FMT_F32);
  localparam int L_LO = (E_LO < mma_pkg::ZERO_EXP ? E_LO : mma_pkg::ZERO_EXP) - mma_pkg::FDRDA_DOT_F;
  localparam int L_HI = (E_HI > C_HI ? E_HI : C_HI) - mma_pkg::FDRDA_DOT_F;
  localparam int AC_M = ALIGN_C == mma_pkg::ROUND_RD ? mma_pkg::ROUND_RZ : mma_pkg::ROUND_RD;  // PART 1's mutant

  // PARTs 1 and 2 read their input cut from A's and B's bits 0 to 101 (a[101:100] the word, b[98:96] flags)
  if (PART != 0 && K * AW < 102) begin : g_cut_too_narrow
    $error("fdrda_cut_harness: PART 1 and PART 2 read 102 bits of A and B; K * AW is fewer");
  end

  logic                   nan, pos_inf, neg_inf, pos_ovf, neg_ovf, special;
  logic signed [63:0]     s64;                                        // the cut's s_dot and e_dot,
  logic signed [SEW-1:0]  e16;                                        // sign-extended
  logic                   in_range;
  logic [31:0]            result;
  generate
    if (PART == 0) begin : g_dot
      if (SIDE != 1) begin : g_rtl
        logic signed [DSW-1:0] s_dot;
        logic signed [LW-1:0]  e_dot;
        fdrda_dot #(.KD(KP), .F(FM), .ALGO(ALGO), .AB_MASK(AB_MASK), .ALIGN_DOT(ALIGN_DOT), .AW(AW)) u_dot (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[KP*AW-1:0]), .b(b[KP*AW-1:0]), .s_dot(s_dot), .e_dot(e_dot),
          .nan(nan), .pos_inf(pos_inf), .neg_inf(neg_inf), .pos_ovf(pos_ovf), .neg_ovf(neg_ovf));
        assign s64 = 64'(s_dot);
        assign e16 = SEW'(e_dot);
        assign in_range = e_dot >= LW'(E_LO) && e_dot <= LW'(E_HI) && s_dot != {1'b1, {(DSW-1){1'b0}}};
      end else begin : g_spec
        logic signed [SSW-1:0] s_dot;
        logic signed [SEW-1:0] e_dot;
        fdrda_spec_dot #(.K(KP), .F(F), .ALGO(ALGO), .AB_MASK(AB_MASK), .ALIGN_DOT(ALIGN_DOT), .AW(AW),
                         .EW(SEW), .SW(SSW), .DECODE_CUT(DECODE_CUT)) u_dot (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[KP*AW-1:0]), .b(b[KP*AW-1:0]), .e_dot(e_dot), .s_dot(s_dot),
          .nan(nan), .pos_inf(pos_inf), .neg_inf(neg_inf), .pos_ovf(pos_ovf), .neg_ovf(neg_ovf));
        assign s64 = 64'(s_dot);
        assign e16 = e_dot;
        assign in_range = 1'b1;
      end
      logic signed [63:0]    s_cut;
      logic signed [SEW-1:0] e_cut;
      assign special = nan | pos_inf | neg_inf | pos_ovf | neg_ovf;
      assign s_cut   = special ? '0 : s64;
      assign e_cut   = special ? '0 : e16;
      always @*
        case (c[1:0])
          2'd0:    result = s_cut[31:0];
          2'd1:    result = s_cut[63:32];
          2'd2:    result = 32'({special | in_range, nan, pos_inf, neg_inf, pos_ovf, neg_ovf, e_cut});
          default: result = '0;
        endcase
    end else if (PART == 1) begin : g_add_c
      // the cut PART 0 allows, the same on both sides where no finding is set
      logic [EB-1:0]         e_field;
      logic signed [DSW-1:0] s_in;
      logic signed [LW-1:0]  e_in;
      logic [1:0]            verdict;
      logic signed [63:0]    sum64;
      logic signed [SEW-1:0] lsb16;
      logic                  ok;
      assign {neg_ovf, pos_ovf, neg_inf, pos_inf, nan} = b[80 +: 5];
      assign special = nan | pos_inf | neg_inf | pos_ovf | neg_ovf;
      assign e_field = a[64 +: EB];
      assign e_in    = LW'(E_LO) + (e_field > EB'(E_HI - E_LO) ? LW'(E_HI - E_LO) : LW'(e_field));
      assign s_in    = a[DSW-1:0] == {1'b1, {(DSW-1){1'b0}}} ? {1'b1, {(DSW-2){1'b0}}, 1'b1} : a[DSW-1:0];
      if (SIDE != 1) begin : g_rtl
        logic signed [RSW-1:0] sum;
        logic signed [LW-1:0]  lsb;
        logic                  d_nan, d_inf, d_inf_neg;
        fdrda_add_c #(.ALGO(ALGO), .F(F), .DSW(DSW), .ALIGN_DOT(ALIGN_DOT), .ALIGN_C(SIDE == 2 ? AC_M : ALIGN_C),
                      .SW(RSW)) u_add_c (
          .c(c), .s_dot(special ? a[DSW-1:0] : s_in), .e_dot(special ? a[64 +: LW] : e_in), .nan(nan),
          .pos_inf(pos_inf), .neg_inf(neg_inf), .pos_ovf(pos_ovf), .neg_ovf(neg_ovf), .sum(sum), .lsb_exp(lsb),
          .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));
        assign verdict = cut_verdict_rtl(d_nan, d_inf, d_inf_neg);
        assign sum64   = 64'(sum);
        assign lsb16   = SEW'(lsb);
        assign ok      = lsb >= LW'(L_LO) && lsb <= LW'(L_HI) && sum != {1'b1, {(RSW-1){1'b0}}};
      end else begin : g_spec
        logic signed [SSW-1:0] sum;
        logic signed [SEW-1:0] lsb;
        logic                  any_nan, p_inf, n_inf;
        fdrda_spec_add_c #(.F(F), .ALGO(ALGO), .ALIGN_DOT(ALIGN_DOT), .ALIGN_C(ALIGN_C),
                           .C_FMT(mma_pkg::FMT_F32), .EW(SEW), .SW(SSW)) u_add_c (
          .c(c), .e_dot(special ? b[64 +: SEW] : SEW'(e_in)), .s_dot(special ? b[SSW-1:0] : SSW'(s_in)),
          .nan(nan), .pos_inf(pos_inf), .neg_inf(neg_inf), .pos_ovf(pos_ovf), .neg_ovf(neg_ovf), .sum(sum),
          .lsb(lsb), .any_nan(any_nan), .p_inf(p_inf), .n_inf(n_inf));
        assign verdict = cut_verdict_spec(any_nan, p_inf, n_inf);
        assign sum64   = 64'(sum);
        assign lsb16   = lsb;
        assign ok      = 1'b1;
      end
      sum_cut_word #(.SEW(SEW)) u_word (.sel(a[100 +: 2]), .verdict(verdict), .sum(sum64), .lsb(lsb16), .in_range(ok),
                                        .word(result));
      assign {s64, e16, in_range} = '0;
    end else begin : g_round
      // the cut PART 1 allows (tests/prove/round_cut.svh)
      round_cut #(.SIDE(SIDE), .OUT(OUT), .RSW(RSW), .LW(LW), .SSW(SSW), .SEW(SEW), .L_LO(L_LO), .L_HI(L_HI))
        u_round (.a(a[101:0]), .b(b[101:0]), .d(result));
      assign {nan, pos_inf, neg_inf, pos_ovf, neg_ovf, special} = '0;
      assign {s64, e16, in_range} = '0;
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(result),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
/* verilator lint_on UNUSEDSIGNAL */
