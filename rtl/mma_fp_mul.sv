// mma_fp_mul: an IEEE multiplication rounded once to OUT (f32 RNE: GPS Step 2), of operands in any
// format of AB_MASK (chosen at run time) whose exact product the output format's arithmetic rounds:
// the exact product sig_a * sig_b * 2^(e_a + e_b) goes through mma_encode (normal, subnormal, overflow
// to inf), with the sign of a zero or an underflowed product kept (IEEE: the XOR of the signs).  NaN
// (a NaN operand, 0 * inf) is the output format's canonical NaN; inf * x is inf.
// FLUSH = 1 (CDNA2): subnormal and zero operands are +0 (Step 1), and a subnormal result becomes a zero
// of its sign (Step 2).
module mma_fp_mul #(
  parameter int AB_MASK = 1 << mma_pkg::FMT_F16,
  parameter int OUT     = mma_pkg::OUT_F32_RNE,
  parameter int FLUSH   = 0,
  parameter int AW      = mma_pkg::max_width(AB_MASK),
  parameter int DW      = mma_pkg::fmt_width(mma_pkg::out_format(OUT))
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [AW-1:0]                 a, b,
  output logic [DW-1:0]                 d
);
  localparam int EW = mma_pkg::EW;
  localparam int MW = mma_pkg::max_man_bits(AB_MASK);
  localparam int SW = 2 * MW + 3;        // signed: the product is below 4
  localparam int DM = mma_pkg::fmt_man_bits(mma_pkg::out_format(OUT));

  mma_pkg::fp_t ua0, ub0, ua, ub;
  logic [MW:0] ga0, gb0, ga, gb;
  mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_a (.raw(a), .fmt(fmt_a), .u(ua0), .sig(ga0));
  mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_b (.raw(b), .fmt(fmt_b), .u(ub0), .sig(gb0));
  // Step 1 (FLUSH): a subnormal or zero operand is +0
  always @* begin
    ua = ua0; ga = ga0; ub = ub0; gb = gb0;
    if (FLUSH != 0 && (mma_pkg::fp_is_sub(ua0) || mma_pkg::fp_is_zero(ua0))) begin
      ua = mma_pkg::fp_make(1'b0, EW'(mma_pkg::ZERO_EXP), 1'b1, 1'b0, 1'b0, 1'b0);
      ga = '0;
    end
    if (FLUSH != 0 && (mma_pkg::fp_is_sub(ub0) || mma_pkg::fp_is_zero(ub0))) begin
      ub = mma_pkg::fp_make(1'b0, EW'(mma_pkg::ZERO_EXP), 1'b1, 1'b0, 1'b0, 1'b0);
      gb = '0;
    end
  end

  logic sign, d_nan, d_inf, d_inf_neg;
  logic [DW-1:0] mag;
  assign sign = mma_pkg::fp_sign(ua) ^ mma_pkg::fp_sign(ub);
  mma_special #(.N(1)) u_special (
    .nan(mma_pkg::fp_prod_nan(ua, ub)), .inf(mma_pkg::fp_prod_inf(ua, ub)), .neg(sign),
    .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));
  // |a * b| rounded; the sign is put back on the bits (it survives a zero magnitude)
  mma_encode #(.SW(SW), .LW(EW + 2), .OUT_MASK(1 << OUT), .DW(DW)) u_encode (
    .sum(SW'(ga * gb)), .lsb_exp((EW+2)'(mma_pkg::fp_exp(ua)) + (EW+2)'(mma_pkg::fp_exp(ub)) - (EW+2)'(2 * MW)),
    .out_kind(mma_pkg::OUT_BITS'(OUT)), .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(mag));
  always @* begin
    d = d_nan ? mag : mag | (DW'(sign) << (DW - 1));
    if (FLUSH != 0 && mag[DW-2 -: DW-1-DM] == '0) d = DW'(sign) << (DW - 1);  // Step 2: |p| < 2^-126
  end
endmodule
