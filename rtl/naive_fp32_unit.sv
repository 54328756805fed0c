// naive_fp32_unit: the comparison design of the M3XU paper's Table III ("FP32 w/o FP32C"): the baseline
// dot-product unit widened to FP32 by brute force, L = 8 lanes of 24 x 24-bit multipliers, so that it
// takes K = 8 FP32 products every cycle, the FP32 FLOPs per cycle of the baseline's FP16 (and twice its
// operand bandwidth: A and B are L x 32 bits, lane l's f32 at [32l +: 32], L f16/bf16 values in the low
// half).  Its arithmetic is M3XU's FP32 mode in one step with K = 8 (docs/m3xu.md): exact products
// (48 bits, 46 fractional), C and the products aligned to e_max keeping F_HI = 46 fractional bits
// (truncated), summed exactly, rounded to f32 RNE; f16/bf16 are the baseline FDA (F_LO = 24, f32 RZ),
// on the same multipliers.  One operation a cycle (mma_handshake, one pass).
module naive_fp32_unit #(
  parameter int L       = 8,
  parameter int AB_MASK = (1 << mma_pkg::FMT_F16) | (1 << mma_pkg::FMT_BF16) | (1 << mma_pkg::FMT_F32),
  parameter int F_LO    = 24,
  parameter int F_HI    = 46,
  parameter int OUT_LO  = mma_pkg::OUT_F32_RZ,
  parameter int OUT_HI  = mma_pkg::OUT_F32_RNE,
  parameter int IW      = L * mma_pkg::M3XU_PART_W
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt,     // FMT_F16, FMT_BF16 or FMT_F32
  input  logic [31:0]                   c,
  input  logic [IW-1:0]                 a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d,
  output logic                          busy
);
  localparam int EW    = mma_pkg::EW;
  localparam int MW    = mma_pkg::max_man_bits(AB_MASK);      // 23: every format on f32's grid
  localparam int AW    = mma_pkg::max_width(AB_MASK);         // 32
  localparam int NW    = mma_pkg::max_width(AB_MASK & ~(1 << mma_pkg::FMT_F32));  // 16
  localparam int XW    = F_HI + 2;
  localparam int SW    = XW + 1 + mma_pkg::clog2(L + 1);
  localparam int F32   = 1 << mma_pkg::FMT_F32;

  logic wide;
  assign wide = mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32, fmt);

  mma_pkg::fp_t uc;
  logic [MW:0] c_sig;
  mma_unpack #(.MASK(F32), .MW(MW), .IW(32)) u_c (
    .raw(c), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F32)), .u(uc), .sig(c_sig));

  // ---- one exact product per lane (24 x 24 bits, 2 MW fractional) ----
  logic [L*XW-1:0] x;
  logic [L-1:0]    neg, nan, inf;
  logic [L*EW-1:0] exps;
  genvar l;
  generate
    for (l = 0; l < L; l++) begin : g_lane
      mma_pkg::fp_t ua, ub;
      logic [MW:0] ga, gb;
      logic [2*MW+1:0] p;
      mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_a (
        .raw(wide ? a[l*AW +: AW] : AW'(a[l*NW +: NW])), .fmt(fmt), .u(ua), .sig(ga));
      mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_b (
        .raw(wide ? b[l*AW +: AW] : AW'(b[l*NW +: NW])), .fmt(fmt), .u(ub), .sig(gb));
      assign p = ga * gb;
      assign exps[l*EW +: EW] = mma_pkg::fp_exp(ua) + mma_pkg::fp_exp(ub);
      assign nan[l] = mma_pkg::fp_prod_nan(ua, ub);
      assign inf[l] = mma_pkg::fp_prod_inf(ua, ub);
      assign neg[l] = mma_pkg::fp_sign(ua) ^ mma_pkg::fp_sign(ub);
      // a one-step product has at most 2 x 10 fractional bits: dropping 2 MW - F_LO of them is exact
      assign x[l*XW +: XW] = wide ? XW'(p) << (F_HI - 2 * MW) : XW'(p >> (2 * MW - F_LO));
    end
  endgenerate

  logic [31:0] dp_d;
  m3xu_sum #(.N(L), .F(F_HI), .F_LO(F_LO), .XW(XW), .SW(SW), .OUT_LO(OUT_LO), .OUT_HI(OUT_HI)) u_sum (
    .wide(wide), .uc(uc), .c_sig(c_sig), .x(x), .neg(neg), .exps(exps), .nan(nan), .inf(inf), .d(dp_d));

  logic accept, last, hold;
  logic [0:0] pass;
  mma_handshake #(.PASSES(1), .DW(32)) u_hs (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .accept(accept),
    .final_pass(1'b0), .pass(pass), .last(last), .hold(hold), .d_in(dp_d), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
  logic unused_hs;
  assign unused_hs = ^{accept, last, pass, hold};
  assign busy = 1'b0;  // one step: nothing stays inside
endmodule
