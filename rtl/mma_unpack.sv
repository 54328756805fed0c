// mma_unpack: raw operand bits -> sign, exponent, class (one mma_pkg::fp_t bundle) and significand, for any
// format in MASK, the format chosen at run time by `fmt`.  value = (-1)^sign * sig * 2^(exp - MW): sig
// carries MW fractional bits whatever the format.  Normal: hidden one, exp = E - bias.  Subnormal:
// exp = 1 - bias.  Zero: exp = ZERO_EXP whatever the format (MMA-Sim convention).  Step 0 lives here:
// a format's ignored bits (mma_pkg::fmt_ignored: TF32's low 13, UE4M3's sign) are cleared, and the
// mantissa bits beyond its precision dropped (TF32's NaN 0x7F800001 becomes +inf).  A format outside MASK decodes as +0.
// The significand is a port of its own: its width is a parameter, and Yosys 0.23 has no parameterized
// types (no `parameter type`); the bundle's layout is mma_pkg's.
module mma_unpack #(
  parameter int MASK = 1 << mma_pkg::FMT_F16,
  parameter int MW   = mma_pkg::max_man_bits(MASK),  // fractional bits of sig
  parameter int IW   = mma_pkg::max_width(MASK)      // raw input width
) (
  input  logic [IW-1:0]                 raw,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt,
  output mma_pkg::fp_t                  u,
  output logic [MW:0]                   sig
);
  localparam int EW = mma_pkg::EW;

  always @* begin
    logic [63:0] r, man, e, e_ones;
    int w, eb, mb, sp, drop;
    logic sign, is_zero, is_sub, is_inf, is_nan;
    logic signed [EW-1:0] exp;
    sign = 1'b0; exp = EW'(mma_pkg::ZERO_EXP); sig = '0;
    is_zero = 1'b1; is_sub = 1'b0; is_inf = 1'b0; is_nan = 1'b0;
    r = '0; man = '0; e = '0; e_ones = '0; w = 0; eb = 0; mb = 0; sp = 0; drop = 0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++) begin
      if (MASK[f] && fmt == mma_pkg::FMT_BITS'(f)) begin
        mb = mma_pkg::fmt_precision(f);
        drop = mma_pkg::fmt_man_bits(f) - mb;
        w  = mma_pkg::fmt_width(f) - drop;
        eb = mma_pkg::fmt_exp_bits(f);
        sp = mma_pkg::fmt_specials(f);
        r  = (64'(raw) & ~mma_pkg::fmt_ignored(f)) >> drop;  // Step 0
        r   = r & ((64'd1 << w) - 64'd1);
        man = r & ((64'd1 << mb) - 64'd1);
        e   = (r >> mb) & ((64'd1 << eb) - 64'd1);
        e_ones = (64'd1 << eb) - 64'd1;
        sign = mma_pkg::fmt_signed(f) != 0 && r[w-1];
        is_zero = 1'b0;
        if (sp == mma_pkg::SPEC_E8M0) begin
          // ue8m0: 2^(E-bias), all ones NaN, no zero and no sign
          is_nan = e == e_ones;
          sig = (MW+1)'(1) << MW;
          exp = EW'(e) - EW'(mma_pkg::fmt_bias(f));
        end else if (sp == mma_pkg::SPEC_IEEE && e == e_ones) begin
          is_nan = man != 0;
          is_inf = man == 0;
          exp = '0;
        end else if (sp == mma_pkg::SPEC_FN && e == e_ones && man == (64'd1 << mb) - 64'd1) begin
          is_nan = 1'b1;  // e4m3, ue4m3: no inf, one NaN mantissa
          exp = '0;
        end else if (sp == mma_pkg::SPEC_FNUZ && r == 64'd1 << (w - 1)) begin
          is_nan = 1'b1;  // AMD fp8/bf8: "-0" is the only NaN
          exp = '0;
        end else if (e == 0) begin
          is_zero = man == 0;
          is_sub  = man != 0;
          sig = (MW+1)'(man) << (MW - mb);
          exp = man == 0 ? EW'(mma_pkg::ZERO_EXP) : EW'(1 - mma_pkg::fmt_bias(f));
        end else begin
          sig = (MW+1)'(man | (64'd1 << mb)) << (MW - mb);
          exp = EW'(e) - EW'(mma_pkg::fmt_bias(f));
        end
      end
    end
    u = mma_pkg::fp_make(sign, exp, is_zero, is_sub, is_inf, is_nan);
  end
endmodule
