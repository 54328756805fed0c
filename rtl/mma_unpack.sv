// mma_unpack: raw operand bits -> (sign, exponent, significand, class) for any format in MASK, the
// format chosen at run time by `fmt`.  value = (-1)^sign * sig * 2^(exp - MW): sig carries MW fractional
// bits whatever the format.  Normal: hidden one, exp = E - bias.  Subnormal: exp = 1 - bias.  Zero:
// exp = -126 whatever the format (MMA-Sim convention).  Step 0 lives here: TF32 drops its low 13 bits
// (NaN 0x7F800001 becomes +inf), UE4M3 ignores its sign bit.  A format outside MASK decodes as +0.
module mma_unpack #(
  parameter int MASK = 1 << mma_pkg::FMT_F16,
  parameter int MW   = mma_pkg::max_man_bits(MASK),  // fractional bits of sig
  parameter int IW   = mma_pkg::max_width(MASK)      // raw input width
) (
  input  logic [IW-1:0]              raw,
  input  logic [3:0]                 fmt,
  output logic                       sign,
  output logic signed [mma_pkg::EW-1:0] exp,
  output logic [MW:0]                sig,
  output logic                       is_zero,
  output logic                       is_sub,
  output logic                       is_inf,
  output logic                       is_nan
);
  localparam int EW = mma_pkg::EW;

  always @* begin
    logic [63:0] r, man, e;
    int w, eb, mb, sp;
    sign = 1'b0; exp = EW'(mma_pkg::ZERO_EXP); sig = '0;
    is_zero = 1'b1; is_sub = 1'b0; is_inf = 1'b0; is_nan = 1'b0;
    r = '0; man = '0; e = '0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++) begin
      if (MASK[f] && fmt == 4'(f)) begin
        w  = mma_pkg::fmt_width(f);
        eb = mma_pkg::fmt_exp_bits(f);
        mb = mma_pkg::fmt_man_bits(f);
        sp = mma_pkg::fmt_specials(f);
        r  = 64'(raw);
        if (f == mma_pkg::FMT_TF32) begin r = r >> 13; w = 19; end  // Step 0: low 13 bits ignored
        if (f == mma_pkg::FMT_UE4M3) r = r & 64'h7F;                 // Step 0: sign bit ignored
        r   = r & ((64'd1 << w) - 64'd1);
        man = r & ((64'd1 << mb) - 64'd1);
        e   = (r >> mb) & ((64'd1 << eb) - 64'd1);
        sign = mma_pkg::fmt_signed(f) != 0 && r[w-1];
        is_zero = 1'b0;
        if (sp == mma_pkg::SPEC_E8M0) begin
          // ue8m0: 2^(E-127), all ones NaN, no zero and no sign
          is_nan = e == 64'hFF;
          sig = (MW+1)'(1) << MW;
          exp = EW'(e) - EW'(127);
        end else if (sp == mma_pkg::SPEC_IEEE && e == (64'd1 << eb) - 64'd1) begin
          is_nan = man != 0;
          is_inf = man == 0;
          exp = '0;
        end else if (sp == mma_pkg::SPEC_FN && e == (64'd1 << eb) - 64'd1
                     && man == (64'd1 << mb) - 64'd1) begin
          is_nan = 1'b1;
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
  end
endmodule
