// mma_pack: Step 5, last part.  The rounded significand and its weight become D's bits in the format of
// D's output kind (fields from the model's format table): a normal number when the hidden bit is set,
// else a subnormal (biased exponent 0); an exponent past the format's largest gives inf (the Tensor Core
// rule, also under RZ: |x| >= 2^128 -> inf for f32); a result that rounds to zero is +0 (a fused sum
// never returns -0) unless the output kind keeps the sign of zero (mma_pkg::out_signed_zero: IEEE RNE
// to f32, which M3XU's FP32 modes return: a negative sum too small for a subnormal is -0; a sum that is
// exactly zero has no sign and gives +0).  Special values from mma_special override the number: NaN is the format's canonical
// NaN (0x7FFFFFFF f32, 0x7FFF f16), inf carries the sign of the infinite terms.  An output kind keeping
// fewer mantissa bits than its format (f32_e8m13) leaves the low ones zero.  D is returned in DW bits,
// a narrower format in the low end.  The largest biased exponent is that of the format's largest finite
// number (an output format is an IEEE format, whose largest finite has the largest mantissa too).
module mma_pack #(
  parameter int KW       = 61,
  parameter int XE       = mma_pkg::EW + 4,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int DW       = mma_pkg::max_width(mma_pkg::out_formats(OUT_MASK))
) (
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic                          neg,
  input  logic [KW-1:0]                 kept,      // rounded significand, hidden bit at D's mantissa width
  input  logic signed [XE-1:0]          q,         // weight of kept's last bit
  input  logic                          nan,
  input  logic                          inf,
  input  logic                          inf_neg,
  output logic [DW-1:0]                 d
);
  localparam int FIRST = mma_pkg::first_set(OUT_MASK);
  localparam int KI    = mma_pkg::clog2(KW);

  always @* begin
    logic signed [XE-1:0] mb, bias, maxb, biased;
    logic [KI-1:0] hidden;
    logic ovf, sgn, inf_sign, keep_zero_sign;
    logic [DW-1:0] num;
    int f, w, eb, fm, m;
    mb = '0; bias = '0; maxb = '0; hidden = '0; keep_zero_sign = 1'b0;
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && (o == FIRST || out_kind == mma_pkg::OUT_BITS'(o))) begin
        keep_zero_sign = mma_pkg::out_signed_zero(o) != 0;
        mb     = XE'(mma_pkg::out_man_bits(o));
        hidden = KI'(mma_pkg::out_man_bits(o));
        bias   = XE'(mma_pkg::fmt_bias(mma_pkg::out_format(o)));
        maxb   = XE'((mma_pkg::fmt_max_finite(mma_pkg::out_format(o))
                      >> mma_pkg::fmt_man_bits(mma_pkg::out_format(o)))
                     & ((64'd1 << mma_pkg::fmt_exp_bits(mma_pkg::out_format(o))) - 64'd1));
      end
    biased   = kept[hidden] ? q + mb + bias : '0;
    ovf      = inf || biased > maxb;
    inf_sign = inf ? inf_neg : neg;
    sgn      = neg && (kept != '0 || keep_zero_sign);   // a result that rounds to zero is +0 (or -0)
    // the bits, assembled for each output kind of the mask (constant slices), chosen by out_kind
    d = '0;
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && (o == FIRST || out_kind == mma_pkg::OUT_BITS'(o))) begin
        f  = mma_pkg::out_format(o);
        w  = mma_pkg::fmt_width(f);
        eb = mma_pkg::fmt_exp_bits(f);
        fm = mma_pkg::fmt_man_bits(f);
        m  = mma_pkg::out_man_bits(o);
        num = DW'((64'(sgn) << (w - 1)) | ((64'(biased) & ((64'd1 << eb) - 64'd1)) << fm)
                  | ((64'(kept) & ((64'd1 << m) - 64'd1)) << (fm - m)));
        if (nan)      d = DW'(mma_pkg::fmt_canonical_nan(f));
        else if (ovf) d = DW'(mma_pkg::fmt_inf(f) | (64'(inf_sign) << (w - 1)));
        else          d = num;
      end
  end
endmodule
