// fdrda_unit: the CDNA3 MFMA dot-add (docs/algorithms.md, AMD: FDRDA, CoFDRDA, GFDRDA, CoGFDRDA) with a
// valid/ready handshake.  ALGO = ALGO_FDRDA (xf32, f16, bf16) or ALGO_GFDRDA (fp8/bf8: even and odd
// products summed apart); CHAIN = 1: one K-wide pass per vector, result one cycle after the handshake;
// CHAIN = 2 (CoFDRDA, CoGFDRDA): two passes through one K/2-wide datapath (mma_chain), pass 1's FP32
// result the C of pass 2, one vector every two cycles, as fda_unit does CoFDA.  The operand formats
// are run-time inputs among AB_MASK; K, F, the chaining, the Step 6 roundings and D's kind are fixed.
module fdrda_unit #(
  parameter int K         = 8,
  parameter int F         = 24,
  parameter int CHAIN     = 1,
  parameter int ALGO      = mma_pkg::ALGO_FDRDA,
  parameter int AB_MASK   = 1 << mma_pkg::FMT_F16,
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,
  parameter int ALIGN_C   = mma_pkg::ROUND_RD,
  parameter int OUT       = mma_pkg::OUT_F32_RNE,
  parameter int AW        = mma_pkg::max_width(AB_MASK)
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [31:0]                   c,          // f32
  input  logic [K*AW-1:0]               a, b,       // lane i at [i*AW +: AW]
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int KD  = K / CHAIN;        // products per pass
  localparam int FB  = mma_pkg::FMT_BITS;

  logic [KD*AW-1:0]    dp_a, dp_b;
  logic [2*FB-1:0]     dp_fmt;
  logic [31:0]         dp_c, dp_d;
  logic                dp_later, dp_s;

  mma_chain #(.PASSES(CHAIN), .DW(32), .KD(KD), .AW(AW), .CTW(2 * FB)) u_chain (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .c(c), .a(a), .b(b), .s('0),
    .ctl({fmt_b, fmt_a}), .dp_c(dp_c), .dp_a(dp_a), .dp_b(dp_b), .dp_s(dp_s), .dp_ctl(dp_fmt),
    .dp_later(dp_later), .dp_d(dp_d), .out_valid(out_valid), .out_ready(out_ready), .d(d));
  logic unused_chain;  // every pass's C is FP32, the instruction's or the previous pass's; no side lanes
  assign unused_chain = ^{dp_later, dp_s};

  fdrda_datapath #(.KD(KD), .F(F), .ALGO(ALGO), .AB_MASK(AB_MASK), .ALIGN_DOT(ALIGN_DOT), .ALIGN_C(ALIGN_C),
                   .OUT(OUT), .AW(AW)) u_dp (
    .fmt_a(dp_fmt[0 +: FB]), .fmt_b(dp_fmt[FB +: FB]), .c(dp_c), .a(dp_a), .b(dp_b),
    .d(dp_d));
endmodule
