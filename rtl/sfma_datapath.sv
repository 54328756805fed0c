// sfma_datapath: one IEEE 754 fused multiply-add d = a * b + c, rounded once to nearest even, in the
// format of the output kind out_kind (f64-rne or f32-rne among OUT_MASK: A, B, C and D share it, as in
// the model's SFMA pass), subnormals kept, combinational (docs/algorithms.md, SFMA; the model's integer
// FMA is cmodel/src/ieee_arith.h).
//   Specials (mma_special over the product and C): a NaN operand, 0 * inf, inf - inf give the format's
//   canonical NaN (the model's DMMA/MFMA convention); otherwise an infinite product or C gives that inf.
//   Finite: the exact product P = sig_a * sig_b (2p bits, p = MW + 1, its last bit at pe = e_a + e_b - 2MW)
//   and C's significand (last bit at ce = e_c - MW) are added in a window of W = 3p + 5 bits whose bit G
//   is P's last bit.  C's last bit lands at G + d, d = ce - pe:
//     -G <= d <= DMAX: C fits; the sum is exact.
//     d < -G: C's bits below the window are ORed into bit 0 (the sticky bit).  A nonzero P with a
//       normal factor is >= 2^(p-1) units of 2^pe and C < P 2^-G, so D's half-ulp is >= 2^(G-2) = 2 window
//       units and the jammed bit decides no rounding differently (two subnormal factors: D is subnormal,
//       whose half-ulp is far above the window).
//     d > DMAX = 2p + 2: C's last bit is 2p + 2 or more above P's, so P < 2^(ce - 2), a quarter of C's ulp
//       (the half-ulp of the binade below C): C is placed at d = DMAX and P stays where it is (smaller
//       still, nonzero iff P is), which rounds to the same D.
//   A zero term (sig 0) takes the other's last-bit weight (d = 0).  The signed sum goes to mma_encode (normalize, RNE, pack:
//   overflow to inf, subnormals, a nonzero sum rounding to zero keeps its sign); an exact zero sum is +0
//   except that a zero product and a zero C, both negative, give -0 (IEEE 754 6.3).
// MUTANT = 1 (the mutation check only): C's shifted-out bits are dropped instead of jammed (a lost
// sticky bit), which the co-simulation must catch.
module sfma_datapath #(
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F64_RNE,
  parameter int MASK     = mma_pkg::out_formats(OUT_MASK),   // formats of A, B, C and D
  parameter int MW       = mma_pkg::max_man_bits(MASK),      // fractional bits of a significand
  parameter int AW       = mma_pkg::max_width(MASK),         // operand and D width (f32: the low end)
  parameter int MUTANT   = 0
) (
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [AW-1:0]                 a, b, c,
  output logic [AW-1:0]                 d
);
  localparam int EW   = mma_pkg::EW;
  localparam int P    = MW + 1;                 // significand bits (precision p)
  localparam int G    = 3;                      // window bits below P's last bit
  localparam int DMAX = 2 * P + 2;              // C's highest placement above P's last bit
  localparam int W    = G + DMAX + P;           // the window: 3p + 5 bits
  localparam int SW   = W + 2;                  // the signed sum (carry, sign)
  localparam int LW   = EW + 3;                 // exponents of last bits: e_a + e_b - 2MW - G > -2^(EW+1)
  localparam int RW   = mma_pkg::clog2(W + 1) + 1;  // C's right shift, saturated at W

  logic [mma_pkg::FMT_BITS-1:0] fmt;
  assign fmt = mma_pkg::out_fmt_of(OUT_MASK, out_kind);

  mma_pkg::fp_t ua, ub, uc;
  logic [MW:0]  sa, sb, sc;
  mma_unpack #(.MASK(MASK), .MW(MW), .IW(AW)) u_unpack_a (.raw(a), .fmt(fmt), .u(ua), .sig(sa));
  mma_unpack #(.MASK(MASK), .MW(MW), .IW(AW)) u_unpack_b (.raw(b), .fmt(fmt), .u(ub), .sig(sb));
  mma_unpack #(.MASK(MASK), .MW(MW), .IW(AW)) u_unpack_c (.raw(c), .fmt(fmt), .u(uc), .sig(sc));

  // ---- specials: the product and C as mma_special's two terms ----
  logic p_neg, p_zero, c_zero, d_nan, d_inf, d_inf_neg;
  assign p_neg  = mma_pkg::fp_sign(ua) ^ mma_pkg::fp_sign(ub);
  assign p_zero = mma_pkg::fp_is_zero(ua) | mma_pkg::fp_is_zero(ub);
  assign c_zero = mma_pkg::fp_is_zero(uc);
  mma_special #(.N(2)) u_special (
    .nan({mma_pkg::fp_prod_nan(ua, ub), mma_pkg::fp_is_nan(uc)}),
    .inf({mma_pkg::fp_prod_inf(ua, ub), mma_pkg::fp_is_inf(uc)}),
    .neg({p_neg, mma_pkg::fp_sign(uc)}), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  // ---- the exact product and C in the window ----
  logic [2*P-1:0]        prod;
  logic signed [LW-1:0]  pe, ce, c_up, lsb_exp;   // pe: P's last bit (C's when P is zero); c_up = d
  logic [RW-1:0]         rsh;
  logic [W-1:0]          c_top, c_al;
  logic                  c_lost;
  assign prod = (2*P)'(sa) * (2*P)'(sb);
  assign ce   = LW'(mma_pkg::fp_exp(uc)) - LW'(MW);
  assign pe   = p_zero ? ce : LW'(mma_pkg::fp_exp(ua)) + LW'(mma_pkg::fp_exp(ub)) - LW'(2 * MW);
  assign c_up = c_zero ? '0 : ce - pe;
  // C at the top of the window (d = DMAX), shifted right by DMAX - d (0 when d > DMAX, all of it at W)
  assign c_top = {sc, (W - P)'(0)};
  always @* begin
    logic signed [LW-1:0] r;
    r = LW'(DMAX) - c_up;
    if (r < 0)                rsh = '0;
    else if (r >= LW'(W))     rsh = RW'(W);
    else                      rsh = RW'(r);
  end
  assign c_al    = rsh >= RW'(W) ? '0 : c_top >> rsh;
  assign c_lost  = rsh >= RW'(W) ? sc != '0 : (c_top & ~({W{1'b1}} << rsh)) != '0;
  assign lsb_exp = (c_up > LW'(DMAX) ? ce - LW'(DMAX) : pe) - LW'(G);

  logic [W-1:0]         p_w, c_w;
  logic signed [SW-1:0] sum;
  assign p_w = W'(prod) << G;
  assign c_w = MUTANT == 1 ? c_al : c_al | W'(c_lost);       // the sticky bit (the mutant loses it)
  assign sum = (p_neg ? -(SW'(p_w)) : SW'(p_w)) + (mma_pkg::fp_sign(uc) ? -(SW'(c_w)) : SW'(c_w));

  logic [AW-1:0] rounded;
  mma_encode #(.SW(SW), .LW(LW), .OUT_MASK(OUT_MASK), .DW(AW)) u_encode (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(out_kind), .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg),
    .d(rounded));

  // -0: a zero product plus a zero C, both negative (an exact zero sum of nonzero terms stays +0)
  logic neg_zero;
  assign neg_zero = p_zero && c_zero && p_neg && mma_pkg::fp_sign(uc) && !d_nan && !d_inf;
  always @* begin
    d = rounded;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (MASK[f] && fmt == mma_pkg::FMT_BITS'(f) && neg_zero) d = AW'(64'd1 << (mma_pkg::fmt_width(f) - 1));
  end
endmodule
