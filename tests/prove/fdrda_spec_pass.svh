// The specification of one FDRDA or GFDRDA pass (tests/prove/fdrda_spec.sv's steps), in a header of its
// own so that tests/prove/fdrda_cut_harness.sv can set each half against rtl/'s: fdrda_spec_dot (the
// products' dot sum, everything that does not read C) and fdrda_spec_add_c (C added, D rounded).  Shares
// nothing with rtl/ but the format table (mma_pkg).  Included by path from the repository root.
`ifndef FDRDA_SPEC_PASS_SVH
`define FDRDA_SPEC_PASS_SVH
`include "tests/prove/spec_common.svh"
`include "tests/prove/decode_cut.svh"

// the width of every signed sum of a pass of K products (room to spare): the products' grid or Step 6's
// 31 fractional bits, whichever is finer, eight integer bits and the carries of K + 1 terms
function automatic int fdrda_spec_sum_width(input int k, input int f, input int ab_mask);
  int g;
  g = 2 * mma_pkg::max_man_bits(ab_mask);
  g = g > f ? g : f;
  fdrda_spec_sum_width = (mma_pkg::FDRDA_DOT_F > g ? mma_pkg::FDRDA_DOT_F : g) + 8 + $clog2(k + 1);
endfunction

/* verilator lint_off DECLFILENAME */  // the specification's parts, kept together
// One FDRDA or GFDRDA pass over K products and C, combinational: the dot sum, C added, the sum rounded.
module fdrda_spec_pass #(
  parameter int K         = 16,
  parameter int F         = 24,
  parameter int ALGO      = mma_pkg::ALGO_GFDRDA,
  parameter int AB_MASK   = 1 << mma_pkg::FMT_E4M3FNUZ,
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,
  parameter int ALIGN_C   = mma_pkg::ROUND_RD,
  parameter int OUT       = mma_pkg::OUT_F32_RNE,
  parameter int DECODE_CUT = 0,                        // make prove's cut point (fdrda_spec_term)
  parameter int AW        = 8,
  parameter int C_FMT     = mma_pkg::FMT_F32
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  output logic [31:0]                   d
);
  localparam int EW = 16;                                  // signed exponents
  localparam int SW = fdrda_spec_sum_width(K, F, AB_MASK);
  logic signed [EW-1:0] e_dot;
  logic signed [SW-1:0] s_dot;
  logic                 nan, pos_inf, neg_inf, pos_ovf, neg_ovf;
  fdrda_spec_dot #(.K(K), .F(F), .ALGO(ALGO), .AB_MASK(AB_MASK), .ALIGN_DOT(ALIGN_DOT), .AW(AW), .EW(EW),
                   .SW(SW), .DECODE_CUT(DECODE_CUT)) u_dot (
    .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a), .b(b), .e_dot(e_dot), .s_dot(s_dot), .nan(nan), .pos_inf(pos_inf),
    .neg_inf(neg_inf), .pos_ovf(pos_ovf), .neg_ovf(neg_ovf));
  logic signed [SW-1:0] sum;
  logic signed [EW-1:0] lsb;
  logic                 any_nan, p_inf, n_inf;
  fdrda_spec_add_c #(.F(F), .ALGO(ALGO), .ALIGN_DOT(ALIGN_DOT), .ALIGN_C(ALIGN_C), .C_FMT(C_FMT), .EW(EW),
                     .SW(SW)) u_add_c (
    .c(c), .e_dot(e_dot), .s_dot(s_dot), .nan(nan), .pos_inf(pos_inf), .neg_inf(neg_inf), .pos_ovf(pos_ovf),
    .neg_ovf(neg_ovf), .sum(sum), .lsb(lsb), .any_nan(any_nan), .p_inf(p_inf), .n_inf(n_inf));
  // ---- Step 8 / 10: normalize and round to OUT (spec_common.svh) ----
  spec_round #(.OUT_MASK(1 << OUT), .SW(SW), .EW(EW)) u_round (
    .out_kind(mma_pkg::OUT_BITS'(OUT)), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(p_inf),
    .neg_inf(n_inf), .d(d));
endmodule

// The products' half (Steps 1-3 for the products, FDRDA Steps 4-5, GFDRDA Steps 4-7): the dot sum
// s_dot * 2^(e_dot - F), and whether a product is NaN, +inf, -inf (Step 1), or overflows to +inf or -inf
// (Step 3: finite operands, |p| >= 2^128).
module fdrda_spec_dot #(
  parameter int K         = 16,
  parameter int F         = 24,
  parameter int ALGO      = mma_pkg::ALGO_GFDRDA,
  parameter int AB_MASK   = 1 << mma_pkg::FMT_E4M3FNUZ,
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,
  parameter int DECODE_CUT = 0,                        // make prove's cut point (fdrda_spec_term)
  parameter int AW        = 8,
  parameter int EW        = 16,
  parameter int SW        = 44
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [K*AW-1:0]               a, b,
  output logic signed [EW-1:0]          e_dot,
  output logic signed [SW-1:0]          s_dot,
  output logic                          nan, pos_inf, neg_inf, pos_ovf, neg_ovf
);
  localparam int GROUPED = ALGO == mma_pkg::ALGO_GFDRDA ? 1 : 0;
  localparam int MW   = mma_pkg::max_man_bits(AB_MASK);   // fractional bits of an A or B significand
  localparam int G    = 2 * MW > F ? 2 * MW : F;           // fractional bits of the products' grid
  localparam int XW   = G + 2;                             // a product is below 4 on that grid
  localparam int NE   = (K + 1) / 2;                       // even products (GFDRDA)
  localparam int NO   = K / 2;                             // odd products

  // ---- Step 2 (and Steps 1 and 3 for each product): fdrda_spec_term ----
  logic [K*EW-1:0] t_e;
  logic [K*XW-1:0] t_x;
  logic [K-1:0]    t_neg, t_nan, t_pinf, t_ninf, t_povf, t_novf;
  genvar gk;
  generate
    for (gk = 0; gk < K; gk++) begin : g_term
      fdrda_spec_term #(.AB_MASK(AB_MASK), .DECODE_CUT(DECODE_CUT), .AW(AW), .MW(MW), .G(G), .EW(EW)) u_term (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[gk*AW +: AW]), .b(b[gk*AW +: AW]),
        .neg(t_neg[gk]), .e(t_e[gk*EW +: EW]), .x(t_x[gk*XW +: XW]), .nan(t_nan[gk]),
        .pinf(t_pinf[gk]), .ninf(t_ninf[gk]), .povf(t_povf[gk]), .novf(t_novf[gk]));
    end
  endgenerate
  assign nan     = t_nan != '0;
  assign pos_inf = t_pinf != '0;
  assign neg_inf = t_ninf != '0;
  assign pos_ovf = t_povf != '0;
  assign neg_ovf = t_novf != '0;

  // ---- Steps 4-5: the fused dot of one group (all products, or GFDRDA's even and odd ones) ----
  generate
    if (GROUPED != 0) begin : g_grouped
      logic signed [EW-1:0] e_even, e_odd;
      logic signed [SW-1:0] s_even, s_odd, r_even, r_odd;
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
      // GFDRDA Steps 6-7: the even and odd sums onto e_dot, F fractional bits, rounded ALIGN_DOT
      assign e_dot = e_even > e_odd ? e_even : e_odd;
      fdrda_spec_shift #(.SW(SW), .EW(EW)) u_even_onto (
        .v(s_even), .n(e_dot - e_even), .rz(ALIGN_DOT != mma_pkg::ROUND_RD), .y(r_even));
      fdrda_spec_shift #(.SW(SW), .EW(EW)) u_odd_onto (
        .v(s_odd), .n(e_dot - e_odd), .rz(ALIGN_DOT != mma_pkg::ROUND_RD), .y(r_odd));
      assign s_dot = r_even + r_odd;
    end else begin : g_plain
      fdrda_spec_group #(.N(K), .F(F), .G(G), .EW(EW), .SW(SW)) u_all (
        .e_in(t_e), .x_in(t_x), .neg_in(t_neg), .e_grp(e_dot), .s(s_dot));
    end
  endgenerate
endmodule

// C added (Steps 1 and 3 with C, FDRDA Steps 6-7, GFDRDA Steps 8-9): C decoded, the special values
// (any_nan; else the infinities p_inf, n_inf), s_dot and C onto e_max = max(e_dot, e_c), their exact sum
// sum * 2^lsb, which fdrda_spec_pass rounds to OUT (spec_round).
module fdrda_spec_add_c #(
  parameter int F         = 24,
  parameter int ALGO      = mma_pkg::ALGO_GFDRDA,
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,
  parameter int ALIGN_C   = mma_pkg::ROUND_RD,
  parameter int C_FMT     = mma_pkg::FMT_F32,
  parameter int EW        = 16,
  parameter int SW        = 44
) (
  input  logic [31:0]                   c,
  input  logic signed [EW-1:0]          e_dot,
  input  logic signed [SW-1:0]          s_dot,
  input  logic                          nan, pos_inf, neg_inf, pos_ovf, neg_ovf,  // the products'
  output logic signed [SW-1:0]          sum,
  output logic signed [EW-1:0]          lsb,
  output logic                          any_nan, p_inf, n_inf
);
  localparam int GROUPED = ALGO == mma_pkg::ALGO_GFDRDA ? 1 : 0;
  localparam int DF   = mma_pkg::FDRDA_DOT_F;              // 31: Step 6's fractional bits of s_dot ...
  localparam int CF   = mma_pkg::FDRDA_C_F;                // 24: ... and of C
  localparam int CM   = mma_pkg::fmt_man_bits(C_FMT);      // C's fractional bits (f32: 23)
  localparam int CG   = CM > CF ? CM : CF;                 // C's grid

  logic signed [EW-1:0] ec, e_max;
  logic signed [SW-1:0] cv, dot_al, c_al;
  logic                 c_rz;
  always @* begin
    logic [CM:0]          mc;
    logic                 sc, zc, ic, nc;
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
    any_nan = nc || nan;
    p_inf   = (ic && !sc) || pos_inf;
    n_inf   = (ic && sc) || neg_inf;
    if (!any_nan && !p_inf && !n_inf) begin               // Step 3: products >= 2^128
      p_inf = pos_ovf;
      n_inf = neg_ovf;
    end

    // ---- FDRDA Step 6 / GFDRDA Step 8: onto e_max = max(e_dot, e_c) ----
    e_max = e_dot > ec ? e_dot : ec;
    c_rz  = GROUPED != 0 && ec < e_max - EW'(mma_pkg::GFDRDA_C_WINDOW) ? 1'b1 : ALIGN_C != mma_pkg::ROUND_RD;
    cv    = SW'(mc) << (CG - CM);                         // C on CG fractional bits
    cv    = sc ? -cv : cv;
  end
  fdrda_spec_shift #(.SW(SW), .EW(EW)) u_dot_onto (      // 31 fractional bits
    .v(s_dot <<< (DF - F)), .n(e_max - e_dot), .rz(ALIGN_DOT != mma_pkg::ROUND_RD), .y(dot_al));
  fdrda_spec_shift #(.SW(SW), .EW(EW)) u_c_onto (        // 24 fractional bits
    .v(cv), .n(e_max - ec + EW'(CG - CF)), .rz(c_rz), .y(c_al));

  // ---- Step 7 / 9: the exact sum, units of 2^(e_max - 31) ----
  assign sum = dot_al + (c_al <<< (DF - CF));
  assign lsb = e_max - EW'(DF);
endmodule

// A signed value v shifted right by n bits: rounded down (its floor) or, rz, toward zero.
module fdrda_spec_shift #(
  parameter int SW = 44,
  parameter int EW = 16
) (
  input  logic signed [SW-1:0] v,
  input  logic [EW-1:0]        n,
  input  logic                 rz,
  output logic signed [SW-1:0] y
);
  logic [SW-1:0] m;
  assign m = (v < 0 ? SW'(-v) : SW'(v)) >> n;
  assign y = !rz ? v >>> n : v < 0 ? -$signed(m) : $signed(m);
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
// DECODE_CUT (make prove's cut point; 0 for the specification): a and b decoded by rtl/'s mma_unpack
// instead of spec_decode, which tests/prove/fda_cut_harness.sv (PART 0, DECODE_OF) proves equal to it.
module fdrda_spec_term #(
  parameter int AB_MASK = 1 << mma_pkg::FMT_E4M3FNUZ,
  parameter int DECODE_CUT = 0,
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
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(AB_MASK), .AW(AW), .MW(MW), .EW(EW)) u_decode_a (
    .fmt(fmt_a), .raw(a), .s(dsa), .e(dea), .m(dma), .zero(dza), .inf(dia), .nan(dna));
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(AB_MASK), .AW(AW), .MW(MW), .EW(EW)) u_decode_b (
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
`endif
