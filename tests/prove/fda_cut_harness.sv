// make prove's harness for one FDA pass (the fused dot-add of NVIDIA's Tensor Cores) cut in three, each
// part rtl/'s against the specification's (tests/prove/fda_spec_pass.svh) as fda_datapath and
// fda_spec_pass put them together for a pass of KD products of the unit's parameters:
//   PART = 0  the operands decoded: rtl/'s mma_unpack (in fda_term) against spec_decode, lane 0 of A in
//             fmt_a and of B in fmt_b, for every operand of their formats;
//   PART = 1  the products and their sum with C (Steps 1-4): KD rtl/fda_term.sv and rtl/fda_sum.sv
//             against KD fda_spec_term and fda_spec_sum, the specification's operands decoded by rtl/'s
//             mma_unpack (DECODE_CUT, which PART 0 proves equal to its own decoding): every product is then
//             the same multiplication of the same significands on the two sides, which a solver merges,
//             where two multipliers fed by differently built decoders stall it (an f16 lane alone: no
//             verdict in 600 s);
//   PART = 2  the exact sum rounded to D (Step 5): mma_encode against spec_round (round_cut.svh), on every
//             sum PART 1 allows, for the output kind of the port out_kind.
// It wears make verify's port contract so that make prove's harness can drive it; SIDE 0 is rtl/, 1 the
// specification, 2 a mutant of rtl/'s part (PART 0: a subnormal's exponent one short; 1: the last
// product left out of e_max (fda_sum's MUTANT); 2: D rounded to the other of f32-RNE and f32-RZ, an
// f16 D to f32-RZ).
// The word compared: WORD (0 to 3), or, where WORD is -1, chosen by C's low bits (PART 0; PART 1 reads
// C whole and needs WORD).  PART 0's words: A's significand, A's {sign, zero, inf, NaN, exponent}, B's
// significand, B's {sign, zero, inf, NaN, exponent}, the significands with as many fractional bits as
// the specification's pass decodes them with (DECODE_OF 0, fda_spec: the mantissa field's, tf32's 23;
// 1, fdrda_spec: the precision's, tf32's 10).  rtl/'s side is decode_cut.svh's spec_decode_rtl, the
// module DECODE_CUT puts in the specification.  PART 1's (sum_cut_word, round_cut.svh): the exact sum's low and high words,
// {range bit, verdict of Step 1 (0 the sum, 1 NaN, 2 +inf, 3 -inf), lsb}, the sum * 2^lsb read as 0 where
// the verdict is a special value; the range bit is 1 on the specification's side and, on rtl/'s, says lsb
// lies in [L_LO, L_HI] and the sum is not the most negative number of its width, where PART 2 is proven.
// With the three proven, fda_datapath equals fda_spec_pass for every input (the parts compose the same
// way on both sides); fda_spec's PASS_CUT rows prove the rest of the unit (the passes' chaining, the
// handshake).  PART 2 reads 102 bits of A and of B: a pass of few products is cut with a wider
// instruction's vector (K, KD).  PARTs 1 and 2 cut neither block scales nor AB_F16, nor a format whose
// operand significand is shorter than its mantissa field (tf32): an elaboration error.
`include "tests/prove/fda_spec_pass.svh"
`include "tests/prove/round_cut.svh"

/* verilator lint_off UNUSEDSIGNAL */  // the contract's inputs that a part does not read
/* verilator lint_off UNUSEDPARAM */   // the unit's parameters that no part reads
module fda_cut_harness #(
  parameter int SIDE     = 0,                             // 0: rtl/, 1: the specification, 2: a mutant
  parameter int PART     = 0,                             // 0: the operands, 1: the sum, 2: the rounding
  parameter int WORD     = -1,                            // the word compared (-1: C's low bits choose)
  parameter int K        = 16,
  parameter int F        = 24,
  parameter int CHAIN    = 1,
  parameter int KD       = K / CHAIN,                     // products of the pass
  parameter int BLOCK    = 0,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int ZERO_EXP = 0,
  parameter int AW       = 16,
  parameter int NSW      = 1,
  parameter int DECODE_OF = 0                            // PART 0: the decoding of fda_spec (0) or fdrda_spec (1)
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
  localparam int EW   = mma_pkg::EW;                                  // rtl/'s exponents
  localparam int LW   = EW + 2;
  localparam int MW   = mma_pkg::max_man_bits(AB_MASK);               // rtl/'s significands, ...
  localparam int TF   = mma_pkg::fda_grid_bits(AB_MASK, C_MASK | mma_pkg::out_formats(OUT_MASK), F);  // ... grid
  localparam int XW   = TF + 2;
  localparam int RSW  = mma_pkg::fda_sum_width(KD, F);                // ... and sum (fda_datapath's)
  localparam int SEW  = 16;                                           // the specification's exponents,
  localparam int SPW  = DECODE_OF == 1 ? mma_pkg::max_man_bits(AB_MASK)  // significands as the pass decodes them,
                                       : fda_spec_frac_bits(AB_MASK);
  localparam int G    = fda_spec_grid(AB_MASK, C_MASK, OUT_MASK, F, 0);  // grid
  localparam int SSW  = fda_spec_sum_width(KD, G, F);                 // and sum
  localparam int E_LO = ZERO_EXP != 0 && ZERO_EXP < 2 * mma_pkg::ZERO_EXP ? ZERO_EXP : 2 * mma_pkg::ZERO_EXP;
  localparam int E_HI = 2 * cut_top_exp(AB_MASK);                     // a product's exponents
  localparam int C_HI = (1 << mma_pkg::fmt_exp_bits(mma_pkg::FMT_F32)) - 1 - mma_pkg::fmt_bias(mma_pkg::FMT_F32);
  localparam int L_LO = E_LO - F;                                      // the lsb range PART 1 gives
  localparam int L_HI = mma_pkg::imax(E_HI, C_HI) - F;

  if (BLOCK != 0 || (PART != 0 && G != TF) || (PART == 1 && WORD < 0) || (PART == 2 && K * AW < 102) || KD > K)
  begin : g_not_cut
    $error("fda_cut_harness: block scales, another grid than the specification's, PART 1 without WORD, or too few bits of A and B");
  end

  logic [31:0] result;
  logic [1:0]  sel;                                                   // the word compared
  if (WORD >= 0) begin : g_word
    assign sel = 2'(WORD);
  end else begin : g_free_word
    assign sel = c[1:0];
  end
  generate
    if (PART == 0) begin : g_decode
      // lane 0 of A in fmt_a and of B in fmt_b: sign, exponent, significand, zero, inf, NaN
      logic [1:0]            s, zero, inf, nan;
      logic signed [SEW-1:0] e [2];
      logic [SPW:0]          m [2];
      genvar o;
      for (o = 0; o < 2; o++) begin : g_operand
        logic [AW-1:0]                 raw;
        logic [mma_pkg::FMT_BITS-1:0]  fmt;
        assign raw = o == 0 ? a[AW-1:0] : b[AW-1:0];
        assign fmt = o == 0 ? fmt_a : fmt_b;
        if (SIDE != 1) begin : g_rtl
          // the cut's own decoder (decode_cut.svh), as DECODE_CUT uses it; the mutant reads a subnormal
          // (neither zero, infinite nor NaN, the significand below its leading bit) one binade low
          logic signed [SEW-1:0] e_rtl;
          spec_decode_rtl #(.MASK(AB_MASK), .AW(AW), .MW(SPW), .EW(SEW)) u_decode (
            .fmt(fmt), .raw(raw), .s(s[o]), .e(e_rtl), .m(m[o]), .zero(zero[o]), .inf(inf[o]), .nan(nan[o]));
          assign e[o] = e_rtl - SEW'(SIDE == 2 && !zero[o] && !inf[o] && !nan[o] && !m[o][SPW] ? 1 : 0);
        end else begin : g_spec
          spec_decode #(.MASK(AB_MASK), .AW(AW), .MW(SPW), .EW(SEW)) u_decode (
            .fmt(fmt), .raw(raw), .s(s[o]), .e(e[o]), .m(m[o]), .zero(zero[o]), .inf(inf[o]), .nan(nan[o]));
        end
      end
      always @*
        case (sel)
          2'd0:    result = 32'(m[0]);
          2'd1:    result = 32'({s[0], zero[0], inf[0], nan[0], e[0]});
          2'd2:    result = 32'(m[1]);
          default: result = 32'({s[1], zero[1], inf[1], nan[1], e[1]});
        endcase
    end else if (PART == 1) begin : g_sum
      // KD products of lanes 0 .. KD - 1 and C: each side's products (the specification's from rtl/'s
      // decoding, DECODE_CUT) and sum
      logic [1:0]            verdict;
      logic signed [63:0]    sum64;
      logic signed [SEW-1:0] lsb16;
      logic                  ok;
      genvar k;
      if (SIDE != 1) begin : g_rtl
        logic [KD-1:0]         p_nan, p_inf, p_neg;
        logic [KD*EW-1:0]      p_exp;
        logic [KD*XW-1:0]      p_x;
        logic signed [RSW-1:0] sum;
        logic signed [LW-1:0]  lsb;
        logic                  d_nan, d_inf, d_inf_neg;
        for (k = 0; k < KD; k++) begin : g_lane
          fda_term #(.AB_MASK(AB_MASK), .TF(TF), .ZERO_EXP(ZERO_EXP), .AW(AW)) u_term (
            .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[k*AW +: AW]), .b(b[k*AW +: AW]), .s_exp(EW'(0)), .nan(p_nan[k]),
            .inf(p_inf[k]), .neg(p_neg[k]), .exp(p_exp[k*EW +: EW]), .x(p_x[k*XW +: XW]));
        end
        fda_sum #(.KD(KD), .F(F), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .ZERO_EXP(ZERO_EXP),
                  .MUTANT(SIDE == 2 ? 1 : 0)) u_sum (
          .fmt_c(fmt_c), .out_kind(out_kind), .c(c), .p_nan(p_nan), .p_inf(p_inf), .p_neg(p_neg), .p_exp(p_exp),
          .p_x(p_x), .s_nan(1'b0), .sum(sum), .lsb_exp(lsb), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));
        assign verdict = cut_verdict_rtl(d_nan, d_inf, d_inf_neg);
        assign sum64   = 64'(sum);
        assign lsb16   = SEW'(lsb);
        assign ok      = lsb >= LW'(L_LO) && lsb <= LW'(L_HI) && sum != {1'b1, {(RSW-1){1'b0}}};
      end else begin : g_spec
        logic [KD-1:0]         t_neg, t_nan, t_pinf, t_ninf;
        logic [KD*SEW-1:0]     t_e;
        logic [KD*XW-1:0]      t_x;
        logic signed [SSW-1:0] sum;
        logic signed [SEW-1:0] lsb;
        logic                  any_nan, pos_inf, neg_inf;
        for (k = 0; k < KD; k++) begin : g_lane
          fda_spec_term #(.AB_MASK(AB_MASK), .ZERO_EXP(ZERO_EXP), .DECODE_CUT(1), .AW(AW), .PW(MW), .G(G), .EW(SEW)) u_term (
            .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[k*AW +: AW]), .b(b[k*AW +: AW]), .sa(8'd0), .sb(8'd0), .neg(t_neg[k]),
            .e(t_e[k*SEW +: SEW]), .x(t_x[k*XW +: XW]), .nan(t_nan[k]), .pinf(t_pinf[k]), .ninf(t_ninf[k]));
        end
        fda_spec_sum #(.K(KD), .F(F), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .ZERO_EXP(ZERO_EXP), .G(G), .SUMW(SSW),
                       .EW(SEW)) u_sum (
          .fmt_c(fmt_c), .out_kind(out_kind), .c(c), .t_neg(t_neg), .t_e(t_e), .t_x(t_x), .t_nan(t_nan),
          .t_pinf(t_pinf), .t_ninf(t_ninf), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(pos_inf),
          .neg_inf(neg_inf));
        assign verdict = cut_verdict_spec(any_nan, pos_inf, neg_inf);
        assign sum64   = 64'(sum);
        assign lsb16   = lsb;
        assign ok      = 1'b1;
      end
      sum_cut_word #(.SEW(SEW)) u_word (.sel(sel), .verdict(verdict), .sum(sum64), .lsb(lsb16), .in_range(ok),
                                        .word(result));
    end else begin : g_round
      // the cut PART 1 allows (tests/prove/round_cut.svh), for the output kind of out_kind
      logic [31:0] d_kind [mma_pkg::NUM_OUTS];
      genvar o;
      for (o = 0; o < mma_pkg::NUM_OUTS; o++) begin : g_kind
        if (OUT_MASK[o]) begin : g_on
          round_cut #(.SIDE(SIDE), .OUT(o), .RSW(RSW), .LW(LW), .SSW(SSW), .SEW(SEW), .L_LO(L_LO), .L_HI(L_HI))
            u_round (.a(a[101:0]), .b(b[101:0]), .d(d_kind[o]));
        end else begin : g_off
          assign d_kind[o] = '0;
        end
      end
      assign result = out_kind < mma_pkg::OUT_BITS'(mma_pkg::NUM_OUTS) ? d_kind[out_kind] : '0;
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(result),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
