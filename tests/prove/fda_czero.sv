// fda_czero: fixture of make prove's zero-C property (tests/prove/all.sh, docs/formal.md) -- the
// project's fda_unit with C's sign flipped whenever C is a zero (+0 becomes -0 and -0 becomes +0; f32 or
// f16 C, by fmt_c).  NVIDIA's fused dot-add returns +0 for every exact-zero result, whatever C's sign
// (the model's rule, not IEEE's), and a zero C adds nothing else: proving this unit equal to the
// fda_unit it wraps shows that D never depends on the sign of a zero C.
module fda_czero #(
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
  logic [31:0] c_flipped;
  always @* begin
    c_flipped = c;
    if (fmt_c == mma_pkg::FMT_BITS'(mma_pkg::FMT_F32) && c[30:0] == '0) c_flipped[31] = !c[31];
    if (fmt_c == mma_pkg::FMT_BITS'(mma_pkg::FMT_F16) && c[14:0] == '0) c_flipped[15] = !c[15];
  end
  fda_unit #(.K(K), .F(F), .CHAIN(CHAIN), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .BLOCK(BLOCK),
             .ZERO_EXP(ZERO_EXP), .K_RUN(K_RUN), .AB_F16(AB_F16), .C_LAST(C_LAST)) u (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .fmt_a(fmt_a), .fmt_b(fmt_b),
    .fmt_c(fmt_c), .out_kind(out_kind), .c(c_flipped), .a(a), .b(b), .sa(sa), .sb(sb), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
endmodule
