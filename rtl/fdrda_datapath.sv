// fdrda_datapath: one combinational FDRDA or GFDRDA pass over KD products (docs/algorithms.md, AMD:
// FDRDA Steps 0-8, GFDRDA Steps 0-10), the CDNA3 xf32/f16/bf16 and fp8/bf8 MFMA: the products' dot sum
// (rtl/fdrda_dot.sv: Steps 0-5, GFDRDA 0-7), C added to it (rtl/fdrda_add_c.sv: Steps 1, 3, 6, 7), the
// exact sum rounded to D (mma_encode: Step 8, GFDRDA 10).  make prove proves each part against the
// specification's (tests/prove/fdrda_cut_harness.sv).
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
  localparam int DSW = mma_pkg::fdrda_dot_width(KD, F, ALGO);
  localparam int SW  = mma_pkg::fdrda_sum_width(KD, F, ALGO);
  logic signed [DSW-1:0]         s_dot;
  logic signed [mma_pkg::EW+1:0] e_dot;
  logic                          nan, pos_inf, neg_inf, pos_ovf, neg_ovf;
  logic signed [SW-1:0]          sum;
  logic signed [mma_pkg::EW+1:0] lsb_exp;
  logic                          d_nan, d_inf, d_inf_neg;
  fdrda_dot #(.KD(KD), .F(F), .ALGO(ALGO), .AB_MASK(AB_MASK), .ALIGN_DOT(ALIGN_DOT), .AW(AW), .DSW(DSW)) u_dot (
    .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a), .b(b), .s_dot(s_dot), .e_dot(e_dot), .nan(nan), .pos_inf(pos_inf),
    .neg_inf(neg_inf), .pos_ovf(pos_ovf), .neg_ovf(neg_ovf));
  fdrda_add_c #(.ALGO(ALGO), .F(F), .DSW(DSW), .ALIGN_DOT(ALIGN_DOT), .ALIGN_C(ALIGN_C), .SW(SW)) u_add_c (
    .c(c), .s_dot(s_dot), .e_dot(e_dot), .nan(nan), .pos_inf(pos_inf), .neg_inf(neg_inf), .pos_ovf(pos_ovf),
    .neg_ovf(neg_ovf), .sum(sum), .lsb_exp(lsb_exp), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));
  mma_encode #(.SW(SW), .OUT_MASK(1 << OUT), .DW(32)) u_encode (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(mma_pkg::OUT_BITS'(OUT)), .nan(d_nan), .inf(d_inf),
    .inf_neg(d_inf_neg), .d(d));
endmodule
