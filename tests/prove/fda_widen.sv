// fda_widen: the project's fda_unit behind make verify's port contract for operands narrower than the
// unit's lanes (tests/prove/all.sh, docs/formal.md).  fda_unit's lanes are as wide as the widest format
// of its mask (8 bits for the f8f6f4 units); an e2m1 instruction's contract has LW = 4-bit lanes, and
// each is zero-extended here into the unit's lane, as the project's bench (tb/mma_bench.sv) places an
// operand in the low end of its lane.  The unit's other parameters are passed through.
module fda_widen #(
  parameter int K        = 16,
  parameter int F        = 25,
  parameter int CHAIN    = 1,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_E2M1,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK    = 0,
  parameter int ZERO_EXP = 0,
  parameter int LW       = 4,                            // the contract's lane width
  parameter int AW       = mma_pkg::max_width(AB_MASK),  // the unit's
  parameter int NSW      = BLOCK > 0 ? K / BLOCK : 1
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*LW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  logic [K*AW-1:0] wa, wb;
  genvar i;
  generate
    for (i = 0; i < K; i++) begin : g_lane
      assign wa[i*AW +: AW] = AW'(a[i*LW +: LW]);
      assign wb[i*AW +: AW] = AW'(b[i*LW +: LW]);
    end
  endgenerate
  fda_unit #(.K(K), .F(F), .CHAIN(CHAIN), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .BLOCK(BLOCK),
             .ZERO_EXP(ZERO_EXP)) u (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .fmt_a(fmt_a), .fmt_b(fmt_b),
    .fmt_c(fmt_c), .out_kind(out_kind), .c(c), .a(wa), .b(wb), .sa(sa), .sb(sb), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
endmodule
