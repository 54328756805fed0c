// fdrda_dot: the products' half of one FDRDA or GFDRDA pass (docs/algorithms.md, AMD: FDRDA Steps 0-5,
// GFDRDA Steps 0-7), everything that does not read C; rtl/fdrda_add_c.sv adds C (fdrda_datapath: the two).
//   Step 2: exact products; |p_k| >= 2^128 (FP32's overflow threshold) overflows (Step 3).
//   Steps 4-5: the products aligned to e_dot = max e_k keeping F fractional bits, truncated, summed
//     exactly (GFDRDA: even and odd lanes apart, each sum then rounded ALIGN_DOT onto e_dot, F bits kept).
// Out: the dot sum s_dot * 2^(e_dot - F), and what Steps 1 and 3 need of the products: whether one is
// NaN (a NaN operand, 0 * inf), +inf or -inf, or overflows to +inf or to -inf (finite operands).
module fdrda_dot #(
  parameter int KD        = 8,                                // products per pass
  parameter int F         = 24,                               // Step 4: fractional bits of the products
  parameter int ALGO      = mma_pkg::ALGO_FDRDA,              // ALGO_FDRDA or ALGO_GFDRDA
  parameter int AB_MASK   = 1 << mma_pkg::FMT_F16,
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,                // GFDRDA Steps 6-7's rounding of the two sums
  parameter int AW        = mma_pkg::max_width(AB_MASK),
  parameter int DSW       = mma_pkg::fdrda_dot_width(KD, F, ALGO)
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [KD*AW-1:0]              a, b,
  output logic signed [DSW-1:0]         s_dot,
  output logic signed [mma_pkg::EW+1:0] e_dot,
  output logic                          nan, pos_inf, neg_inf,  // Step 1: some product NaN, +inf, -inf
  output logic                          pos_ovf, neg_ovf        // Step 3: some product past 2^128
);
  localparam int EW       = mma_pkg::EW;
  localparam int LW       = EW + 2;                           // exponent arithmetic
  localparam int OVF_EXP  = mma_pkg::AMD_PRODUCT_OVERFLOW_EXP;  // Step 2: 2^128
  localparam int MW       = mma_pkg::max_man_bits(AB_MASK);
  localparam int PF       = 2 * MW;                           // fractional bits of a product
  localparam int TF       = mma_pkg::imax(PF, F);             // grid before truncation to F
  localparam int XW       = TF + 2;                           // a product is below 4
  localparam bit GROUPED  = ALGO == mma_pkg::ALGO_GFDRDA;
  localparam int NS       = GROUPED ? 2 : 1;                  // product sums: all, or even and odd
  localparam int NL       = KD / NS;                          // products per sum
  localparam int PSW      = F + 3 + mma_pkg::clog2(NL);       // signed product sum

  // ---- Steps 0, 2: exact products, their overflow ----
  logic [KD-1:0] p_nan, p_inf, p_neg, p_ovf;
  logic [KD*EW-1:0] p_exp;
  logic [KD*XW-1:0] p_x;
  genvar i, j;
  generate
    for (i = 0; i < KD; i++) begin : g_lane
      mma_pkg::fp_t ua, ub;
      logic [MW:0] ga, gb;
      logic [PF+1:0] sig;
      logic [mma_pkg::clog2(PF + 3)-1:0] lz;
      logic signed [EW-1:0] e;
      mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_a (.raw(a[i*AW +: AW]), .fmt(fmt_a), .u(ua), .sig(ga));
      mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_b (.raw(b[i*AW +: AW]), .fmt(fmt_b), .u(ub), .sig(gb));
      assign sig = ga * gb;
      assign e   = mma_pkg::fp_exp(ua) + mma_pkg::fp_exp(ub);
      mma_lzc #(.W(PF + 2)) u_lzc (.x(sig), .count(lz));
      assign p_nan[i] = mma_pkg::fp_prod_nan(ua, ub);
      assign p_inf[i] = mma_pkg::fp_prod_inf(ua, ub);
      assign p_neg[i] = mma_pkg::fp_sign(ua) ^ mma_pkg::fp_sign(ub);
      // the leading one of sig * 2^(e - PF) has weight e + 1 - lz
      assign p_ovf[i] = sig != '0 && LW'(e) + LW'(1) - $signed(LW'(lz)) >= LW'(OVF_EXP);
      assign p_exp[i*EW +: EW] = e;
      assign p_x[i*XW +: XW]   = XW'(sig) << (TF - PF);
    end
  endgenerate
  assign nan     = |p_nan;
  assign pos_inf = |(p_inf & ~p_neg);
  assign neg_inf = |(p_inf & p_neg);
  assign pos_ovf = |(p_ovf & ~p_neg);
  assign neg_ovf = |(p_ovf & p_neg);

  // ---- Steps 4-5 (GFDRDA 4-7): the dot sum s_dot * 2^(e_dot - F) ----
  logic signed [PSW-1:0] s_part [NS];
  logic signed [LW-1:0]  e_part [NS];
  generate
    for (i = 0; i < NS; i++) begin : g_part
      // lanes i, i + NS, i + 2 NS, ...: all of them (FDRDA), the even or the odd ones (GFDRDA)
      logic [NL*XW-1:0] x;
      logic [NL-1:0]    neg;
      logic [NL*EW-1:0] exps;
      logic signed [LW-1:0] lsb;
      for (j = 0; j < NL; j++) begin : g_pick
        assign x[j*XW +: XW]    = p_x[(j*NS + i)*XW +: XW];
        assign neg[j]           = p_neg[j*NS + i];
        assign exps[j*EW +: EW] = p_exp[(j*NS + i)*EW +: EW];
      end
      mma_align_sum #(.N(NL), .F(F), .XW(XW), .OW(F + 2), .EXTRA(TF - F), .SW(PSW)) u_sum (
        .x(x), .neg(neg), .exps(exps), .sum(s_part[i]), .lsb_exp(lsb));
      assign e_part[i] = lsb + LW'(F);
    end
    if (!GROUPED) begin : g_fused
      assign s_dot = s_part[0];
      assign e_dot = e_part[0];
    end else begin : g_grouped
      // GFDRDA Steps 6-7: both sums rounded (down) onto e_dot = max(e_even, e_odd), F bits kept
      logic [PSW-2:0] y [2];
      assign e_dot = e_part[0] > e_part[1] ? e_part[0] : e_part[1];
      for (i = 0; i < 2; i++) begin : g_realign
        logic neg;
        assign neg = s_part[i][PSW-1];
        mma_align #(.XW(PSW - 1), .OW(PSW - 1), .SHW(LW), .ROUND(ALIGN_DOT)) u_align (
          .x((PSW-1)'(neg ? -s_part[i] : s_part[i])), .neg(neg), .sh(e_dot - e_part[i]), .y(y[i]));
      end
      assign s_dot = (s_part[0][PSW-1] ? -(DSW'(y[0])) : DSW'(y[0])) + (s_part[1][PSW-1] ? -(DSW'(y[1])) : DSW'(y[1]));
    end
  endgenerate
endmodule
