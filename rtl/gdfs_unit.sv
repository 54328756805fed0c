// gdfs_unit: group dot, fused sum (docs/algorithms.md, GDFS; OMMA.SF / UTCOMMA on MXFP4 and NVFP4).
// K e2m1 products are summed exactly in groups of G = 16 whatever the block size; each group sum is
// scaled by its block's two scale factors (UE8M0 or UE4M3, chosen at run time, as is the block size 16
// or 32), whose exponents alone are the term's exponent (rtl/gdfs_group.sv); C and the K/G terms are
// aligned to e_max keeping F = 35 fractional bits (truncated), summed exactly (rtl/gdfs_sum.sv) and
// rounded to f32 toward zero (mma_encode).  Valid/ready as fda_unit with CHAIN = 1 (mma_handshake).
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
  localparam int XW  = mma_pkg::gdfs_term_width(G, F);
  localparam int SW  = mma_pkg::gdfs_sum_width(NG, G, F);

  // ---- Steps 2-4: each group's term (rtl/gdfs_group.sv), its block's scales ----
  logic [NG-1:0]    s_nan, t_neg;
  logic [NG*EW-1:0] t_e;
  logic [NG*XW-1:0] t_x;
  genvar i;
  generate
    for (i = 0; i < NG; i++) begin : g_group
      localparam int J32 = i * G / 32;    // the block of group i when blocks are 32 wide
      gdfs_group #(.G(G), .F(F), .XW(XW)) u_group (
        .fmt_s(fmt_s), .a(a[i*G*4 +: G*4]), .b(b[i*G*4 +: G*4]),
        .sa(block32 ? sa[J32*8 +: 8] : sa[i*8 +: 8]), .sb(block32 ? sb[J32*8 +: 8] : sb[i*8 +: 8]),
        .nan(s_nan[i]), .neg(t_neg[i]), .e(t_e[i*EW +: EW]), .x(t_x[i*XW +: XW]));
    end
  endgenerate

  // ---- Steps 1, 5-6: C and the terms, the exact sum (rtl/gdfs_sum.sv) ----
  logic signed [SW-1:0] sum;
  logic signed [EW+1:0] lsb_exp;
  logic d_nan, d_inf, d_inf_neg;
  gdfs_sum #(.NG(NG), .G(G), .F(F), .XW(XW), .SW(SW)) u_sum (
    .c(c), .s_nan(s_nan), .neg(t_neg), .e(t_e), .x(t_x), .sum(sum), .lsb_exp(lsb_exp),
    .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

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
