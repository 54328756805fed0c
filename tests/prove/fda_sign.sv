// fda_sign: fixture of make prove's sign-symmetry property (tests/prove/all.sh, docs/formal.md) -- the
// project's fda_unit with, when NEGATE = 1, every lane of A and C negated on the way in and D negated on
// the way out.  NVIDIA's fused dot-add aligns and sums sign-magnitude significands and truncates towards
// zero (mma-sim Step 3), and rounds D by RZ or RNE, all symmetric in sign: D(-A, B, -C) = -D(A, B, C).
// Two outcomes keep their sign and are left as they are: a NaN D (the canonical NaN) and a zero D, which
// both NEGATE settings write as +0 (an exact zero is +0 whatever the operands' signs, a result truncated
// to zero keeps the sign of the sum: neither is what the property is about).  Proving NEGATE = 1 equal to
// NEGATE = 0 (make prove REF=this file) shows the unit treats both signs alike.  Every D format up to
// 32 bits and the sign bit of every operand format with one (fmt_width - 1), from the format table; the fnuz formats, whose -0 is their NaN, have no
// negation of a zero and are not served here.  NEGATE = 2 negates A and D but keeps C: an identity that
// is false whenever C counts, which make prove must refute (the fixture's own check that it can fail).
module fda_sign #(
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
  parameter int NEGATE   = 1,
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
  logic [31:0]     c_in, d_unit;
  logic [K*AW-1:0] a_in;
  always @* begin
    a_in = a;
    c_in = c;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++) begin
      if (NEGATE != 0 && AB_MASK[f] && fmt_a == mma_pkg::FMT_BITS'(f))
        for (int k = 0; k < K; k++) a_in[k*AW + mma_pkg::fmt_width(f) - 1] = !a[k*AW + mma_pkg::fmt_width(f) - 1];
      if (NEGATE == 1 && C_MASK[f] && fmt_c == mma_pkg::FMT_BITS'(f) && mma_pkg::fmt_width(f) <= 32)
        c_in[mma_pkg::fmt_width(f) - 1] = !c[mma_pkg::fmt_width(f) - 1];
    end
  end
  // D: zero written +0, NaN as it is, anything else negated when NEGATE = 1 -- D's fields from the
  // format table (width, mantissa bits) of the output kind's format
  logic [31:0] sign_bit, man_mask, exp_mask;
  always @* begin
    d = d_unit;
    sign_bit = '0;
    man_mask = '0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (((mma_pkg::out_formats(OUT_MASK) >> f) & 1) != 0 && mma_pkg::fmt_width(f) <= 32 &&
          mma_pkg::out_fmt_of(OUT_MASK, out_kind) == mma_pkg::FMT_BITS'(f)) begin
        sign_bit = 32'(1) << (mma_pkg::fmt_width(f) - 1);
        man_mask = (32'(1) << mma_pkg::fmt_man_bits(f)) - 1;
      end
    exp_mask = (sign_bit - 1) & ~man_mask;
    if (sign_bit != '0) begin
      if ((d_unit & (sign_bit - 1)) == '0) d = d_unit & ~(sign_bit | (sign_bit - 1));
      else if (NEGATE != 0 && !((d_unit & exp_mask) == exp_mask && (d_unit & man_mask) != '0)) d = d_unit ^ sign_bit;
    end
  end
  fda_unit #(.K(K), .F(F), .CHAIN(CHAIN), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .BLOCK(BLOCK),
             .ZERO_EXP(ZERO_EXP), .K_RUN(K_RUN), .AB_F16(AB_F16), .C_LAST(C_LAST)) u (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .fmt_a(fmt_a), .fmt_b(fmt_b),
    .fmt_c(fmt_c), .out_kind(out_kind), .c(c_in), .a(a_in), .b(b), .sa(sa), .sb(sb), .out_valid(out_valid),
    .out_ready(out_ready), .d(d_unit));
endmodule
