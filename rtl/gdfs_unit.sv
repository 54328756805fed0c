// gdfs_unit: group dot, fused sum (docs/algorithms.md, GDFS; OMMA.SF / UTCOMMA on MXFP4 and NVFP4).
// K e2m1 products are summed exactly in groups of G = 16 whatever the block size; each group sum is
// scaled by its block's two scale factors (UE8M0 or UE4M3, chosen at run time, as is the block size 16
// or 32), whose exponents alone are the term's exponent; C and the K/G terms are aligned to e_max keeping
// F = 35 fractional bits (truncated), summed exactly and rounded to f32 toward zero.  Valid/ready as
// fda_unit with CHAIN = 1 (mma_handshake).
module gdfs_unit #(
  parameter int K = 64,
  parameter int G = mma_pkg::GDFS_GROUP,   // the model's group of 16 (cmodel/src/kind_consts.h)
  parameter int F = 35
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_s,      // FMT_UE8M0 or FMT_UE4M3
  input  logic                          block32,    // 1: one scale per 32 elements, 0: per 16
  input  logic [31:0]                   c,          // f32
  input  logic [K*4-1:0]                a, b,       // e2m1 lanes
  input  logic [K/G*8-1:0]              sa, sb,     // K/G scale slots; with block32 the first K/32 are read
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int EW  = mma_pkg::EW;
  localparam int NG  = K / G;
  localparam int SM  = (1 << mma_pkg::FMT_UE8M0) | (1 << mma_pkg::FMT_UE4M3);
  localparam int SF  = mma_pkg::max_man_bits(SM);          // fractional bits of a scale significand
  localparam int GF  = 2 + 2 * SF;         // fractional bits of gamma: e2m1 product 2, two scales
  localparam int PW  = 8;                  // e2m1 product in units of 2^-2: at most 36 * 4 = 144
  localparam int GSW = PW + 1 + mma_pkg::clog2(G);   // signed group sum
  localparam int GMW = GSW - 1 + 2 * (SF + 1);       // gamma magnitude
  localparam int XW  = GMW + (F - GF);     // on the F grid (F > 23 and F > GF)
  localparam int CF  = mma_pkg::fmt_man_bits(mma_pkg::FMT_F32);
  localparam int E2M1 = 1 << mma_pkg::FMT_E2M1;

  // ---- Steps 2-3: exact products, summed in groups of G ----
  logic signed [GSW-1:0] sigma [NG];
  logic signed [PW:0] prod [K];
  genvar i;
  generate
    for (i = 0; i < K; i++) begin : g_lane
      mma_pkg::fp_t ua, ub;
      logic [1:0] ga, gb;
      logic [PW-1:0] p;
      logic [2:0] shift;
      mma_unpack #(.MASK(E2M1), .MW(1), .IW(4)) u_a (
        .raw(a[i*4 +: 4]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_E2M1)), .u(ua), .sig(ga));
      mma_unpack #(.MASK(E2M1), .MW(1), .IW(4)) u_b (
        .raw(b[i*4 +: 4]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_E2M1)), .u(ub), .sig(gb));
      // e2m1 exponents are 0..2 above the minimum 0; a zero has sig 0 and no shift
      assign shift = (mma_pkg::fp_is_zero(ua) ? 3'd0 : 3'(mma_pkg::fp_exp(ua)))
                   + (mma_pkg::fp_is_zero(ub) ? 3'd0 : 3'(mma_pkg::fp_exp(ub)));
      assign p = PW'(ga * gb) << shift;
      assign prod[i] = (mma_pkg::fp_sign(ua) ^ mma_pkg::fp_sign(ub)) ? -((PW+1)'(p)) : (PW+1)'(p);
    end
    for (i = 0; i < NG; i++) begin : g_group
      logic signed [GSW-1:0] acc;
      always @* begin
        acc = '0;
        for (int k = 0; k < G; k++) acc = acc + GSW'(prod[i*G + k]);
      end
      assign sigma[i] = acc;
    end
  endgenerate

  // ---- Step 4: gamma_g = sigma_g * s_sa * s_sb with exponent e_sa + e_sb; C is term 0 ----
  logic [NG-1:0] s_nan;
  logic [NG:0] t_neg;
  logic [(NG+1)*EW-1:0] exps;
  logic [(NG+1)*XW-1:0] x;
  generate
    for (i = 0; i < NG; i++) begin : g_gamma
      localparam int J32 = i * G / 32;    // the block of group i when blocks are 32 wide
      mma_pkg::fp_t usa, usb;
      logic [SF:0] ga, gb;
      logic [GSW-2:0] mag;
      mma_unpack #(.MASK(SM), .MW(SF), .IW(8)) u_sa (
        .raw(block32 ? sa[J32*8 +: 8] : sa[i*8 +: 8]), .fmt(fmt_s), .u(usa), .sig(ga));
      mma_unpack #(.MASK(SM), .MW(SF), .IW(8)) u_sb (
        .raw(block32 ? sb[J32*8 +: 8] : sb[i*8 +: 8]), .fmt(fmt_s), .u(usb), .sig(gb));
      assign s_nan[i] = mma_pkg::fp_is_nan(usa) | mma_pkg::fp_is_nan(usb);
      assign t_neg[i+1] = sigma[i][GSW-1];
      assign mag = (GSW-1)'(t_neg[i+1] ? -sigma[i] : sigma[i]);
      assign x[(i+1)*XW +: XW] = XW'(GMW'(mag) * GMW'(ga) * GMW'(gb)) << (F - GF);
      assign exps[(i+1)*EW +: EW] = mma_pkg::fp_exp(usa) + mma_pkg::fp_exp(usb);
    end
  endgenerate

  // ---- C and Step 1 ----
  mma_pkg::fp_t uc;
  logic [CF:0] c_sig;
  mma_unpack #(.MASK(1 << mma_pkg::FMT_F32), .MW(CF), .IW(32)) u_c (
    .raw(c), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F32)), .u(uc), .sig(c_sig));
  assign t_neg[0] = mma_pkg::fp_sign(uc);
  assign exps[0 +: EW] = mma_pkg::fp_exp(uc);
  assign x[0 +: XW] = XW'(c_sig) << (F - CF);
  logic d_nan, d_inf, d_inf_neg;
  // every group reads its own block's scales, so with block32 the unused slots never reach s_nan
  mma_special #(.N(2)) u_special (
    .nan({|s_nan, mma_pkg::fp_is_nan(uc)}), .inf({1'b0, mma_pkg::fp_is_inf(uc)}),
    .neg({1'b0, mma_pkg::fp_sign(uc)}),
    .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  // ---- Steps 5-6: align to e_max keeping F fractional bits, exact sum ----
  localparam int SW = XW + 1 + mma_pkg::clog2(NG + 1);
  logic signed [SW-1:0] sum;
  logic signed [EW+1:0] lsb_exp;
  mma_align_sum #(.N(NG + 1), .F(F), .XW(XW), .OW(XW), .EXTRA(0), .SW(SW), .SHW(EW + 1)) u_sum (
    .x(x), .neg(t_neg), .exps(exps), .sum(sum), .lsb_exp(lsb_exp));

  // ---- Step 7: f32 RZ, and the handshake ----
  logic [31:0] dp_d;
  mma_encode #(.SW(SW), .LW(EW + 2), .OUT_MASK(1 << mma_pkg::OUT_F32_RZ), .DW(32)) u_encode (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(mma_pkg::OUT_BITS'(mma_pkg::OUT_F32_RZ)),
    .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(dp_d));

  logic accept, last, hold;
  logic [0:0] pass;
  logic unused_hs;
  mma_handshake #(.PASSES(1), .DW(32)) u_hs (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .accept(accept),
    .final_pass(1'b0), .pass(pass), .last(last), .hold(hold), .d_in(dp_d), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
  assign unused_hs = ^{accept, last, pass, hold};
endmodule
