// sfma_unit: sequential fused multiply-add (SFMA: NVIDIA DMMA, AMD f32/f64 MFMA; docs/algorithms.md):
// d = c; d = fma(a_k, b_k, d) for k = 0 .. K-1, each FMA rounded to nearest even in D's format, through
// one FMA datapath (sfma_datapath), one product per cycle: the area of one FMA plus the operand and
// accumulator registers.  The output kind (f64-rne or f32-rne among OUT_MASK, chosen at run time) fixes
// the format of A, B, C and D; lanes are AW bits wide (the widest format), a narrower format in the low
// end.  mma_chain sequences the K passes: pass 0 runs from the ports (a_0, b_0, C) on the handshake,
// which also registers lanes 1 .. K-1 and the output kind; pass k takes lane k and the accumulator (pass
// k-1's D); the last pass's D is the result.  One vector every K cycles; in_ready is low while the
// later passes run and while an untaken result is held.
module sfma_unit #(
  parameter int K        = 4,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F64_RNE,
  parameter int MUTANT   = 0,   // passed to sfma_datapath (the mutation check only)
  parameter int AW       = mma_pkg::max_width(mma_pkg::out_formats(OUT_MASK))
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [AW-1:0]                 c,
  input  logic [K*AW-1:0]               a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [AW-1:0]                 d
);
  localparam int OB = mma_pkg::OUT_BITS;

  logic [AW-1:0] dp_a, dp_b, dp_c, dp_d;
  logic [OB-1:0] dp_out;
  logic          dp_later, dp_s;

  // pass k: lane k, C the previous pass's D (the accumulator)
  mma_chain #(.PASSES(K), .DW(AW), .KD(1), .AW(AW), .CTW(OB)) u_chain (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .c(c), .a(a), .b(b), .s('0),
    .ctl(out_kind), .dp_c(dp_c), .dp_a(dp_a), .dp_b(dp_b), .dp_s(dp_s), .dp_ctl(dp_out),
    .dp_later(dp_later), .dp_d(dp_d), .out_valid(out_valid), .out_ready(out_ready), .d(d));
  logic unused_chain;  // every pass's C is in D's format; no side lanes
  assign unused_chain = ^{dp_later, dp_s};

  sfma_datapath #(.OUT_MASK(OUT_MASK), .AW(AW), .MUTANT(MUTANT)) u_fma (
    .out_kind(dp_out), .a(dp_a), .b(dp_b), .c(dp_c), .d(dp_d));
endmodule
