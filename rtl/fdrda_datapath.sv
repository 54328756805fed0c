// fdrda_datapath: one combinational FDRDA or GFDRDA pass over KD products (docs/algorithms.md, AMD:
// FDRDA Steps 0-8, GFDRDA Steps 4-8), the CDNA3 xf32/f16/bf16 and fp8/bf8 MFMA.
//   Step 2: exact products; |p_k| >= 2^128 (FP32's overflow threshold) is +-inf (Step 3).
//   Steps 4-5: the products (not C) aligned to e_dot = max e_k keeping F fractional bits, truncated,
//     summed exactly (GFDRDA: even and odd lanes apart, each sum then rounded down onto e_dot, F bits).
//   Step 6: e_max = max(e_dot, e_c); the dot sum re-aligned to e_max keeping DOT_F = 31 fractional bits,
//     C keeping C_F = 24, both rounded by the table's align_products / align_c (RD on the hardware);
//     GFDRDA: a C below e_max - 25 is dropped (rounded toward zero, it is 0).
//   Steps 7-8: exact sum in units of 2^(e_max - 31), rounded to D (OUT: f32 RNE).
module fdrda_datapath #(
  parameter int KD        = 8,                                // products per pass
  parameter int F         = 24,                               // Step 4: fractional bits of the products
  parameter int ALGO      = mma_pkg::ALGO_FDRDA,              // ALGO_FDRDA or ALGO_GFDRDA
  parameter int AB_MASK   = 1 << mma_pkg::FMT_F16,
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,                // Step 6 rounding of the dot sum
  parameter int ALIGN_C   = mma_pkg::ROUND_RD,                // Step 6 rounding of C
  parameter int OUT       = mma_pkg::OUT_F32_RNE,
  parameter int AW        = mma_pkg::max_width(AB_MASK)
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [31:0]                   c,      // f32
  input  logic [KD*AW-1:0]              a, b,
  output logic [31:0]                   d
);
  localparam int EW       = mma_pkg::EW;
  localparam int LW       = EW + 2;                           // exponent arithmetic
  // the model's per-kind constants (cmodel/src/kind_consts.h, through rtl/mma_formats.svh)
  localparam int DOT_F    = mma_pkg::FDRDA_DOT_F;             // Step 6: the dot sum keeps 31 bits ...
  localparam int C_F      = mma_pkg::FDRDA_C_F;               // ... and C 24, below 2^e_max
  localparam int C_WINDOW = mma_pkg::GFDRDA_C_WINDOW;         // GFDRDA Step 8: C dropped below e_max - 25
  localparam int OVF_EXP  = mma_pkg::AMD_PRODUCT_OVERFLOW_EXP;  // Step 2: 2^128
  localparam int MW       = mma_pkg::max_man_bits(AB_MASK);
  localparam int PF       = 2 * MW;                           // fractional bits of a product
  localparam int TF       = mma_pkg::imax(PF, F);             // grid before truncation to F
  localparam int XW       = TF + 2;                           // a product is below 4
  localparam int CF       = mma_pkg::fmt_man_bits(mma_pkg::FMT_F32);
  localparam bit GROUPED  = ALGO == mma_pkg::ALGO_GFDRDA;
  localparam int NS       = GROUPED ? 2 : 1;                  // product sums: all, or even and odd
  localparam int NL       = KD / NS;                          // products per sum
  localparam int PSW      = F + 3 + mma_pkg::clog2(NL);       // signed product sum
  localparam int DSW      = PSW + NS - 1;                     // signed dot sum (GFDRDA: two added)
  localparam int TW       = DSW - 1 + DOT_F - F;              // dot sum magnitude on the 31-bit grid
  localparam int CW       = CF + 1 + C_F - CF;                // C's magnitude on the 24-bit grid
  localparam int SW       = mma_pkg::imax(TW, CW + DOT_F - C_F) + 2;  // signed Step 7 sum

  // ---- C ----
  mma_pkg::fp_t uc;
  logic [CF:0] c_sig;
  mma_unpack #(.MASK(1 << mma_pkg::FMT_F32), .MW(CF), .IW(32)) u_c (
    .raw(c), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F32)), .u(uc), .sig(c_sig));

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

  // ---- Steps 1 and 3: special values (an infinity of Step 1 wins over a product's overflow) ----
  logic nan1, inf1, neg1, nan3, inf3, neg3, d_nan, d_inf, d_inf_neg;
  mma_special #(.N(KD + 1)) u_special_inputs (
    .nan({p_nan, mma_pkg::fp_is_nan(uc)}), .inf({p_inf, mma_pkg::fp_is_inf(uc)}), .neg({p_neg, mma_pkg::fp_sign(uc)}),
    .d_nan(nan1), .d_inf(inf1), .d_inf_neg(neg1));
  mma_special #(.N(KD)) u_special_products (
    .nan('0), .inf(p_ovf), .neg(p_neg), .d_nan(nan3), .d_inf(inf3), .d_inf_neg(neg3));
  assign d_nan     = nan1 || (!inf1 && nan3);
  assign d_inf     = inf1 || inf3;
  assign d_inf_neg = inf1 ? neg1 : neg3;

  // ---- Steps 4-5 (GFDRDA 4-7): the dot sum s_dot * 2^(e_dot - F) ----
  logic signed [DSW-1:0] s_dot;
  logic signed [LW-1:0]  e_dot;
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

  // ---- Step 6: the dot sum and C onto e_max = max(e_dot, e_c), rounded down ----
  logic signed [LW-1:0] e_c, e_max;
  logic dot_neg, c_drop;
  logic [TW-1:0] t_dot;
  logic [CW-1:0] t_c;
  logic [DSW-2:0] dot_mag;
  assign e_c     = LW'(mma_pkg::fp_exp(uc));
  assign e_max   = e_dot > e_c ? e_dot : e_c;
  assign dot_neg = s_dot[DSW-1];
  assign dot_mag = (DSW-1)'(dot_neg ? -s_dot : s_dot);
  mma_align #(.XW(TW), .OW(TW), .SHW(LW), .ROUND(ALIGN_DOT)) u_align_dot (
    .x(TW'(dot_mag) << (DOT_F - F)), .neg(dot_neg), .sh(e_max - e_dot), .y(t_dot));
  mma_align #(.XW(CW), .OW(CW), .SHW(LW), .ROUND(ALIGN_C)) u_align_c (
    .x(CW'(c_sig) << (C_F - CF)), .neg(mma_pkg::fp_sign(uc)), .sh(e_max - e_c), .y(t_c));
  assign c_drop = GROUPED && e_c < e_max - LW'(C_WINDOW);

  // ---- Step 7: exact sum in units of 2^(e_max - 31); Step 8: round to D ----
  logic signed [SW-1:0] sum, c_term;
  assign c_term = c_drop ? '0 : SW'(t_c) << (DOT_F - C_F);
  assign sum = (dot_neg ? -(SW'(t_dot)) : SW'(t_dot)) + (mma_pkg::fp_sign(uc) ? -c_term : c_term);
  mma_encode #(.SW(SW), .LW(LW), .OUT_MASK(1 << OUT), .DW(32)) u_encode (
    .sum(sum), .lsb_exp(e_max - LW'(DOT_F)), .out_kind(mma_pkg::OUT_BITS'(OUT)),
    .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(d));
endmodule
