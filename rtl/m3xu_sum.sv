// m3xu_sum: Steps 1 and 4-6 of the M3XU definition (docs/m3xu.md), shared by m3xu_datapath and
// naive_fp32_unit: C (an f32) and N product terms, each a magnitude x, its sign, exponent and Step 1
// flags.  Step 1: NaN / the one infinity (mma_special); Step 4: e_max, every term shifted to it keeping
// F fractional bits, the rest truncated toward zero; Step 5: the exact sum in SW bits (mma_align_sum);
// Step 6: normalize and round to D's output kind (mma_encode).
// One grid serves both kinds of step.  A wide (FP32) step keeps F = F_w fractional bits: its products
// come on that grid, and C enters there.  A one-step (FP16/BF16) step keeps the FDA's F_LO: its products
// come on a grid of F_LO fractional bits, C enters there, and every exponent is raised by F - F_LO, so
// that truncation F bits below the raised e_max is truncation F_LO bits below the true one and the sum's
// weight e_max - F comes out right; its output kind is OUT_LO (f32 RZ, +0), a wide step's OUT_HI (f32
// RNE).  A product term that must not count (the odd lane of an FP32 pair) has x = 0 and the smallest
// exponent.
module m3xu_sum #(
  parameter int N        = 8,
  parameter int F        = 46,
  parameter int F_LO     = 24,
  parameter int XW       = F + 2,     // terms are below 4 on the grid
  parameter int SW       = XW + 1 + mma_pkg::clog2(N + 1),
  parameter int OUT_LO   = mma_pkg::OUT_F32_RZ,
  parameter int OUT_HI   = mma_pkg::OUT_F32_RNE
) (
  input  logic                          wide,   // an FP32 / FP32C step
  input  mma_pkg::fp_t                  uc,
  input  logic [mma_pkg::M3XU_PART_MW:0] c_sig,
  input  logic [N*XW-1:0]               x,      // the products: F (wide) or F_LO fractional bits
  input  logic [N-1:0]                  neg,
  input  logic [N*mma_pkg::EW-1:0]      exps,   // e_a + e_b
  input  logic [N-1:0]                  nan,
  input  logic [N-1:0]                  inf,
  output logic [31:0]                   d
);
  localparam int EW    = mma_pkg::EW;
  localparam int CMW   = mma_pkg::M3XU_PART_MW;   // C's fractional bits
  localparam int RAISE = F - F_LO;

  // C is term 0; a one-step step's exponents are raised
  logic [(N+1)*XW-1:0] tx;
  logic [(N+1)*EW-1:0] te;
  assign tx = {x, wide ? XW'(c_sig) << (F - CMW) : XW'(c_sig) << (F_LO - CMW)};
  always @* begin
    te[0 +: EW] = mma_pkg::fp_exp(uc) + (wide ? EW'(0) : EW'(RAISE));
    for (int i = 0; i < N; i++)
      te[(i+1)*EW +: EW] = exps[i*EW +: EW] + (wide ? EW'(0) : EW'(RAISE));
  end

  logic d_nan, d_inf, d_inf_neg;
  mma_special #(.N(N + 1)) u_special (
    .nan({nan, mma_pkg::fp_is_nan(uc)}), .inf({inf, mma_pkg::fp_is_inf(uc)}),
    .neg({neg, mma_pkg::fp_sign(uc)}), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  logic signed [SW-1:0] sum;
  logic signed [EW+1:0] lsb_exp;
  mma_align_sum #(.N(N + 1), .F(F), .XW(XW), .OW(XW), .EXTRA(0), .SW(SW)) u_sum (
    .x(tx), .neg({neg, mma_pkg::fp_sign(uc)}), .exps(te), .sum(sum), .lsb_exp(lsb_exp));

  mma_encode #(.SW(SW), .LW(EW + 2), .OUT_MASK((1 << OUT_LO) | (1 << OUT_HI)), .DW(32)) u_encode (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(wide ? mma_pkg::OUT_BITS'(OUT_HI) : mma_pkg::OUT_BITS'(OUT_LO)),
    .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(d));
endmodule
