// gps_unit: the CDNA1/CDNA2 f16 and bf16 MFMA dot-add, group pairwise sum (docs/algorithms.md, AMD: GPS)
// with a valid/ready handshake.  The K products form K/G groups of G; the groups are added to C one
// after another, so the unit runs one group a cycle through one G-wide datapath (gps_datapath: G FP32
// multipliers, G - 1 pairwise adders and the accumulating adder), each group's d the next one's C
// (mma_chain): one vector every K/G cycles.  FLUSH = the table's flush (CDNA2 1, CDNA1 0).
module gps_unit #(
  parameter int K       = 8,
  parameter int G       = 4,
  parameter int FLUSH   = 0,
  parameter int AB_MASK = 1 << mma_pkg::FMT_F16,
  parameter int OUT     = mma_pkg::OUT_F32_RNE,
  parameter int AW      = mma_pkg::max_width(AB_MASK)
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
  localparam int NG = K / G;             // groups: passes through the datapath
  localparam int FB = mma_pkg::FMT_BITS;

  logic [G*AW-1:0]  dp_a, dp_b;
  logic [2*FB-1:0]  dp_fmt;
  logic [31:0]      dp_c, dp_d;
  logic             dp_later, dp_s;

  mma_chain #(.PASSES(NG), .DW(32), .KD(G), .AW(AW), .CTW(2 * FB)) u_chain (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .c(c), .a(a), .b(b), .s('0),
    .ctl({fmt_b, fmt_a}), .dp_c(dp_c), .dp_a(dp_a), .dp_b(dp_b), .dp_s(dp_s), .dp_ctl(dp_fmt),
    .dp_later(dp_later), .dp_d(dp_d), .out_valid(out_valid), .out_ready(out_ready), .d(d));
  logic unused_s;  // no side lanes
  assign unused_s = dp_s;

  gps_datapath #(.G(G), .AB_MASK(AB_MASK), .FLUSH(FLUSH), .OUT(OUT), .AW(AW)) u_dp (
    .fmt_a(dp_fmt[0 +: FB]), .fmt_b(dp_fmt[FB +: FB]), .first(!dp_later), .c(dp_c),
    .a(dp_a), .b(dp_b), .d(dp_d));
endmodule
