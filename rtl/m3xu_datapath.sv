// m3xu_datapath: the M3XU dot-product unit's arithmetic for one step (docs/m3xu.md; the M3XU paper,
// Fig. 3(b)): L multipliers of MUL_W bits, one 48-bit product register per lane pair, and the fused sum
// (m3xu_sum).  The lanes' operands come from the data-assignment stage (m3xu_assign).
//   f16 / bf16 (one step, the baseline): lane l's product is a term of its own, summed with C as
//     Ampere's FDA sums them (F_LO = 24 fractional bits kept below e_max, truncated; f32 RZ, +0).
//   f32 / f32c part (two steps, Step 3 of the definition): in the first step lane 2i computes a_H b_H
//     and lane 2i+1 a_L b_L, and the pair's register takes (a_H b_H << 24) | a_L b_L (the fields do not
//     overlap); in the second lane 2i computes a_H b_L and lane 2i+1 a_L b_H, and the register plus
//     (a_H b_L + a_L b_H) << 12 is the exact product sig_a sig_b (48 bits, 46 fractional), exponent
//     e_a + e_b, the pair's one term; C and the L/2 products are aligned keeping F_HI = F_w = 46
//     fractional bits, summed and rounded to f32 RNE (subnormals kept, -0 for a negative sum that
//     rounds to zero).
// One grid serves both (m3xu_sum): F_HI fractional bits, a one-step term on F_LO bits with its exponent
// raised.  A unit without the wide modes (the baseline) keeps F_LO bits only.  d is this step's result (D's in a
// mode's last step; f32c's real part in its step 1).
module m3xu_datapath #(
  parameter int L       = 8,
  parameter int MUL_W   = 12,
  parameter int AB_MASK = (1 << mma_pkg::FMT_F16) | (1 << mma_pkg::FMT_BF16) | mma_pkg::M3XU_WIDE_FMTS,
  parameter int F_LO    = 24,                         // FP16/BF16: F of the baseline FDA
  parameter int F_HI    = 46,                         // FP32/FP32C: F_w
  parameter int OUT_LO  = mma_pkg::OUT_F32_RZ,        // D's output kind, FP16/BF16
  parameter int OUT_HI  = mma_pkg::OUT_F32_RNE,       // ... FP32 and each part of FP32C
  parameter int MUTANT  = 0                           // test only: 1 = a_L b_L dropped from the register
) (
  input  logic                          clk,
  input  logic                          wide,   // an f32 / f32c step
  input  logic                          load,   // a wide first step: the product registers take it
  input  logic [L*mma_pkg::FP_W-1:0]    ua, ub,
  input  logic [L*MUL_W-1:0]            sa, sb,
  input  mma_pkg::fp_t                  uc,
  input  logic [mma_pkg::M3XU_PART_MW:0]    c_sig,
  output logic [31:0]                   d
);
  localparam int EW     = mma_pkg::EW;
  localparam int FP_W   = mma_pkg::FP_W;
  localparam bit WIDE   = (AB_MASK & mma_pkg::M3XU_WIDE_FMTS) != 0;
  localparam int NMW    = mma_pkg::max_man_bits(AB_MASK & ~mma_pkg::M3XU_WIDE_FMTS);  // 10
  localparam int WMW    = mma_pkg::M3XU_PART_MW;   // 23
  localparam int HALF   = mma_pkg::M3XU_HALF;      // 12
  localparam int PRW    = 2 * (WMW + 1);           // 48: the product register
  localparam int F      = WIDE ? F_HI : F_LO;      // the sum's grid
  localparam int XW     = F + 2;
  // 5 wide terms below 2^48 need 52 bits; the one-step mode's 9 terms below 2^26, 31
  localparam int SW     = mma_pkg::imax(WIDE ? XW + 1 + mma_pkg::clog2(L / 2 + 1) : 0,
                                        F_LO + 3 + mma_pkg::clog2(L + 1));
  localparam logic signed [EW-1:0] NO_EXP = {1'b1, {(EW-1){1'b0}}};  // a lane without a term

  logic [L*XW-1:0]      x;
  logic [L-1:0]         neg, nan, inf;
  logic [L*EW-1:0]      exps;
  logic [L*2*MUL_W-1:0] m;  // the lanes' multipliers, lane l at [l*2*MUL_W +: 2*MUL_W]

  genvar l;
  generate
    for (l = 0; l < L; l++) begin : g_lane
      mma_pkg::fp_t a_l, b_l;
      assign a_l = ua[l*FP_W +: FP_W];
      assign b_l = ub[l*FP_W +: FP_W];
      mma_mul #(.AW(MUL_W)) u_mul (.a(sa[l*MUL_W +: MUL_W]), .b(sb[l*MUL_W +: MUL_W]), .p(m[l*2*MUL_W +: 2*MUL_W]));
      // Step 1 for the lane's product (in a wide mode both lanes of a pair see its elements)
      assign nan[l] = mma_pkg::fp_prod_nan(a_l, b_l);
      assign inf[l] = mma_pkg::fp_prod_inf(a_l, b_l);
      assign neg[l] = mma_pkg::fp_sign(a_l) ^ mma_pkg::fp_sign(b_l);
    end

    for (l = 0; l < L; l = l + 2) begin : g_pair
      logic signed [EW-1:0] e_even, e_odd;
      logic [2*MUL_W-1:0] m_even, m_odd;
      logic [XW-1:0] x_even, x_odd;
      assign m_even = m[l*2*MUL_W +: 2*MUL_W];
      assign m_odd  = m[(l+1)*2*MUL_W +: 2*MUL_W];
      assign e_even = mma_pkg::fp_exp(ua[l*FP_W +: FP_W]) + mma_pkg::fp_exp(ub[l*FP_W +: FP_W]);
      assign e_odd  = mma_pkg::fp_exp(ua[(l+1)*FP_W +: FP_W]) + mma_pkg::fp_exp(ub[(l+1)*FP_W +: FP_W]);
      // one-step terms: 2 NMW fractional bits placed on the F_LO grid
      assign x_even = XW'(m_even) << (F_LO - 2 * NMW);
      assign x_odd  = XW'(m_odd) << (F_LO - 2 * NMW);
      if (WIDE) begin : g_register
        logic [PRW-1:0] r, p;
        always @(posedge clk)
          if (load) r <= (PRW'(m_even) << (2 * HALF)) | (MUTANT == 1 ? '0 : PRW'(m_odd));
        assign p = r + ((PRW'(m_even) + PRW'(m_odd)) << HALF);
        assign x[l*XW +: XW]        = wide ? XW'(p) << (F - 2 * WMW) : x_even;
        assign x[(l+1)*XW +: XW]    = wide ? '0 : x_odd;
        assign exps[l*EW +: EW]     = e_even;
        assign exps[(l+1)*EW +: EW] = wide ? NO_EXP : e_odd;
      end else begin : g_single
        logic unused_pair;
        assign unused_pair = ^{load, clk};
        assign x[l*XW +: XW]        = x_even;
        assign x[(l+1)*XW +: XW]    = x_odd;
        assign exps[l*EW +: EW]     = e_even;
        assign exps[(l+1)*EW +: EW] = e_odd;
      end
    end
  endgenerate

  m3xu_sum #(.N(L), .F(F), .F_LO(F_LO), .XW(XW), .SW(SW), .OUT_LO(OUT_LO), .OUT_HI(OUT_HI)) u_sum (
    .wide(wide), .uc(uc), .c_sig(c_sig), .x(x), .neg(neg), .exps(exps), .nan(nan), .inf(inf), .d(d));
endmodule
