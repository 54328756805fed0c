// fda_term: one product of an FDA pass (docs/algorithms.md, FDA Step 2 and Step 1's part for it).  a and
// b unpacked in their formats; the exact, unnormalized product of their significands on a grid of TF
// fractional bits (below 4); its sign, its exponent ea + eb (+ s_exp, the block scales'); whether it is
// NaN (a NaN operand, 0 * inf) or an infinity.  A zero operand's exponent is the format table's zero
// exponent (-126), or, when ZERO_EXP != 0, the zero product's exponent is ZERO_EXP (Hopper: -133).
module fda_term #(
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,          // formats of A and B
  parameter int TF       = 24,                             // fractional bits of the common grid (at least 2 MW)
  parameter int ZERO_EXP = 0,
  parameter int AW       = mma_pkg::max_width(AB_MASK),    // lane width of A and B
  parameter int MW       = mma_pkg::max_man_bits(AB_MASK), // fractional bits of an operand significand
  parameter int XW       = TF + 2
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [AW-1:0]                 a, b,
  input  logic signed [mma_pkg::EW-1:0] s_exp,             // the block scales' exponent (0 without)
  output logic                          nan,
  output logic                          inf,
  output logic                          neg,
  output logic signed [mma_pkg::EW-1:0] exp,
  output logic [XW-1:0]                 x
);
  localparam int EW = mma_pkg::EW;
  localparam int PF = 2 * MW;                               // fractional bits of the product
  mma_pkg::fp_t ua, ub;
  logic [MW:0] ga, gb;
  mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_a (.raw(a), .fmt(fmt_a), .u(ua), .sig(ga));
  mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_b (.raw(b), .fmt(fmt_b), .u(ub), .sig(gb));
  assign nan = mma_pkg::fp_is_nan(ua) | mma_pkg::fp_is_nan(ub)
             | (mma_pkg::fp_is_inf(ua) & mma_pkg::fp_is_zero(ub))
             | (mma_pkg::fp_is_zero(ua) & mma_pkg::fp_is_inf(ub));
  assign inf = (mma_pkg::fp_is_inf(ua) | mma_pkg::fp_is_inf(ub)) & ~nan;
  assign neg = mma_pkg::fp_sign(ua) ^ mma_pkg::fp_sign(ub);
  assign exp = ZERO_EXP != 0 && (mma_pkg::fp_is_zero(ua) | mma_pkg::fp_is_zero(ub)) ? EW'(ZERO_EXP)
             : mma_pkg::fp_exp(ua) + mma_pkg::fp_exp(ub) + s_exp;
  assign x   = XW'(ga * gb) << (TF - PF);
endmodule
