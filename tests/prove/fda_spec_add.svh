// The specification's IEEE adder (C added last: fda_spec's C_LAST), in a header of its own so that
// tests/prove/add_last_harness.sv can set it against rtl/'s.  Shares nothing with rtl/ but the format
// table (mma_pkg).  Included by path from the repository root.
`ifndef FDA_SPEC_ADD_SVH
`define FDA_SPEC_ADD_SVH

// x + y for two numbers of an IEEE format fmt (among the formats of OUT_MASK's kinds), rounded once to
// nearest even in it (IEEE 754 addition), as the textbook adder does: NaN if either is NaN or +inf + -inf
// (the format's canonical NaN), else the infinity present; else the larger magnitude first, the smaller
// shifted right to its exponent on a grid three bits finer than its last place (guard, round, and the
// bits below them ORed into one sticky bit), added or subtracted, normalized (a carry shifts right, a
// cancellation left, not below the smallest exponent), rounded to nearest even on guard, round and
// sticky, past the largest finite -> inf.  The sticky bit is exact enough: bits fall below the grid only
// when the exponents differ by 2 or more, and then the sum loses at most one leading bit to cancellation,
// so the round and sticky bits still lie below half an ulp of the result.  An exact zero sum is +0, but
// -0 + -0 = -0.
module fda_spec_add #(
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ
) (
  input  logic [mma_pkg::FMT_BITS-1:0] fmt,
  input  logic [31:0]                  x, y,
  output logic [31:0]                  d
);
  localparam int SW = 24 + 3 + 1;                      // f32's significand, guard/round/sticky, a carry
  always @* begin
    logic [31:0]   bits_x, bits_y, man_x, man_y, ones;
    logic [SW-1:0] sig_hi, sig_lo, lost, sum;
    logic [8:0]    e_x, e_y, e_hi, e_lo, shift, e;
    logic          sx, sy, s_hi, nan_x, nan_y, inf_x, inf_y, sticky, up;
    int            w, eb, mb, maxb;
    logic [31:0]   nan_bits, inf_bits;
    d = '0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (((mma_pkg::out_formats(OUT_MASK) >> f) & 1) != 0 && fmt == mma_pkg::FMT_BITS'(f)) begin
        w = mma_pkg::fmt_width(f); eb = mma_pkg::fmt_exp_bits(f); mb = mma_pkg::fmt_man_bits(f);
        nan_bits = 32'(mma_pkg::fmt_canonical_nan(f));
        inf_bits = 32'(mma_pkg::fmt_inf(f));
        ones   = (32'd1 << eb) - 32'd1;
        maxb   = (1 << eb) - 2;
        bits_x = x & ((32'd1 << w) - 32'd1);
        bits_y = y & ((32'd1 << w) - 32'd1);
        sx = bits_x[w-1]; sy = bits_y[w-1];
        man_x = bits_x & ((32'd1 << mb) - 32'd1);  e_x = 9'((bits_x >> mb) & ones);
        man_y = bits_y & ((32'd1 << mb) - 32'd1);  e_y = 9'((bits_y >> mb) & ones);
        nan_x = 32'(e_x) == ones && man_x != 0;  inf_x = 32'(e_x) == ones && man_x == 0;
        nan_y = 32'(e_y) == ones && man_y != 0;  inf_y = 32'(e_y) == ones && man_y == 0;
        // significands with the hidden one, 3 bits below the last place; a subnormal at exponent 1
        sig_hi = SW'(e_x != 0 ? man_x | (32'd1 << mb) : man_x) << 3;
        sig_lo = SW'(e_y != 0 ? man_y | (32'd1 << mb) : man_y) << 3;
        e_hi = e_x != 0 ? e_x : 9'd1;
        e_lo = e_y != 0 ? e_y : 9'd1;
        s_hi = sx;
        if (e_lo > e_hi || (e_lo == e_hi && sig_lo > sig_hi)) begin
          {sig_hi, sig_lo} = {sig_lo, sig_hi};
          {e_hi, e_lo} = {e_lo, e_hi};
          s_hi = sy;
        end
        shift = e_hi - e_lo;
        if (shift > 9'(mb + 4)) begin                  // entirely below the round bit: sticky only
          sticky = sig_lo != '0;
          sig_lo = '0;
        end else begin
          lost   = sig_lo & ~({SW{1'b1}} << shift);
          sticky = lost != '0;
          sig_lo = sig_lo >> shift;
        end
        sig_lo[0] = sig_lo[0] | sticky;
        sum = sx == sy ? sig_hi + sig_lo : sig_hi - sig_lo;
        e = e_hi;
        if (sum[mb + 4]) begin                         // a carry: one place right, the bit out sticky
          sum = (sum >> 1) | SW'(sum[0]);
          e = e + 1;
        end else
          for (int i = 0; i < SW; i++)                 // a cancellation: left while above exponent 1
            if (!sum[mb + 3] && e > 9'd1 && sum != '0) begin
              sum = sum << 1;
              e = e - 1;
            end
        up  = sum[2] && (sum[1] || sum[0] || sum[3]);  // nearest even on guard, round, sticky
        sum = (sum >> 3) + SW'(up);
        if (sum[mb + 1]) begin                         // the rounding carried into a new leading one
          sum = sum >> 1;
          e = e + 1;
        end
        if (!sum[mb]) e = '0;                          // subnormal (or zero)
        if (nan_x || nan_y || (inf_x && inf_y && sx != sy)) d = nan_bits;
        else if (inf_x)                                  d = inf_bits | (32'(sx) << (w - 1));
        else if (inf_y)                                  d = inf_bits | (32'(sy) << (w - 1));
        else if (sum == '0)                              d = 32'(sx && sy) << (w - 1);
        else if (32'(e) > 32'(maxb))                     d = inf_bits | (32'(s_hi) << (w - 1));
        else d = (32'(s_hi) << (w - 1)) | (32'(e) << mb) | (32'(sum) & ((32'd1 << mb) - 32'd1));
      end
  end
endmodule

`endif
