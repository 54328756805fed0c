// gdfs_unit: group dot, fused sum (docs/algorithms.md, GDFS; OMMA.SF / UTCOMMA on MXFP4 and NVFP4).
// K e2m1 products are summed exactly in groups of G = 16 whatever the block size; each group sum is
// scaled by its block's two scale factors (UE8M0 or UE4M3, chosen at run time, as is the block size 16
// or 32), whose exponents alone are the term's exponent; C and the K/G terms are aligned to e_max keeping
// F = 35 fractional bits (truncated), summed exactly and rounded to f32 toward zero.  Valid/ready as
// fda_unit with CHAIN = 1.
module gdfs_unit #(
  parameter int K = 64,
  parameter int G = 16,
  parameter int F = 35
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [3:0]       fmt_s,      // FMT_UE8M0 or FMT_UE4M3
  input  logic             block32,    // 1: one scale per 32 elements, 0: per 16
  input  logic [31:0]      c,          // f32
  input  logic [K*4-1:0]   a,          // e2m1 lanes
  input  logic [K*4-1:0]   b,
  input  logic [K/G*8-1:0] sa,         // K/G scale slots; with block32 only the first K/32 are read
  input  logic [K/G*8-1:0] sb,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [31:0]      d
);
  localparam int EW  = mma_pkg::EW;
  localparam int NG  = K / G;
  localparam int SM  = (1 << mma_pkg::FMT_UE8M0) | (1 << mma_pkg::FMT_UE4M3);
  localparam int GF  = 2 + 6;              // fractional bits of gamma: e2m1 product 2, two scales 3 each
  localparam int PW  = 8;                  // e2m1 product in units of 2^-2: at most 36 * 4 = 144
  localparam int GSW = PW + 1 + mma_pkg::clog2(G);   // signed group sum
  localparam int GMW = GSW - 1 + 8;        // gamma magnitude
  localparam int XW  = GMW + (F - GF);     // on the F grid (F > 23 and F > GF)
  localparam int SW  = XW + 1 + mma_pkg::clog2(NG + 1);
  localparam int SHW = EW + 1;

  // ---- Steps 2-3: exact products, summed in groups of G ----
  logic signed [GSW-1:0] sigma [NG];
  logic signed [PW:0] prod [K];
  genvar i;
  generate
    for (i = 0; i < K; i++) begin : g_lane
      logic sa_, sb_, za, zb;
      logic signed [EW-1:0] ea, eb;
      logic [1:0] ga, gb;
      logic [PW-1:0] p;
      /* verilator lint_off PINCONNECTEMPTY */
      mma_unpack #(.MASK(1 << mma_pkg::FMT_E2M1), .MW(1), .IW(4)) u_a (
        .raw(a[i*4 +: 4]), .fmt(4'(mma_pkg::FMT_E2M1)), .sign(sa_), .exp(ea), .sig(ga),
        .is_zero(za), .is_sub(), .is_inf(), .is_nan());
      mma_unpack #(.MASK(1 << mma_pkg::FMT_E2M1), .MW(1), .IW(4)) u_b (
        .raw(b[i*4 +: 4]), .fmt(4'(mma_pkg::FMT_E2M1)), .sign(sb_), .exp(eb), .sig(gb),
        .is_zero(zb), .is_sub(), .is_inf(), .is_nan());
      /* verilator lint_on PINCONNECTEMPTY */
      // e2m1 exponents are 0..2 above the minimum 0; a zero has sig 0 and no shift
      logic [2:0] shift;
      assign shift = (za ? 3'd0 : 3'(ea)) + (zb ? 3'd0 : 3'(eb));
      assign p = PW'(ga * gb) << shift;
      assign prod[i] = (sa_ ^ sb_) ? -((PW+1)'(p)) : (PW+1)'(p);
      logic unused_exp_bits;
      assign unused_exp_bits = ^{ea[EW-1:2], eb[EW-1:2]};
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

  // ---- Step 4: gamma_g = sigma_g * s_sa * s_sb with exponent e_sa + e_sb ----
  logic [NG-1:0] s_nan;
  logic [(NG+1)*EW-1:0] exps;
  logic [XW-1:0] g_x [NG];
  logic [NG-1:0] g_neg;
  generate
    for (i = 0; i < NG; i++) begin : g_gamma
      logic signed [EW-1:0] ea, eb;
      logic [3:0] ga, gb;
      logic na, nb;
      logic [GSW-2:0] mag;
      localparam int J32 = i * G / 32;    // the block of group i when blocks are 32 wide
      /* verilator lint_off PINCONNECTEMPTY */
      mma_unpack #(.MASK(SM), .MW(3), .IW(8)) u_sa (
        .raw(block32 ? sa[J32*8 +: 8] : sa[i*8 +: 8]), .fmt(fmt_s), .sign(), .exp(ea), .sig(ga),
        .is_zero(), .is_sub(), .is_inf(), .is_nan(na));
      mma_unpack #(.MASK(SM), .MW(3), .IW(8)) u_sb (
        .raw(block32 ? sb[J32*8 +: 8] : sb[i*8 +: 8]), .fmt(fmt_s), .sign(), .exp(eb), .sig(gb),
        .is_zero(), .is_sub(), .is_inf(), .is_nan(nb));
      /* verilator lint_on PINCONNECTEMPTY */
      assign s_nan[i] = na | nb;
      assign g_neg[i] = sigma[i][GSW-1];
      assign mag = (GSW-1)'(g_neg[i] ? -sigma[i] : sigma[i]);
      assign g_x[i] = XW'(GMW'(mag) * GMW'(ga) * GMW'(gb)) << (F - GF);
      assign exps[(i+1)*EW +: EW] = ea + eb;
    end
  endgenerate

  // ---- C and Step 1 ----
  logic c_sign, c_inf, c_nan;
  logic signed [EW-1:0] c_exp;
  logic [23:0] c_sig;
  /* verilator lint_off PINCONNECTEMPTY */
  mma_unpack #(.MASK(1 << mma_pkg::FMT_F32), .MW(23), .IW(32)) u_c (
    .raw(c), .fmt(4'(mma_pkg::FMT_F32)), .sign(c_sign), .exp(c_exp), .sig(c_sig),
    .is_zero(), .is_sub(), .is_inf(c_inf), .is_nan(c_nan));
  /* verilator lint_on PINCONNECTEMPTY */
  assign exps[0 +: EW] = c_exp;
  logic d_nan, d_inf, d_inf_neg;
  // every group reads its own block's scales, so with block32 the unused slots never reach s_nan
  mma_special #(.N(2)) u_special (
    .nan({|s_nan, c_nan}), .inf({1'b0, c_inf}), .neg({1'b0, c_sign}),
    .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  // ---- Steps 5-6: align to e_max keeping F fractional bits, exact sum ----
  logic signed [EW-1:0] e_max;
  mma_max_tree #(.N(NG + 1), .W(EW)) u_emax (.x(exps), .y(e_max));
  logic signed [SW-1:0] term [NG+1];
  generate
    for (i = 0; i <= NG; i++) begin : g_align
      logic [XW-1:0] x, y;
      logic [SHW-1:0] sh;
      logic s;
      if (i == 0) begin : g_c
        assign x = XW'(c_sig) << (F - 23);
        assign s = c_sign;
      end else begin : g_t
        assign x = g_x[i-1];
        assign s = g_neg[i-1];
      end
      logic signed [EW-1:0] e;
      assign e  = exps[i*EW +: EW];
      assign sh = SHW'(SHW'(e_max) - SHW'(e));
      mma_align #(.XW(XW), .OW(XW), .SHW(SHW)) u_align (.x(x), .sh(sh), .y(y));
      assign term[i] = s ? -(SW'(y)) : SW'(y);
    end
  endgenerate
  logic signed [SW-1:0] sum;
  always @* begin
    sum = '0;
    for (int k = 0; k <= NG; k++) sum = sum + term[k];
  end

  // ---- Step 7: f32 RZ ----
  logic [31:0] dp_d;
  logic signed [EW+1:0] lsb_exp;
  assign lsb_exp = (EW+2)'(e_max) - (EW+2)'(F);
  mma_round #(.SW(SW), .LW(EW + 2), .OUT_MASK(1 << mma_pkg::OUT_F32_RZ)) u_round (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(2'(mma_pkg::OUT_F32_RZ)),
    .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(dp_d));

  // ---- handshake ----
  logic accept;
  assign in_ready = !out_valid || out_ready;
  assign accept = in_valid && in_ready;
  always @(posedge clk) begin
    if (!rst_n) out_valid <= 1'b0;
    else if (accept) out_valid <= 1'b1;
    else if (out_ready) out_valid <= 1'b0;
    if (accept) d <= dp_d;
  end
endmodule
