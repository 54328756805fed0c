// fda_lanes: fixture of make prove's lane-permutation properties (tests/prove/all.sh, docs/formal.md) --
// the project's fda_unit with A's and B's lanes permuted in front of it: lanes I and J swapped
// (ROT = 0), or every lane moved ROT places up (lane l goes to (l + ROT) mod K).  A fused dot-add sums
// exact products aligned to one e_max, so D cannot depend on the order of the lanes: proving this unit
// equal to the fda_unit it wraps shows that no lane is treated differently from the others.  Scale slots
// stay where they are (the caller keeps every lane in its block).  SWAP_AB = 1 also exchanges A and B
// (their formats and scales too): every product a x b becomes b x a.
module fda_lanes #(
  parameter int K        = 16,
  parameter int F        = 25,
  parameter int CHAIN    = 1,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK    = 0,
  parameter int ZERO_EXP = 0,
  parameter int K_RUN    = 0,
  parameter int AB_F16   = 0,
  parameter int C_LAST   = 0,
  parameter int I        = 0,     // the two lanes swapped (ROT = 0)
  parameter int J        = 1,
  parameter int ROT      = 0,     // non-zero: every lane moved ROT places up instead
  parameter int SWAP_AB  = 0,     // 1: A and B exchanged as well
  parameter int AW       = mma_pkg::max_width(AB_MASK),
  parameter int NSW      = BLOCK > 0 ? K / BLOCK : 1
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
  // where lane l of the unit takes its operands from
  function automatic int from(input int l);
    if (ROT != 0) from = (l + K - ROT % K) % K;
    else from = l == I ? J : l == J ? I : l;
  endfunction
  logic [K*AW-1:0] pa, pb, xa, xb;
  logic [NSW*8-1:0] xsa, xsb;
  logic [mma_pkg::FMT_BITS-1:0] xfa, xfb;
  assign {xa, xb, xsa, xsb, xfa, xfb} = SWAP_AB != 0 ? {b, a, sb, sa, fmt_b, fmt_a} : {a, b, sa, sb, fmt_a, fmt_b};
  genvar l;
  generate
    for (l = 0; l < K; l++) begin : g_lane
      assign pa[l*AW +: AW] = xa[from(l)*AW +: AW];
      assign pb[l*AW +: AW] = xb[from(l)*AW +: AW];
    end
  endgenerate
  fda_unit #(.K(K), .F(F), .CHAIN(CHAIN), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .BLOCK(BLOCK),
             .ZERO_EXP(ZERO_EXP), .K_RUN(K_RUN), .AB_F16(AB_F16), .C_LAST(C_LAST)) u (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .fmt_a(xfa), .fmt_b(xfb),
    .fmt_c(fmt_c), .out_kind(out_kind), .c(c), .a(pa), .b(pb), .sa(xsa), .sb(xsb), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
endmodule
