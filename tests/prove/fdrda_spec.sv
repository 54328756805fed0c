// fdrda_spec: an independent specification of AMD CDNA3's fused dot, round-down add (FDRDA, CoFDRDA) and
// its grouped form (GFDRDA, CoGFDRDA) for make prove (tests/prove/all.sh, docs/formal.md), written from
// the MMA-Sim paper (sections IV-F to IV-I) and the golden C model (cmodel/src/algo_fdrda.c) where the
// paper leaves a point open; it shares no arithmetic with rtl/: only the format table (mma_pkg's fields
// of rtl/mma_formats.svh: widths, biases, kinds of special values, the output kind's format and
// rounding, the FDRDA constants 31, 24, 25, 128) is read.  One vector -> D, combinationally, in the
// plainest way: operands decoded to (sign, exponent, integer significand), exact integer products, maxima
// of exponents, shifts that truncate (toward zero, on the magnitude) or floor (on the signed value),
// exact sums, one final rounding.
//   value of an operand = (-1)^s * m * 2^(e - MW): m its integer significand with MW fractional bits (MW
//   the largest mantissa among A's and B's formats), e = E - bias (normal) or 1 - bias (subnormal); a
//   zero operand has e = -126 (mma_pkg::ZERO_EXP, the model's ZERO_OPERAND_EXP, whatever its format),
//   and that exponent takes part in the maxima.  fnuz formats (e4m3fnuz, e5m2fnuz): no infinity, 0x80 the one NaN, 0x00
//   the one zero.  tf32: the 13 ignored low bits cleared first (Step 0).  C: f32 (a later pass's C: the
//   previous pass's D), e_c = E - 127, or -126 for a subnormal or zero C.
//   Step 1: NaN if C or an operand is NaN or a product is 0 * inf; else +inf and -inf both present
//     (C's and the products' infinities) NaN, one kind of infinity present that infinity.
//   Step 2: product k = (-1)^(sa^sb) * (ma * mb) * 2^(ea + eb - 2 MW), exact, unnormalized; a product of
//     finite operands with |p| >= 2^128 overflows to an infinity of its sign.
//   Step 3: only when Step 1 found no NaN and no infinity: the overflowed products' infinities (both
//     signs: NaN).  (algo_fdrda.c amd_products: an overflow does not meet Step 1's infinities.)
//   FDRDA Steps 4-5: e_dot = max e_k over the pass's products; t_k = trunc(|p_k| * 2^(F - e_dot))
//     (toward zero on the magnitude); s_dot = sum of the signed t_k, exact (units 2^(e_dot - F)).
//   GFDRDA Steps 4-5: the same over the even products (local index 0, 2, ..) -> s_even, e_even, and the
//     odd ones -> s_odd, e_odd.  Steps 6-7: e_dot = max(e_even, e_odd); s_even, s_odd each shifted right
//     by e_dot - e_group keeping F fractional bits, rounded ALIGN_DOT (RD: floor of the signed value;
//     RZ: toward zero), summed: s_dot.
//   FDRDA Step 6 / GFDRDA Step 8: e_max = max(e_dot, e_c); s_dot to 31 fractional bits below 2^e_max
//     (the 31 counted from 2^e_max, as the 24 of Step 4 are from 2^e_dot: algo_fdrda.c align_sum,
//     fixed.h fixed_align_rd), rounded ALIGN_DOT; C to 24 fractional bits below 2^e_max, rounded ALIGN_C;
//     GFDRDA: when e_c < e_max - 25 C rounds toward zero instead (it is then shifted out whole: 0).
//   Step 7 / 9: the exact sum of the two, in units of 2^(e_max - 31).
//   Step 8 / 10: rounded to the output kind OUT (f32 RNE: subnormals at 2^-126, past the largest finite
//     -> inf, in any rounding, as the model's fmt_encode); a sum of zero is +0, a negative sum that
//     rounds to zero -0 (IEEE: out_signed_zero).
// CHAIN > 1 (CoFDRDA, CoGFDRDA): CHAIN passes of K / CHAIN contiguous products; a pass's D, rounded to
// OUT, is the next pass's C.  Scope: ALGO_GFDRDA with e4m3fnuz / e5m2fnuz A and B in any mix (CDNA3 FP8,
// K = 16 and two passes of 16), ALGO_FDRDA with f16 / bf16 (and tf32 through Step 0) A and B; C f32;
// OUT an f32 output kind; F <= 31.
// Ports: fdrda_unit's (clk, rst_n, in_valid/in_ready, fmt_a, fmt_b, c, a, b, out_valid/out_ready, d),
// and, unused, the port contract's fmt_c, out_kind, sa, sb (make verify and make prove connect a module
// that is not one of the project's units by fda_unit's ports: docs/verify-your-design.md, section 4).
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 aligns the
// products (Step 4) with F - 1 fractional bits.
// The port contract of make verify: D is registered on the handshake and held until taken.
`include "tests/prove/spec_common.svh"

module fdrda_spec #(
  parameter int K           = 16,
  parameter int F           = 24,
  parameter int CHAIN       = 1,
  parameter int ALGO        = mma_pkg::ALGO_GFDRDA,
  parameter int AB_MASK     = (1 << mma_pkg::FMT_E4M3FNUZ) | (1 << mma_pkg::FMT_E5M2FNUZ),
  parameter int ALIGN_DOT   = mma_pkg::ROUND_RD,
  parameter int ALIGN_C     = mma_pkg::ROUND_RD,
  parameter int OUT         = mma_pkg::OUT_F32_RNE,
  parameter int SPEC_MUTANT = 0,
  parameter int AW          = mma_pkg::max_width(AB_MASK)
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  /* verilator lint_off UNUSEDSIGNAL */  // the port contract's selects: C is f32, D is OUT, no scales
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [7:0]                    sa, sb,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int KP = K / CHAIN;                         // products per pass

  logic [(CHAIN+1)*32-1:0] cs;                           // pass p's C at [p*32 +: 32]; the last is D
  assign cs[31:0] = c;
  genvar p;
  generate
    for (p = 0; p < CHAIN; p++) begin : g_pass
      fdrda_spec_pass #(.K(KP), .F(SPEC_MUTANT == 1 ? F - 1 : F), .ALGO(ALGO), .AB_MASK(AB_MASK),
                        .ALIGN_DOT(ALIGN_DOT), .ALIGN_C(ALIGN_C), .OUT(OUT), .AW(AW),
                        .C_FMT(p == 0 ? mma_pkg::FMT_F32 : mma_pkg::out_format(OUT))) u_pass (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .c(cs[p*32 +: 32]), .a(a[p*KP*AW +: KP*AW]), .b(b[p*KP*AW +: KP*AW]),
        .d(cs[(p+1)*32 +: 32]));
    end
  endgenerate

  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(cs[CHAIN*32 +: 32]),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule

/* verilator lint_off DECLFILENAME */  // the specification's parts, kept beside it
// One FDRDA or GFDRDA pass over K products and C, combinational.
module fdrda_spec_pass #(
  parameter int K         = 16,
  parameter int F         = 24,
  parameter int ALGO      = mma_pkg::ALGO_GFDRDA,
  parameter int AB_MASK   = 1 << mma_pkg::FMT_E4M3FNUZ,
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,
  parameter int ALIGN_C   = mma_pkg::ROUND_RD,
  parameter int OUT       = mma_pkg::OUT_F32_RNE,
  parameter int AW        = 8,
  parameter int C_FMT     = mma_pkg::FMT_F32
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  output logic [31:0]                   d
);
  // the largest mantissa over a mask of formats
  function automatic int frac_bits(input int mask);
    frac_bits = 0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (mask[f] && mma_pkg::fmt_man_bits(f) > frac_bits) frac_bits = mma_pkg::fmt_man_bits(f);
  endfunction
  function automatic int larger(input int x, input int y);
    larger = x > y ? x : y;
  endfunction

  localparam int GROUPED = ALGO == mma_pkg::ALGO_GFDRDA ? 1 : 0;
  localparam int MW   = frac_bits(AB_MASK);                // fractional bits of an A or B significand
  localparam int G    = larger(2 * MW, F);                 // fractional bits of the products' grid
  localparam int XW   = G + 2;                             // a product is below 4 on that grid
  localparam int EW   = 16;                                // signed exponents
  localparam int DF   = mma_pkg::FDRDA_DOT_F;              // 31: Step 6's fractional bits of s_dot ...
  localparam int CF   = mma_pkg::FDRDA_C_F;                // 24: ... and of C
  localparam int CM   = mma_pkg::fmt_man_bits(C_FMT);      // C's fractional bits (f32: 23)
  localparam int CG   = larger(CM, CF);                    // C's grid
  localparam int SW   = larger(DF, G) + 8 + $clog2(K + 1);  // every signed sum, with room to spare
  localparam int NE   = (K + 1) / 2;                       // even products (GFDRDA)
  localparam int NO   = K / 2;                             // odd products

  // ---- Step 2 (and Step 1's part of each product): fdrda_spec_term ----
  logic [K*EW-1:0] t_e;
  logic [K*XW-1:0] t_x;
  logic [K-1:0]    t_neg, t_nan, t_pinf, t_ninf, t_povf, t_novf;
  genvar gk;
  generate
    for (gk = 0; gk < K; gk++) begin : g_term
      fdrda_spec_term #(.AB_MASK(AB_MASK), .AW(AW), .MW(MW), .G(G), .EW(EW)) u_term (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[gk*AW +: AW]), .b(b[gk*AW +: AW]),
        .neg(t_neg[gk]), .e(t_e[gk*EW +: EW]), .x(t_x[gk*XW +: XW]), .nan(t_nan[gk]),
        .pinf(t_pinf[gk]), .ninf(t_ninf[gk]), .povf(t_povf[gk]), .novf(t_novf[gk]));
    end
  endgenerate

  // ---- Steps 4-5: the fused dot of one group (all products, or GFDRDA's even and odd ones) ----
  logic signed [EW-1:0] e_all, e_even, e_odd;
  logic signed [SW-1:0] s_all, s_even, s_odd;
  generate
    if (GROUPED != 0) begin : g_grouped
      // the even products (local index 0, 2, ..) and the odd ones, each in lane order
      logic [NE*EW-1:0] ev_e;
      logic [NE*XW-1:0] ev_x;
      logic [NE-1:0]    ev_neg;
      always @*
        for (int i = 0; i < NE; i++) begin
          ev_e[i*EW +: EW] = t_e[2*i*EW +: EW];
          ev_x[i*XW +: XW] = t_x[2*i*XW +: XW];
          ev_neg[i]        = t_neg[2*i];
        end
      fdrda_spec_group #(.N(NE), .F(F), .G(G), .EW(EW), .SW(SW)) u_even (
        .e_in(ev_e), .x_in(ev_x), .neg_in(ev_neg), .e_grp(e_even), .s(s_even));
      if (NO > 0) begin : g_odd
        logic [NO*EW-1:0] od_e;
        logic [NO*XW-1:0] od_x;
        logic [NO-1:0]    od_neg;
        always @*
          for (int i = 0; i < NO; i++) begin
            od_e[i*EW +: EW] = t_e[(2*i+1)*EW +: EW];
            od_x[i*XW +: XW] = t_x[(2*i+1)*XW +: XW];
            od_neg[i]        = t_neg[2*i+1];
          end
        fdrda_spec_group #(.N(NO), .F(F), .G(G), .EW(EW), .SW(SW)) u_odd (
          .e_in(od_e), .x_in(od_x), .neg_in(od_neg), .e_grp(e_odd), .s(s_odd));
      end else begin : g_no_odd
        assign e_odd = {1'b1, {(EW-1){1'b0}}};  // no odd product: below every exponent, a sum of 0
        assign s_odd = '0;
      end
      assign e_all = '0;
      assign s_all = '0;
    end else begin : g_plain
      fdrda_spec_group #(.N(K), .F(F), .G(G), .EW(EW), .SW(SW)) u_all (
        .e_in(t_e), .x_in(t_x), .neg_in(t_neg), .e_grp(e_all), .s(s_all));
      assign {e_even, e_odd, s_even, s_odd} = '0;
    end
  endgenerate

  // a signed value v shifted right by n, rounded down (floor) or toward zero
  function automatic logic signed [SW-1:0] shift_round(input logic signed [SW-1:0] v, input logic [EW-1:0] n,
                                                       input int mode);
    logic [SW-1:0] m;
    if (mode == mma_pkg::ROUND_RD) begin
      shift_round = v >>> n;
    end else begin
      m = v < 0 ? SW'(-v) : SW'(v);
      m = m >> n;
      shift_round = v < 0 ? -$signed(m) : $signed(m);
    end
  endfunction

  logic                 any_nan, pos_inf, neg_inf;     // Steps 1 and 3's findings
  logic signed [SW-1:0] sum;                           // Step 7 / 9's exact sum ...
  logic signed [EW-1:0] lsb;                           // ... and the weight of its last bit
  always @* begin
    logic signed [EW-1:0] e_dot, ec, e_max;
    logic signed [SW-1:0] s_dot, dot_al, c_al, cv;
    logic [CM:0]          mc;
    logic                 sc, zc, ic, nc;
    int                   c_round;
    logic [63:0]          cbits, cman, cex;

    // ---- C (f32): sign, exponent (a zero or subnormal C at 1 - bias = -126), integer significand ----
    cbits = 64'(c) & ((64'd1 << mma_pkg::fmt_width(C_FMT)) - 64'd1);
    cman  = cbits & ((64'd1 << CM) - 64'd1);
    cex   = (cbits >> CM) & ((64'd1 << mma_pkg::fmt_exp_bits(C_FMT)) - 64'd1);
    sc    = cbits[mma_pkg::fmt_width(C_FMT) - 1];
    ic    = cex == (64'd1 << mma_pkg::fmt_exp_bits(C_FMT)) - 64'd1 && cman == 0;
    nc    = cex == (64'd1 << mma_pkg::fmt_exp_bits(C_FMT)) - 64'd1 && cman != 0;
    zc    = cex == 0 && cman == 0;
    if (cex == 0) begin
      ec = zc ? EW'(mma_pkg::ZERO_EXP) : EW'(1 - mma_pkg::fmt_bias(C_FMT));
      mc = (CM+1)'(cman);
    end else begin
      ec = EW'(cex) - EW'(mma_pkg::fmt_bias(C_FMT));
      mc = (CM+1)'(cman | (64'd1 << CM));
    end

    // ---- Steps 1 and 3: special values ----
    any_nan = nc || t_nan != '0;
    pos_inf = (ic && !sc) || t_pinf != '0;
    neg_inf = (ic && sc) || t_ninf != '0;
    if (!any_nan && !pos_inf && !neg_inf) begin            // Step 3: products >= 2^128
      pos_inf = t_povf != '0;
      neg_inf = t_novf != '0;
    end

    // ---- the fused dot s_dot * 2^(e_dot - F) ----
    if (GROUPED != 0) begin
      // GFDRDA Steps 6-7: the even and odd sums onto e_dot, F fractional bits, rounded ALIGN_DOT
      e_dot = e_even > e_odd ? e_even : e_odd;
      s_dot = shift_round(s_even, e_dot - e_even, ALIGN_DOT) + shift_round(s_odd, e_dot - e_odd, ALIGN_DOT);
    end else begin
      e_dot = e_all;
      s_dot = s_all;
    end

    // ---- FDRDA Step 6 / GFDRDA Step 8: onto e_max = max(e_dot, e_c) ----
    e_max  = e_dot > ec ? e_dot : ec;
    dot_al = shift_round(s_dot <<< (DF - F), e_max - e_dot, ALIGN_DOT);          // 31 fractional bits
    c_round = GROUPED != 0 && ec < e_max - EW'(mma_pkg::GFDRDA_C_WINDOW) ? mma_pkg::ROUND_RZ : ALIGN_C;
    cv     = SW'(mc) << (CG - CM);                                               // C on CG fractional bits
    cv     = sc ? -cv : cv;
    c_al   = shift_round(cv, e_max - ec + EW'(CG - CF), c_round);               // 24 fractional bits

    // ---- Step 7 / 9: the exact sum, units of 2^(e_max - 31) ----
    sum = dot_al + (c_al <<< (DF - CF));
    lsb = e_max - EW'(DF);
  end
  // ---- Step 8 / 10: normalize and round to OUT (spec_common.svh) ----
  spec_round #(.OUT_MASK(1 << OUT), .SW(SW), .EW(EW)) u_round (
    .out_kind(mma_pkg::OUT_BITS'(OUT)), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(pos_inf),
    .neg_inf(neg_inf), .d(d));
endmodule

// Steps 4-5 over one group of N products: e_grp = the largest exponent (pairwise maxima in lane order),
// s = the sum of the products each truncated toward zero to F fractional bits below 2^e_grp, exact.
module fdrda_spec_group #(
  parameter int N  = 16,
  parameter int F  = 24,
  parameter int G  = 24,
  parameter int EW = 16,
  parameter int SW = 44
) (
  input  logic [N*EW-1:0]        e_in,
  input  logic [N*(G+2)-1:0]     x_in,
  input  logic [N-1:0]           neg_in,
  output logic signed [EW-1:0]   e_grp,
  output logic signed [SW-1:0]   s
);
  localparam int XW = G + 2;
  localparam int N2 = 1 << $clog2(N + 1);                 // leaves of the tree
  always @* begin
    logic [2*N2*EW-1:0] e_tree;                            // node i at [i*EW +: EW], leaves N2 .. 2 N2 - 1
    logic [XW-1:0]      y;
    e_tree = '0;
    for (int i = 0; i < N2; i++)
      e_tree[(N2+i)*EW +: EW] = i < N ? e_in[i*EW +: EW] : {1'b1, {(EW-1){1'b0}}};
    for (int i = N2 - 1; i >= 1; i--)
      e_tree[i*EW +: EW] = $signed(e_tree[2*i*EW +: EW]) > $signed(e_tree[(2*i+1)*EW +: EW])
                         ? e_tree[2*i*EW +: EW] : e_tree[(2*i+1)*EW +: EW];
    e_grp = e_tree[EW +: EW];
    s = '0;
    for (int k = 0; k < N; k++) begin
      y = x_in[k*XW +: XW] >> (e_grp - $signed(e_in[k*EW +: EW]) + EW'(G - F));
      if (neg_in[k]) s = s - SW'(y);
      else           s = s + SW'(y);
    end
  end
endmodule

// One product (Step 2, and Steps 1 and 3 for it): a and b decoded from the format table, the exact
// product of their integer significands on a grid of G fractional bits, its exponent ea + eb, its sign,
// whether it is NaN or an infinity (Step 1), and whether it overflows (|p| >= 2^128, finite operands).
module fdrda_spec_term #(
  parameter int AB_MASK = 1 << mma_pkg::FMT_E4M3FNUZ,
  parameter int AW      = 8,
  parameter int MW      = 3,
  parameter int G       = 24,
  parameter int EW      = 16
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [AW-1:0]                 a, b,
  output logic                          neg,
  output logic signed [EW-1:0]          e,
  output logic [G+1:0]                  x,
  output logic                          nan, pinf, ninf, povf, novf
);
  localparam int PW    = 2 * MW + 2;                      // the product of two significands
  logic signed [EW-1:0] dea, deb;                      // the operands decoded (spec_common.svh)
  logic [MW:0]          dma, dmb;
  logic                 dsa, dsb, dza, dzb, dia, dib, dna, dnb;
  spec_decode #(.MASK(AB_MASK), .AW(AW), .MW(MW), .EW(EW)) u_decode_a (
    .fmt(fmt_a), .raw(a), .s(dsa), .e(dea), .m(dma), .zero(dza), .inf(dia), .nan(dna));
  spec_decode #(.MASK(AB_MASK), .AW(AW), .MW(MW), .EW(EW)) u_decode_b (
    .fmt(fmt_b), .raw(b), .s(dsb), .e(deb), .m(dmb), .zero(dzb), .inf(dib), .nan(dnb));
  always @* begin
    logic signed [EW-1:0] ea, eb, lead;
    logic [MW:0]          ma, mb;
    logic [PW-1:0]        pm;
    logic                 sa_, sb_, za, zb, ia, ib, na, nb;
    {sa_, ea, ma, za, ia, na} = {dsa, dea, dma, dza, dia, dna};
    {sb_, eb, mb, zb, ib, nb} = {dsb, deb, dmb, dzb, dib, dnb};
    nan  = na || nb || (ia && zb) || (za && ib);
    pinf = !nan && (ia || ib) && !(sa_ ^ sb_);
    ninf = !nan && (ia || ib) && (sa_ ^ sb_);
    neg  = sa_ ^ sb_;
    e    = ea + eb;
    pm   = PW'(ma) * PW'(mb);
    x    = (G+2)'(pm) << (G - 2 * MW);
    // |p| = pm * 2^(e - 2 MW) >= 2^128: its leading one at 2^128 or above
    lead = EW'(-1000);
    for (int i = 0; i < PW; i++) if (pm[i]) lead = e + EW'(i - 2 * MW);
    povf = !(na || nb || ia || ib) && pm != '0 && lead >= EW'(mma_pkg::AMD_PRODUCT_OVERFLOW_EXP) && !neg;
    novf = !(na || nb || ia || ib) && pm != '0 && lead >= EW'(mma_pkg::AMD_PRODUCT_OVERFLOW_EXP) && neg;
  end

endmodule
/* verilator lint_on DECLFILENAME */
