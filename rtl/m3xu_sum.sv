// m3xu_sum: Steps 1 and 4-6 of the M3XU definition (docs/m3xu.md), shared by m3xu_datapath and
// naive_fp32_unit: N terms (C and the products), each a magnitude x on a grid of F fractional bits
// below 2^e, its sign, exponent and special-value flags.  Step 1: NaN / the one infinity (mma_special);
// Step 4: e_max, every term shifted to it keeping F fractional bits, the rest truncated toward zero;
// Step 5: the exact sum in SW bits (mma_align_sum); Step 6: normalize and round to D's output kind
// (mma_encode: f32 RNE for FP32/FP32C, f32 RZ with +0 for the FP16/BF16 baseline).  A term that must
// not count (a lane that holds no product) has x = 0 and the smallest exponent.
module m3xu_sum #(
  parameter int N        = 9,
  parameter int F        = 46,
  parameter int XW       = F + 2,     // terms are below 4 on the grid
  parameter int SW       = XW + 1 + mma_pkg::clog2(N),
  parameter int OUT_MASK = (1 << mma_pkg::OUT_F32_RZ) | (1 << mma_pkg::OUT_F32_RNE)
) (
  input  logic [N*XW-1:0]               x,
  input  logic [N-1:0]                  neg,
  input  logic [N*mma_pkg::EW-1:0]      exps,
  input  logic [N-1:0]                  nan,
  input  logic [N-1:0]                  inf,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  output logic [31:0]                   d
);
  localparam int EW = mma_pkg::EW;

  logic d_nan, d_inf, d_inf_neg;
  mma_special #(.N(N)) u_special (
    .nan(nan), .inf(inf), .neg(neg), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  logic signed [SW-1:0] sum;
  logic signed [EW+1:0] lsb_exp;
  mma_align_sum #(.N(N), .F(F), .XW(XW), .OW(XW), .EXTRA(0), .SW(SW)) u_sum (
    .x(x), .neg(neg), .exps(exps), .sum(sum), .lsb_exp(lsb_exp));

  mma_encode #(.SW(SW), .LW(EW + 2), .OUT_MASK(OUT_MASK), .DW(32)) u_encode (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(out_kind), .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(d));
endmodule
