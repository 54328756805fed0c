// fda_unit: fused dot-add of K products with a valid/ready handshake (docs/algorithms.md, FDA/CoFDA).
// CHAIN = 1: one K-wide pass per vector, result one cycle after the handshake.
// CHAIN = 2 (CoFDA, Ampere/Ada): two passes through one K/2-wide datapath, as the hardware does: pass 1
// takes C and the first half of K and rounds to D's format; pass 2 takes that as its C with the second
// half.  One vector every two cycles.  (CHAIN > 2 chains the same way through K/CHAIN lanes.)  mma_chain
// sequences the passes and holds the later passes' lanes, block scales and run-time selections.
// Operand formats and the output kind are run-time inputs among those the masks allow (mma_pkg codes);
// F, K, the chaining and the UE8M0 block size are what the hardware fixes.  MUTANT is fda_datapath's
// (test only: 0 in every unit; the mutation check of make verify, tests/verify/fda_mutants.sv).
module fda_unit #(
  parameter int K        = 16,
  parameter int F        = 25,
  parameter int CHAIN    = 1,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK    = 0,
  parameter int ZERO_EXP = 0,                           // fda_datapath's: a zero term's exponent (Hopper -133)
  parameter int AW       = mma_pkg::max_width(AB_MASK),
  parameter int NSW      = BLOCK > 0 ? K / BLOCK : 1,
  parameter int MUTANT   = 0
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int KD  = K / CHAIN;                       // products per pass
  localparam int SDW = mma_pkg::imax(BLOCK > 0 ? KD / BLOCK : 1, 1) * 8;  // scale bits per pass, of A or B
  localparam int FB  = mma_pkg::FMT_BITS;
  localparam int OB  = mma_pkg::OUT_BITS;

  logic [31:0]        dp_d, dp_c;
  logic [FB-1:0]      dp_fmt_c;
  logic [2*FB+OB-1:0] dp_ctl;                           // {out_kind, fmt_b, fmt_a}
  logic [KD*AW-1:0]   dp_a, dp_b;
  logic [2*SDW-1:0]   dp_s;                             // {sb, sa}
  logic [CHAIN*2*SDW-1:0] s;                            // pass p's {sb, sa} (pass 0's only when BLOCK = 0)
  logic               dp_later;
  genvar p;
  generate
    for (p = 0; p < CHAIN; p++) begin : g_pass
      assign s[p*2*SDW +: 2*SDW] = {SDW'(sb >> (p * SDW)), SDW'(sa >> (p * SDW))};
    end
  endgenerate

  // Pass 0 runs from the ports; each pass's result is the next one's C
  mma_chain #(.PASSES(CHAIN), .DW(32), .KD(KD), .AW(AW), .SW(2 * SDW), .CTW(2 * FB + OB)) u_chain (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .c(c), .a(a), .b(b), .s(s),
    .ctl({out_kind, fmt_b, fmt_a}), .dp_c(dp_c), .dp_a(dp_a), .dp_b(dp_b), .dp_s(dp_s), .dp_ctl(dp_ctl),
    .dp_later(dp_later), .dp_d(dp_d), .out_valid(out_valid), .out_ready(out_ready), .d(d));
  // a later pass's C is the previous pass's D, in D's format (f16 for an f16 D, else f32)
  assign dp_fmt_c = dp_later ? mma_pkg::out_fmt_of(OUT_MASK, dp_ctl[2*FB +: OB]) : fmt_c;

  fda_datapath #(.KD(KD), .F(F), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK),
                 .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP), .AW(AW), .MUTANT(MUTANT)) u_dp (
    .fmt_a(dp_ctl[0 +: FB]), .fmt_b(dp_ctl[FB +: FB]), .fmt_c(dp_fmt_c), .out_kind(dp_ctl[2*FB +: OB]),
    .c(dp_c), .a(dp_a), .b(dp_b), .sa(dp_s[0 +: SDW]), .sb(dp_s[SDW +: SDW]), .d(dp_d));
endmodule
