// The specification of one FDA pass (tests/prove/fda_spec.sv's steps), in a header of its own so that
// tests/prove/fda_cut_harness.sv can set each part against rtl/'s: fda_spec_term (one product, Step 2),
// fda_spec_sum (C, Step 1's findings, e_max, the alignment and the exact sum: Steps 1, 3, 4) and
// spec_round (Step 5, spec_common.svh), which fda_spec_pass puts together.  Shares nothing with rtl/
// but the format table (mma_pkg).  Included by path from the repository root.
`ifndef FDA_SPEC_PASS_SVH
`define FDA_SPEC_PASS_SVH
`include "tests/prove/spec_common.svh"
`include "tests/prove/spec_to_f16.svh"
`include "tests/prove/decode_cut.svh"

// the largest mantissa over a mask of formats
function automatic int fda_spec_frac_bits(input int mask);
  fda_spec_frac_bits = 0;
  for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
    if (mask[f] && mma_pkg::fmt_man_bits(f) > fda_spec_frac_bits) fda_spec_frac_bits = mma_pkg::fmt_man_bits(f);
endfunction
// fractional bits of the common grid of a pass: the products' (2 PW, PW those of the multiplied
// significands: f16's when AB_F16), C's (a chained C is D's) or F, whichever is finest
function automatic int fda_spec_grid(input int ab_mask, input int c_mask, input int out_mask, input int f,
                                     input int ab_f16);
  int pw, cf;
  pw = ab_f16 != 0 ? mma_pkg::fmt_man_bits(mma_pkg::FMT_F16) : fda_spec_frac_bits(ab_mask);
  cf = fda_spec_frac_bits(c_mask | mma_pkg::out_formats(out_mask));
  fda_spec_grid = 2 * pw > cf ? 2 * pw : cf;
  fda_spec_grid = f > fda_spec_grid ? f : fda_spec_grid;
endfunction
// the signed exact sum's width (room to spare): a term's G + 2 bits, six more and the carries of K + 1 terms
function automatic int fda_spec_sum_width(input int k, input int g, input int f);
  fda_spec_sum_width = (g + 2 > f ? g + 2 : f) + 6 + $clog2(k + 1);
endfunction

/* verilator lint_off DECLFILENAME */  // the specification's one pass, kept beside it
// One FDA over K products and C (the paper's Steps 1-5), combinational.
module fda_spec_pass #(
  parameter int K        = 16,
  parameter int F        = 13,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_E4M3,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK    = 0,
  parameter int ZERO_EXP = 0,
  parameter int AB_F16   = 0,
  parameter int F16_CUT  = 0,
  parameter int DECODE_CUT = 0,
  parameter int PRODUCT_HALF = 0,
  parameter int MUL_CUT  = 0,
  parameter int AW       = 8,
  parameter int NSW      = BLOCK > 0 ? K / BLOCK : 1
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic [31:0]                   d
);
  localparam int MW   = fda_spec_frac_bits(AB_MASK);              // fractional bits of an A or B significand
  localparam int PW   = AB_F16 != 0 ? mma_pkg::fmt_man_bits(mma_pkg::FMT_F16) : MW;  // ... as multiplied
  localparam int G    = fda_spec_grid(AB_MASK, C_MASK, OUT_MASK, F, AB_F16);  // fractional bits of the common grid
  localparam int XW   = G + 2;                                    // every term is below 4 on that grid
  localparam int SUMW = fda_spec_sum_width(K, G, F);              // the signed exact sum
  localparam int EW   = 16;                                       // signed exponents

  logic [K*EW-1:0]     t_e;                            // the products, from fda_spec_term
  logic [K*XW-1:0]     t_x;
  logic [K-1:0]        t_neg, t_nan, t_pinf, t_ninf;
  genvar gk;
  generate
    for (gk = 0; gk < K; gk++) begin : g_term
      localparam int SLOT = BLOCK > 0 ? gk / (BLOCK > 0 ? BLOCK : 1) : 0;
      fda_spec_term #(.AB_MASK(AB_MASK), .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP), .AB_F16(AB_F16), .F16_CUT(F16_CUT),
                      .DECODE_CUT(DECODE_CUT), .PRODUCT_HALF(PRODUCT_HALF), .MUL_CUT(MUL_CUT), .AW(AW), .PW(PW), .G(G),
                      .EW(EW)) u_term (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[gk*AW +: AW]), .b(b[gk*AW +: AW]), .sa(sa[SLOT*8 +: 8]), .sb(sb[SLOT*8 +: 8]),
        .neg(t_neg[gk]), .e(t_e[gk*EW +: EW]), .x(t_x[gk*XW +: XW]), .nan(t_nan[gk]), .pinf(t_pinf[gk]), .ninf(t_ninf[gk]));
    end
  endgenerate
  logic                   any_nan, pos_inf, neg_inf;  // Step 1's findings
  logic signed [SUMW-1:0] sum;                        // Step 4's exact sum ...
  logic signed [EW-1:0]   lsb;                        // ... and the weight of its last bit
  fda_spec_sum #(.K(K), .F(F), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .ZERO_EXP(ZERO_EXP), .G(G), .SUMW(SUMW),
                 .EW(EW)) u_sum (
    .fmt_c(fmt_c), .out_kind(out_kind), .c(c), .t_neg(t_neg), .t_e(t_e), .t_x(t_x), .t_nan(t_nan),
    .t_pinf(t_pinf), .t_ninf(t_ninf), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(pos_inf), .neg_inf(neg_inf));
  // ---- Step 5: normalize and round to the output kind (spec_common.svh) ----
  spec_round #(.OUT_MASK(OUT_MASK), .SW(SUMW), .EW(EW)) u_round (
    .out_kind(out_kind), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(pos_inf), .neg_inf(neg_inf), .d(d));
endmodule

// Steps 1, 3 and 4 of fda_spec_pass from its products on: C decoded (term 0; an f16 C of an f32 D
// converted to f32 exactly), Step 1's findings over C and the products, e_max, every term truncated to F
// fractional bits below 2^e_max, the exact sum and the weight of its last bit.  The products come from
// fda_spec_term: sign, exponent and magnitude on the grid of G fractional bits.
module fda_spec_sum #(
  parameter int K        = 16,
  parameter int F        = 13,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int ZERO_EXP = 0,
  parameter int G        = 23,                                  // fractional bits of the common grid
  parameter int SUMW     = 40,                                  // the signed exact sum's width
  parameter int EW       = 16                                   // signed exponents
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K-1:0]                  t_neg, t_nan, t_pinf, t_ninf,   // the products (fda_spec_term)
  input  logic [K*EW-1:0]               t_e,
  input  logic [K*(G+2)-1:0]            t_x,
  output logic signed [SUMW-1:0]        sum,                    // Step 4's exact sum ...
  output logic signed [EW-1:0]          lsb,                    // ... and the weight of its last bit
  output logic                          any_nan, pos_inf, neg_inf   // Step 1's findings
);
  localparam int CM   = C_MASK | mma_pkg::out_formats(OUT_MASK);  // C's formats (a chained C is D's)
  localparam int CF   = fda_spec_frac_bits(CM);                   // fractional bits of C's significand
  localparam int XW   = G + 2;                                    // every term is below 4 on the grid
  localparam int N2   = 1 << $clog2(K + 1);                       // leaves of the e_max tree

  // C decoded from the format table (spec_common.svh): sign, exponent (paper's e), integer significand
  // with CF fractional bits, zero / inf / NaN
  logic signed [EW-1:0] dec;
  logic [CF:0]          dmc;
  logic                 dsc, dzc, dic, dnc;
  spec_decode #(.MASK(CM), .AW(32), .MW(CF), .EW(EW)) u_decode_c (
    .fmt(fmt_c), .raw(c), .s(dsc), .e(dec), .m(dmc), .zero(dzc), .inf(dic), .nan(dnc));
  logic [(K+1)*EW-1:0] e_t;                            // term t's exponent at [t*EW +: EW] (C is term 0)
  logic [(K+1)*XW-1:0] x_t;                            // its magnitude on the grid
  logic [K:0]          neg_t;
  always @* begin
    logic [2*N2*EW-1:0]   e_tree;                     // node i at [i*EW +: EW], leaves N2 .. 2 N2 - 1
    logic signed [EW-1:0] ec, e_max;
    logic [CF:0]          mc;
    logic                 sc, zc, ic, nc;
    logic [XW-1:0]        y;

    any_nan = 1'b0; pos_inf = 1'b0; neg_inf = 1'b0;
    e_t = '0; x_t = '0; neg_t = '0;
    // ---- C ----
    {sc, ec, mc, zc, ic, nc} = {dsc, dec, dmc, dzc, dic, dnc};
    // a C in another format than D's (an f16 C of an f32 D) is first converted to D's format exactly:
    // a subnormal becomes normal (its exponent that of its leading one)
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && out_kind == mma_pkg::OUT_BITS'(o) && mma_pkg::FMT_BITS'(mma_pkg::out_format(o)) != fmt_c
          && !zc && !ic && !nc)
        for (int i = 0; i < CF; i++)
          if (!mc[CF]) begin
            mc = mc << 1;
            ec = ec - 1;
          end
    neg_t[0] = sc;
    e_t[0 +: EW] = zc && ZERO_EXP != 0 ? EW'(ZERO_EXP) : ec;
    x_t[0 +: XW] = XW'(mc) << (G - CF);
    any_nan  = nc;
    pos_inf  = ic && !sc;
    neg_inf  = ic && sc;
    // ---- the products (Step 2, fda_spec_term) ----
    for (int k = 0; k < K; k++) begin
      neg_t[k+1] = t_neg[k];
      e_t[(k+1)*EW +: EW] = t_e[k*EW +: EW];
      x_t[(k+1)*XW +: XW] = t_x[k*XW +: XW];
      any_nan = any_nan | t_nan[k];
      pos_inf = pos_inf | t_pinf[k];
      neg_inf = neg_inf | t_ninf[k];
    end
    // ---- Step 3: e_max, alignment with truncation to F fractional bits ----
    // e_max as pairwise maxima, C and the products in lane order padded with the smallest exponent: max is
    // associative and commutative, so the order leaves e_max as it is; a solver can then pair the partial
    // maxima with those of a unit that pairs its terms alike, which a chain of K comparisons does not
    // offer (docs/formal.md: the block-scaled e4m3 K = 32 row, whose scale moves every product's exponent)
    e_tree = '0;
    for (int i = 0; i < N2; i++)
      e_tree[(N2+i)*EW +: EW] = i <= K ? e_t[i*EW +: EW] : {1'b1, {(EW-1){1'b0}}};
    for (int i = N2 - 1; i >= 1; i--)
      e_tree[i*EW +: EW] = $signed(e_tree[2*i*EW +: EW]) > $signed(e_tree[(2*i+1)*EW +: EW])
                         ? e_tree[2*i*EW +: EW] : e_tree[(2*i+1)*EW +: EW];
    e_max = e_tree[EW +: EW];
    // ---- Step 4: the exact sum ----
    sum = '0;
    for (int k = 0; k <= K; k++) begin
      y = x_t[k*XW +: XW] >> (e_max - $signed(e_t[k*EW +: EW]) + EW'(G - F));
      if (neg_t[k]) sum = sum - SUMW'(y);
      else          sum = sum + SUMW'(y);
    end
    lsb = e_max - EW'(F);                                 // the weight of the sum's last bit
  end
endmodule

// One product of fda_spec_pass (Step 2, and Step 1's part for it): a and b decoded from the format table,
// the exact product of their integer significands on a grid of G fractional bits, its exponent
// ea + eb (+ the two UE8M0 block scales' exponents), its sign, and whether it is NaN or an infinity.
// AB_F16: each operand converted to f16 (spec_to_f16), then decoded as f16 (11-bit significands).
// F16_CUT: converted by rtl/'s mma_to_f16 instead, make prove's cut point (docs/formal.md).
// DECODE_CUT (make prove's cut point; 0 for the specification): a and b decoded by rtl/'s mma_unpack
// instead of spec_decode, which tests/prove/fda_cut_harness.sv (PART 0) proves equal to it; the product
// is then the same multiplication of the same significands on both sides.
// PRODUCT_HALF (0: one multiplication): the exact product written in the M3XU's two steps (docs/m3xu.md,
// FP32 mode, step 3) on significands split at bit H = PRODUCT_HALF, hi = m >> H, lo = m mod 2^H: step 1
// (hi_a hi_b << 2H) | lo_a lo_b, step 2 adds (hi_a lo_b + lo_a hi_b) << H -- the same value, the
// multiplications of the M3XU's own definition.
// MUL_CUT (make prove's cut point; 0 for the specification): with PRODUCT_HALF, the four multiplications
// of halves done by rtl/'s mma_mul of MUL_CUT x MUL_CUT bits (the M3XU's multiplier), so that make prove
// can cut both sides at it (CUT=mma_mul): the halves' products are then free values, equal where their
// halves are, and the proof decides the two steps' assembly, the sum and the rounding for any multiplier.
module fda_spec_term #(
  parameter int AB_MASK  = 1 << mma_pkg::FMT_E4M3,
  parameter int BLOCK    = 0,
  parameter int ZERO_EXP = 0,
  parameter int AB_F16   = 0,
  parameter int F16_CUT  = 0,
  parameter int DECODE_CUT = 0,
  parameter int PRODUCT_HALF = 0,
  parameter int MUL_CUT  = 0,
  parameter int AW       = 8,
  parameter int PW       = 3,                           // fractional bits of the multiplied significands
  parameter int G        = 23,
  parameter int EW       = 16
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [AW-1:0]                 a, b,
  input  logic [7:0]                    sa, sb,
  output logic                          neg,
  output logic signed [EW-1:0]          e,
  output logic [G+1:0]                  x,
  output logic                          nan, pinf, ninf
);
  logic signed [EW-1:0] dea, deb;                      // the operands decoded (spec_common.svh)
  logic [PW:0]          dma, dmb;
  logic                 dsa, dsb, dza, dzb, dia, dib, dna, dnb;
  generate
    if (AB_F16 != 0) begin : g_f16
      localparam int F16 = 1 << mma_pkg::FMT_F16;
      logic [15:0] ha, hb;                             // A and B converted to f16
      if (F16_CUT != 0) begin : g_cut
        mma_to_f16 #(.MASK(AB_MASK), .IW(AW)) u_to_f16_a (.raw(a), .fmt(fmt_a), .h(ha));
        mma_to_f16 #(.MASK(AB_MASK), .IW(AW)) u_to_f16_b (.raw(b), .fmt(fmt_b), .h(hb));
      end else begin : g_own
        spec_to_f16 #(.MASK(AB_MASK), .AW(AW)) u_to_f16_a (.fmt(fmt_a), .raw(a), .h(ha));
        spec_to_f16 #(.MASK(AB_MASK), .AW(AW)) u_to_f16_b (.fmt(fmt_b), .raw(b), .h(hb));
      end
      spec_decode #(.MASK(F16), .AW(16), .MW(PW), .EW(EW)) u_decode_a (
        .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F16)), .raw(ha), .s(dsa), .e(dea), .m(dma), .zero(dza), .inf(dia), .nan(dna));
      spec_decode #(.MASK(F16), .AW(16), .MW(PW), .EW(EW)) u_decode_b (
        .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F16)), .raw(hb), .s(dsb), .e(deb), .m(dmb), .zero(dzb), .inf(dib), .nan(dnb));
    end else begin : g_raw
      spec_decode_cut #(.CUT(DECODE_CUT), .MASK(AB_MASK), .AW(AW), .MW(PW), .EW(EW)) u_decode_a (
        .fmt(fmt_a), .raw(a), .s(dsa), .e(dea), .m(dma), .zero(dza), .inf(dia), .nan(dna));
      spec_decode_cut #(.CUT(DECODE_CUT), .MASK(AB_MASK), .AW(AW), .MW(PW), .EW(EW)) u_decode_b (
        .fmt(fmt_b), .raw(b), .s(dsb), .e(deb), .m(dmb), .zero(dzb), .inf(dib), .nan(dnb));
    end
  endgenerate
  localparam int H = PRODUCT_HALF > 0 ? PRODUCT_HALF : 1;   // the half's bits (PRODUCT_HALF)
  localparam int MC = MUL_CUT > 0 ? MUL_CUT : 1;
  logic [2*MC-1:0] cut_hh, cut_ll, cut_hl, cut_lh;            // MUL_CUT: the halves' products
  generate
    if (MUL_CUT > 0) begin : g_mul_cut
      if (PRODUCT_HALF == 0 || PW + 1 - H > MUL_CUT || H > MUL_CUT) begin : g_scope
        $error("fda_spec_term: MUL_CUT takes PRODUCT_HALF halves of at most MUL_CUT bits");
      end
      logic [MC-1:0] hi_a, hi_b, lo_a, lo_b;
      assign hi_a = MC'(dma >> H), hi_b = MC'(dmb >> H), lo_a = MC'(dma[H-1:0]), lo_b = MC'(dmb[H-1:0]);
      mma_mul #(.AW(MC)) u_hh (.a(hi_a), .b(hi_b), .p(cut_hh));
      mma_mul #(.AW(MC)) u_ll (.a(lo_a), .b(lo_b), .p(cut_ll));
      mma_mul #(.AW(MC)) u_hl (.a(hi_a), .b(lo_b), .p(cut_hl));
      mma_mul #(.AW(MC)) u_lh (.a(lo_a), .b(hi_b), .p(cut_lh));
    end else begin : g_own
      assign {cut_hh, cut_ll, cut_hl, cut_lh} = '0;
    end
  endgenerate
  always @* begin
    logic signed [EW-1:0] ea, eb, s_e;
    logic [PW:0]          ma, mb;
    logic [2*PW+1:0]      prod;
    logic [PW:0]          hi_a, hi_b, lo_a, lo_b;     // PRODUCT_HALF's halves
    logic                 sa_, sb_, za, zb, ia, ib, na, nb;
    {sa_, ea, ma, za, ia, na} = {dsa, dea, dma, dza, dia, dna};
    {sb_, eb, mb, zb, ib, nb} = {dsb, deb, dmb, dzb, dib, dnb};
    // UE8M0 block scales: 2^(byte - 127), 0xFF is NaN
    s_e = BLOCK > 0 ? EW'(sa) + EW'(sb) - EW'(254) : '0;
    nan = na || nb || (ia && zb) || (za && ib) || (BLOCK > 0 && (sa == 8'hFF || sb == 8'hFF));
    pinf = !nan && (ia || ib) && !(sa_ ^ sb_);
    ninf = !nan && (ia || ib) && (sa_ ^ sb_);
    neg = sa_ ^ sb_;
    e = (za || zb) && ZERO_EXP != 0 ? EW'(ZERO_EXP) : ea + eb + s_e;
    // the exact product (PRODUCT_HALF: in the M3XU's two steps, step 1's fields side by side, then step 2's
    // cross products added)
    hi_a = ma >> H; hi_b = mb >> H;
    lo_a = (PW+1)'(ma[H-1:0]); lo_b = (PW+1)'(mb[H-1:0]);
    if (PRODUCT_HALF == 0)
      prod = (2*PW+2)'(ma) * (2*PW+2)'(mb);
    else if (MUL_CUT > 0)
      prod = (((2*PW+2)'(cut_hh) << (2 * H)) | (2*PW+2)'(cut_ll))
             + (((2*PW+2)'(cut_hl) + (2*PW+2)'(cut_lh)) << H);
    else
      prod = (((2*PW+2)'(hi_a) * (2*PW+2)'(hi_b)) << (2 * H) | (2*PW+2)'(lo_a) * (2*PW+2)'(lo_b))
             + (((2*PW+2)'(hi_a) * (2*PW+2)'(lo_b) + (2*PW+2)'(lo_a) * (2*PW+2)'(hi_b)) << H);
    x = (G+2)'(prod) << (G - 2 * PW);
  end

endmodule
/* verilator lint_on DECLFILENAME */
`endif
