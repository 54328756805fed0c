// mma_fp_add: an IEEE addition of two values of format FMT (f32), rounded once to OUT (f32 RNE: GPS
// Steps 3-4).  Both are aligned to their larger exponent on a grid of the format's mantissa bits + 3
// (guard, round and a sticky bit jammed into the last place: mma_align_sum with JAM), summed exactly in
// that precision and rounded by mma_encode: the correctly rounded sum (rounding to odd with two extra
// bits, then to nearest).  x + (-x) is +0, -0 + -0 is -0 (an exact zero sum of two nonzero values is
// +0 under RNE; a nonzero sum of two FP32 values is a multiple of the smallest subnormal, never rounded
// to zero).  NaN (a NaN operand, inf - inf) is canonical; inf + x is inf.
// FLUSH = 1 (CDNA2): a subnormal result becomes a zero of its sign.
module mma_fp_add #(
  parameter int FMT   = mma_pkg::FMT_F32,
  parameter int OUT   = mma_pkg::OUT_F32_RNE,
  parameter int FLUSH = 0,
  parameter int DW    = mma_pkg::fmt_width(FMT)
) (
  input  logic [DW-1:0] x, y,
  output logic [DW-1:0] d
);
  localparam int EW = mma_pkg::EW;
  localparam int MB = mma_pkg::fmt_man_bits(FMT);
  localparam int F  = MB + 3;            // guard, round, sticky
  localparam int XW = F + 1;             // a significand is below 2
  localparam int SW = XW + 2;

  mma_pkg::fp_t ux, uy;
  logic [MB:0] gx, gy;
  mma_unpack #(.MASK(1 << FMT), .MW(MB), .IW(DW)) u_x (.raw(x), .fmt(mma_pkg::FMT_BITS'(FMT)), .u(ux), .sig(gx));
  mma_unpack #(.MASK(1 << FMT), .MW(MB), .IW(DW)) u_y (.raw(y), .fmt(mma_pkg::FMT_BITS'(FMT)), .u(uy), .sig(gy));

  logic d_nan, d_inf, d_inf_neg;
  mma_special #(.N(2)) u_special (
    .nan({mma_pkg::fp_is_nan(uy), mma_pkg::fp_is_nan(ux)}), .inf({mma_pkg::fp_is_inf(uy), mma_pkg::fp_is_inf(ux)}),
    .neg({mma_pkg::fp_sign(uy), mma_pkg::fp_sign(ux)}), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  logic signed [SW-1:0] sum;
  logic signed [EW+1:0] lsb_exp;
  mma_align_sum #(.N(2), .F(F), .XW(XW), .OW(XW), .EXTRA(0), .SW(SW), .JAM(1)) u_sum (
    .x({XW'(gy) << (F - MB), XW'(gx) << (F - MB)}), .neg({mma_pkg::fp_sign(uy), mma_pkg::fp_sign(ux)}),
    .exps({mma_pkg::fp_exp(uy), mma_pkg::fp_exp(ux)}), .sum(sum), .lsb_exp(lsb_exp));

  logic [DW-1:0] r;
  mma_encode #(.SW(SW), .LW(EW + 2), .OUT_MASK(1 << OUT), .DW(DW)) u_encode (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(mma_pkg::OUT_BITS'(OUT)),
    .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(r));
  always @* begin
    d = r;
    if (mma_pkg::fp_is_zero(ux) && mma_pkg::fp_is_zero(uy) && mma_pkg::fp_sign(ux) && mma_pkg::fp_sign(uy))
      d = DW'(1) << (DW - 1);                                        // -0 + -0
    if (FLUSH != 0 && d[DW-2 -: DW-1-MB] == '0) d = d & (DW'(1) << (DW - 1));  // subnormal -> signed zero
  end
endmodule
