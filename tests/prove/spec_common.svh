// What the independent specifications of tests/prove (fda_spec, gdfs_spec, fdrda_spec) share, written
// once: the operand decoding, the last step every summation kind ends in (an exact fixed-point sum
// normalized and rounded to the output kind) and make verify's port contract (D registered on the
// handshake).  Like the
// specifications it shares nothing with rtl/ but the format table (mma_pkg).  Included by path from the
// repository root (make verify and make prove run there).
`ifndef SPEC_COMMON_SVH
`define SPEC_COMMON_SVH

/* verilator lint_off DECLFILENAME */  // the specifications' shared modules, in one header
// sum * 2^lsb (sum exact, signed) rounded to the output kind out_kind (one of OUT_MASK's kinds): RZ, RNE
// or RD at its kept mantissa bits, subnormals at the format's minimum exponent, a biased exponent past
// the largest finite -> inf of the sum's sign (in every rounding, as the model's encoder); a zero D +0, or
// -0 where the output kind keeps the sign of zero and the sum was negative.  Special values decided
// before: NaN (any_nan, or pos_inf and neg_inf both) -> the format's canonical NaN; else an infinity
// present -> that infinity.  D is DW bits (32; 64 for f64 D), a narrower format in its low end.
// ROUND_RZ = 1 rounds toward zero whatever the output kind's rounding: a specification's mutant only.
module spec_round #(
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int SW       = 64,                           // the sum's width
  parameter int EW       = 16,                           // signed exponents
  parameter int DW       = 32,                           // D's width
  parameter int ROUND_RZ = 0
) (
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic signed [SW-1:0]          sum,
  input  logic signed [EW-1:0]          lsb,             // the weight of the sum's last bit
  input  logic                          any_nan, pos_inf, neg_inf,
  output logic [DW-1:0]                 d
);
  localparam int KW = SW + DW;                           // kept significand, shifted left at most DW - 8
  always @* begin
    logic signed [EW-1:0] e_lead, q, r, emin;
    logic [SW-1:0]        mag, low;
    logic [KW-1:0]        kept;
    logic                 guard, sticky, up, neg_d;
    int                   mbo, rnd, fo, bias, ebo, fmo, wo, szero, maxb, biased;
    logic [DW-1:0]        nan_bits, inf_bits, num;
    mbo = 23; rnd = mma_pkg::ROUND_RZ; fo = mma_pkg::FMT_F32; szero = 0;
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && out_kind == mma_pkg::OUT_BITS'(o)) begin
        mbo = mma_pkg::out_man_bits(o);
        rnd = mma_pkg::out_rounding(o);
        fo  = mma_pkg::out_format(o);
        szero = mma_pkg::out_signed_zero(o);
      end
    if (ROUND_RZ != 0) rnd = mma_pkg::ROUND_RZ;
    bias = 0; ebo = 8; fmo = 23; wo = 32; nan_bits = '0; inf_bits = '0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (f == fo) begin
        bias = mma_pkg::fmt_bias(f);
        ebo  = mma_pkg::fmt_exp_bits(f);
        fmo  = mma_pkg::fmt_man_bits(f);
        wo   = mma_pkg::fmt_width(f);
        nan_bits = DW'(mma_pkg::fmt_canonical_nan(f));
        inf_bits = DW'(mma_pkg::fmt_inf(f));
      end
    maxb  = (1 << ebo) - 2;                               // an IEEE format's largest biased exponent
    emin  = EW'(1 - bias);
    neg_d = sum < 0;
    mag   = neg_d ? SW'(-sum) : SW'(sum);
    e_lead = lsb;
    for (int i = 0; i < SW; i++) if (mag[i]) e_lead = lsb + EW'(i);
    q = (e_lead < emin ? emin : e_lead) - EW'(mbo);       // the weight of D's last kept bit
    r = q - lsb;
    guard = 1'b0; sticky = 1'b0; low = '0;
    if (r <= 0) begin
      kept = KW'(mag) << (-r);
    end else begin
      kept   = KW'(mag) >> r;
      guard  = ((mag >> (r - 1)) & SW'(1)) != '0;
      low    = ~({SW{1'b1}} << (r - 1));
      sticky = (mag & low) != '0;
    end
    case (rnd)
      mma_pkg::ROUND_RNE: up = guard && (sticky || kept[0]);
      mma_pkg::ROUND_RD:  up = neg_d && (guard || sticky);
      default:            up = 1'b0;
    endcase
    kept = kept + KW'(up);
    if (kept >> (mbo + 1) != '0) begin                     // the rounding carried into a new leading one
      kept = kept >> 1;
      q = q + 1;
    end
    biased = (kept >> mbo) != '0 ? 32'(q) + mbo + bias : 0;
    num = (DW'(neg_d && (kept != '0 || szero != 0)) << (wo - 1)) | (DW'(biased) << fmo)
        | ((DW'(kept) & ((DW'(1) << mbo) - DW'(1))) << (fmo - mbo));
    if (any_nan || (pos_inf && neg_inf)) d = nan_bits;
    else if (pos_inf || neg_inf)        d = inf_bits | (DW'(neg_inf) << (wo - 1));
    else if (biased > maxb)             d = inf_bits | (DW'(neg_d) << (wo - 1));
    else                                d = num;
  end
endmodule

// An A or B operand: raw read in the format fmt selects among MASK's, from the format table's fields:
// sign, exponent (E - bias for a normal, 1 - bias for a subnormal, ZERO_EXP for a zero: the model's
// convention), integer significand with MW fractional bits, and zero / infinity / NaN by the format's
// kind of special values (IEEE, FN: all-ones NaN only, FNUZ: the negative zero encoding is the NaN);
// the bits the format ignores (tf32's 13 low bits: Step 0) cleared first.  A format MASK does not hold,
// or an infinity or NaN, reads as a zero significand.
module spec_decode #(
  parameter int MASK = 1 << mma_pkg::FMT_E4M3,
  parameter int AW   = 8,
  parameter int MW   = 3,
  parameter int EW   = 16
) (
  input  logic [mma_pkg::FMT_BITS-1:0] fmt,
  input  logic [AW-1:0]                raw,
  output logic                         s,
  output logic signed [EW-1:0]         e,
  output logic [MW:0]                  m,
  output logic                         zero, inf, nan
);
  // a significand of mbits fractional bits with MW of them: tf32 stores 23 and keeps 10 (the 13 below are
  // the ignored bits, cleared first: the right shift drops only zeros)
  function automatic logic [MW:0] to_mw(input logic [63:0] sig, input int mbits);
    to_mw = mbits >= MW ? (MW+1)'(sig >> (mbits - MW)) : (MW+1)'(sig << (MW - mbits));
  endfunction
  always @* begin
    int w, ebits, mbits, bias, sp;
    logic [63:0] bits, man, ex, ones;
    s = 1'b0; e = EW'(mma_pkg::ZERO_EXP); m = '0; zero = 1'b1; inf = 1'b0; nan = 1'b0;
    w = 0; ebits = 0; mbits = 0; bias = 0; sp = 0; bits = '0; man = '0; ex = '0; ones = '0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (MASK[f] && fmt == mma_pkg::FMT_BITS'(f)) begin
        w = mma_pkg::fmt_width(f); ebits = mma_pkg::fmt_exp_bits(f); mbits = mma_pkg::fmt_man_bits(f);
        bias = mma_pkg::fmt_bias(f); sp = mma_pkg::fmt_specials(f);
        bits = 64'(raw) & ((64'd1 << w) - 64'd1) & ~mma_pkg::fmt_ignored(f);
        man  = bits & ((64'd1 << mbits) - 64'd1);
        ex   = (bits >> mbits) & ((64'd1 << ebits) - 64'd1);
        ones = (64'd1 << ebits) - 64'd1;
        s    = bits[w-1];
        inf  = sp == mma_pkg::SPEC_IEEE && ex == ones && man == 0;
        nan  = (sp == mma_pkg::SPEC_IEEE && ex == ones && man != 0)
            || (sp == mma_pkg::SPEC_FN && ex == ones && man == (64'd1 << mbits) - 64'd1)
            || (sp == mma_pkg::SPEC_FNUZ && bits == (64'd1 << (w - 1)));
        zero = !nan && ex == 0 && man == 0;
        if (zero)         begin e = EW'(mma_pkg::ZERO_EXP); m = '0; end
        else if (ex == 0) begin e = EW'(1 - bias);  m = to_mw(man, mbits); end
        else              begin e = EW'(ex) - EW'(bias); m = to_mw(man | (64'd1 << mbits), mbits); end
        if (inf || nan)   begin e = '0; m = '0; end
      end
  end
endmodule

// make verify's port contract (docs/verify-your-design.md, section 4): the result of the vector taken on
// the handshake registered and held until taken, one vector at a time.
module spec_hold #(
  parameter int DW = 32                                  // D's width
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          in_valid,
  output logic          in_ready,
  input  logic [DW-1:0] result,                          // the vector's D, combinationally
  output logic          out_valid,
  input  logic          out_ready,
  output logic [DW-1:0] d
);
  logic full;
  always @(posedge clk) begin
    if (!rst_n) begin
      full <= 1'b0;
    end else begin
      if (out_valid && out_ready) full <= 1'b0;
      if (in_valid && in_ready) begin
        full <= 1'b1;
        d    <= result;
      end
    end
  end
  assign in_ready  = !full || out_ready;
  assign out_valid = full;
endmodule
/* verilator lint_on DECLFILENAME */
`endif
