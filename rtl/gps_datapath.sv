// gps_datapath: one group of GPS (docs/algorithms.md, AMD: GPS; paper Algorithms 2 and 3), the CDNA1 and
// CDNA2 f16/bf16 MFMA: d = c + PS(p_0 .. p_{G-1}) in FP32, every operation rounded to nearest even.
//   Step 1 (FLUSH): the instruction's C (first = 1), and A and B, subnormal or zero -> +0;
//   Step 2: p_k = FP32(a_k * b_k) (mma_fp_mul), FLUSH: a subnormal product becomes a zero of its sign;
//   Step 3: PS pairwise, a balanced tree over G (a power of two): (p0 + p1) + (p2 + p3) (mma_fp_add);
//   Step 4: c + PS; with FLUSH every sum's subnormal result becomes a zero of its sign.
// A later group's C is the previous group's d (first = 0), already flushed: it is not flushed again
// (a -0 stays -0).
module gps_datapath #(
  parameter int G       = 4,
  parameter int AB_MASK = 1 << mma_pkg::FMT_F16,
  parameter int FLUSH   = 0,
  parameter int OUT     = mma_pkg::OUT_F32_RNE,
  parameter int AW      = mma_pkg::max_width(AB_MASK)
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic                          first,   // c is the instruction's C
  input  logic [31:0]                   c,       // f32
  input  logic [G*AW-1:0]               a, b,
  output logic [31:0]                   d
);
  localparam int CF = mma_pkg::fmt_man_bits(mma_pkg::FMT_F32);

  // Step 1: C flushed to +0 when subnormal or zero
  mma_pkg::fp_t uc;
  logic [CF:0] c_sig;
  logic [31:0] c_in;
  mma_unpack #(.MASK(1 << mma_pkg::FMT_F32), .MW(CF), .IW(32)) u_c (
    .raw(c), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F32)), .u(uc), .sig(c_sig));
  logic unused_c_sig;
  assign unused_c_sig = ^c_sig;
  assign c_in = FLUSH != 0 && first && (mma_pkg::fp_is_sub(uc) || mma_pkg::fp_is_zero(uc)) ? '0 : c;

  // Steps 2-3: the products are the leaves of the pairwise tree (heap layout: node n = node 2n + node 2n+1)
  logic [31:0] node [1:2*G-1];
  genvar i;
  generate
    for (i = 0; i < G; i++) begin : g_mul
      mma_fp_mul #(.AB_MASK(AB_MASK), .OUT(OUT), .FLUSH(FLUSH), .AW(AW), .DW(32)) u_mul (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[i*AW +: AW]), .b(b[i*AW +: AW]), .d(node[G + i]));
    end
    for (i = G - 1; i >= 1; i--) begin : g_pair
      mma_fp_add #(.FMT(mma_pkg::FMT_F32), .OUT(OUT), .FLUSH(FLUSH)) u_add (
        .x(node[2*i]), .y(node[2*i + 1]), .d(node[i]));
    end
  endgenerate

  // Step 4: d = c + PS(group)
  mma_fp_add #(.FMT(mma_pkg::FMT_F32), .OUT(OUT), .FLUSH(FLUSH)) u_acc (.x(c_in), .y(node[1]), .d(d));
endmodule
