// fda_spec: an independent specification of NVIDIA's fused dot-add (FDA) for make prove (tests/prove/
// all.sh, docs/formal.md), written from the FDA steps of the MMA-Sim paper and sharing no arithmetic with
// rtl/: only the format table (mma_pkg's fields of rtl/mma_formats.svh: widths, biases, special-value
// kinds, the output kinds' format and rounding) is read.  One vector -> D, combinationally, in the
// plainest way: each operand decoded to (sign, exponent, integer significand), exact products, e_max over
// the products and C, every term truncated to F fractional bits below 2^e_max, an exact sum, one rounding.
//   value of an operand = (-1)^s * m * 2^(e - MW): m its integer significand with MW fractional bits (MW
//   the largest mantissa among A's and B's formats), e = E - bias (normal) or 1 - bias (subnormal); a
//   zero operand counts as 2^-126 (the model's convention), or, when ZERO_EXP != 0, a zero product or a
//   zero C enters e_max at ZERO_EXP (Hopper: -133).
//   product k: (-1)^(sa^sb) * (ma * mb) * 2^(ea + eb [+ block scales] - 2 MW), unnormalized (below 4).
//   Step 3: e_max = max(e_C, e_0 .. e_{K-1}); term t = floor(|t| * 2^(F - e_max)).
//   Step 4: S = sum of the signed truncated terms (exact).
//   Step 5: S * 2^(e_max - F) rounded to the output kind (RZ or RNE at its kept mantissa bits, subnormals
//   at the format's minimum exponent, an exponent past the format's largest finite -> inf), a zero D +0
//   (or -0 where the output kind keeps the sign of zero and the sum was negative).
//   Step 1: NaN if any operand or scale is NaN, 0 * inf, or +inf and -inf both present (canonical NaN of
//   D's format); else the infinity present.
// CHAIN > 1 (CoFDA): CHAIN passes of K / CHAIN contiguous products; a pass's D, in D's format, is the
// next pass's C.  Hopper's and Blackwell's mma.sync FP8 (K_RUN > 0, C_LAST = 1): pass p takes the runs
// of K_RUN products dealt to it in turn (K_RUN = 2, CHAIN = 2: k mod 4 in {0, 1}, then {2, 3}), the
// passes start from a +0 C, and D = P + C, P the last pass's D, one IEEE addition rounded to nearest
// even in D's format (fda_spec_add).  AB_F16: A and B are converted to f16 first (spec_to_f16) and
// multiplied as f16 (11-bit significands); every e4m3 and e5m2 value is exact in f16, but an e4m3
// subnormal (below 2^-6) is an f16 normal: its exponent is then its leading one's (at least f16's -14),
// which e_max sees.  F16_CUT (make prove's cut point, 0 for the specification): the conversion is rtl/'s
// mma_to_f16 instead, which a proof of its own sets equal to spec_to_f16 (docs/formal.md).  Scope: A and B of the IEEE-like formats
// with or without infinities (f16, bf16, fp8, fp6, fp4; not tf32's Step 0 nor the fnuz formats), C of
// an IEEE format up to 32 bits (with C_LAST, in D's format), D up to 32 bits, UE8M0 block scales
// (BLOCK > 0, one scale per BLOCK products).
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 aligns with
// F - 1 fractional bits.
// The port contract of make verify (docs/verify-your-design.md, section 4): D is registered on the
// handshake and held until taken.
`include "tests/prove/spec_common.svh"
`include "tests/prove/fda_spec_add.svh"
`include "tests/prove/spec_to_f16.svh"

module fda_spec #(
  parameter int K           = 16,
  parameter int F           = 13,
  parameter int CHAIN       = 1,
  parameter int AB_MASK     = 1 << mma_pkg::FMT_E4M3,
  parameter int C_MASK      = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK    = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK       = 0,
  parameter int ZERO_EXP    = 0,
  parameter int K_RUN       = 0,
  parameter int AB_F16      = 0,
  parameter int F16_CUT     = 0,
  parameter int C_LAST      = 0,
  parameter int SPEC_MUTANT = 0,
  parameter int AW          = mma_pkg::max_width(AB_MASK),
  parameter int NSW         = BLOCK > 0 ? K / BLOCK : 1
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int KP = K / CHAIN;                         // products per pass
  localparam int FB = mma_pkg::FMT_BITS;

  // D's format for the output kind (a later pass's C)
  logic [FB-1:0] d_fmt;
  always @* begin
    d_fmt = '0;
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && out_kind == mma_pkg::OUT_BITS'(o)) d_fmt = FB'(mma_pkg::out_format(o));
  end

  logic [(CHAIN+1)*32-1:0] cs;                           // pass p's C at [p*32 +: 32]; the last is P
  logic [31:0]             sum_pc;                       // P + C (C_LAST)
  assign cs[31:0] = C_LAST != 0 ? 32'd0 : c;             // C_LAST: the passes start from +0
  genvar p, j;
  generate
    for (p = 0; p < CHAIN; p++) begin : g_pass
      localparam int NSP = BLOCK > 0 ? KP / BLOCK : 1;
      logic [KP*AW-1:0] pa, pb;                          // the pass's products: its lanes, in order
      for (j = 0; j < KP; j++) begin : g_lane
        // contiguous (pass p takes products p KP ..), or the j / K_RUN-th run of K_RUN dealt to pass p
        localparam int KK = K_RUN > 0 ? (j / K_RUN * CHAIN + p) * K_RUN + j % K_RUN : p * KP + j;
        assign pa[j*AW +: AW] = a[KK*AW +: AW];
        assign pb[j*AW +: AW] = b[KK*AW +: AW];
      end
      fda_spec_pass #(.K(KP), .F(SPEC_MUTANT == 1 ? F - 1 : F), .AB_MASK(AB_MASK),
                      .C_MASK(C_MASK | (CHAIN > 1 ? mma_pkg::out_formats(OUT_MASK) : 0)), .OUT_MASK(OUT_MASK),
                      .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP), .AB_F16(AB_F16), .F16_CUT(F16_CUT), .AW(AW)) u_pass (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .fmt_c(p == 0 ? fmt_c : d_fmt), .out_kind(out_kind),
        .c(cs[p*32 +: 32]), .a(pa), .b(pb),
        .sa(sa[(BLOCK > 0 ? p * NSP : 0)*8 +: NSP*8]), .sb(sb[(BLOCK > 0 ? p * NSP : 0)*8 +: NSP*8]),
        .d(cs[(p+1)*32 +: 32]));
    end
    if (C_LAST != 0) begin : g_c_last
      fda_spec_add #(.OUT_MASK(OUT_MASK)) u_add (.fmt(d_fmt), .x(cs[CHAIN*32 +: 32]), .y(c), .d(sum_pc));
    end else begin : g_direct
      assign sum_pc = cs[CHAIN*32 +: 32];
    end
  endgenerate

  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(sum_pc),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule

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
  // the largest mantissa over a mask of formats
  function automatic int frac_bits(input int mask);
    frac_bits = 0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (mask[f] && mma_pkg::fmt_man_bits(f) > frac_bits) frac_bits = mma_pkg::fmt_man_bits(f);
  endfunction
  function automatic int biggest(input int x, input int y, input int z);
    biggest = x > y ? x : y;
    biggest = z > biggest ? z : biggest;
  endfunction

  localparam int CM   = C_MASK | mma_pkg::out_formats(OUT_MASK);  // C's formats (a chained C is D's)
  localparam int MW   = frac_bits(AB_MASK);                       // fractional bits of an A or B significand
  localparam int CF   = frac_bits(CM);                            // ... of C's
  localparam int PW   = AB_F16 != 0 ? mma_pkg::fmt_man_bits(mma_pkg::FMT_F16) : MW;  // ... as multiplied
  localparam int G    = biggest(2 * PW, CF, F);                   // fractional bits of the common grid
  localparam int XW   = G + 2;                                    // every term is below 4 on that grid
  localparam int SUMW = biggest(XW, F, 0) + 6 + $clog2(K + 1);                    // the signed exact sum, with room to spare
  localparam int EW   = 16;                                       // signed exponents
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
  logic [K*EW-1:0]     t_e;                            // the products, from fda_spec_term
  logic [K*XW-1:0]     t_x;
  logic [K-1:0]        t_neg, t_nan, t_pinf, t_ninf;
  genvar gk;
  generate
    for (gk = 0; gk < K; gk++) begin : g_term
      localparam int SLOT = BLOCK > 0 ? gk / (BLOCK > 0 ? BLOCK : 1) : 0;
      fda_spec_term #(.AB_MASK(AB_MASK), .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP), .AB_F16(AB_F16), .F16_CUT(F16_CUT),
                      .AW(AW), .PW(PW), .G(G), .EW(EW)) u_term (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[gk*AW +: AW]), .b(b[gk*AW +: AW]), .sa(sa[SLOT*8 +: 8]), .sb(sb[SLOT*8 +: 8]),
        .neg(t_neg[gk]), .e(t_e[gk*EW +: EW]), .x(t_x[gk*XW +: XW]), .nan(t_nan[gk]), .pinf(t_pinf[gk]), .ninf(t_ninf[gk]));
    end
  endgenerate
  logic                   any_nan, pos_inf, neg_inf;  // Step 1's findings
  logic signed [SUMW-1:0] sum;                        // Step 4's exact sum ...
  logic signed [EW-1:0]   lsb;                        // ... and the weight of its last bit
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
  // ---- Step 5: normalize and round to the output kind (spec_common.svh) ----
  spec_round #(.OUT_MASK(OUT_MASK), .SW(SUMW), .EW(EW)) u_round (
    .out_kind(out_kind), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(pos_inf), .neg_inf(neg_inf), .d(d));
endmodule

// One product of fda_spec_pass (Step 2, and Step 1's part for it): a and b decoded from the format table,
// the exact product of their integer significands on a grid of G fractional bits, its exponent
// ea + eb (+ the two UE8M0 block scales' exponents), its sign, and whether it is NaN or an infinity.
// AB_F16: each operand converted to f16 (spec_to_f16), then decoded as f16 (11-bit significands).
// F16_CUT: converted by rtl/'s mma_to_f16 instead, make prove's cut point (docs/formal.md).
module fda_spec_term #(
  parameter int AB_MASK  = 1 << mma_pkg::FMT_E4M3,
  parameter int BLOCK    = 0,
  parameter int ZERO_EXP = 0,
  parameter int AB_F16   = 0,
  parameter int F16_CUT  = 0,
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
      spec_decode #(.MASK(AB_MASK), .AW(AW), .MW(PW), .EW(EW)) u_decode_a (
        .fmt(fmt_a), .raw(a), .s(dsa), .e(dea), .m(dma), .zero(dza), .inf(dia), .nan(dna));
      spec_decode #(.MASK(AB_MASK), .AW(AW), .MW(PW), .EW(EW)) u_decode_b (
        .fmt(fmt_b), .raw(b), .s(dsb), .e(deb), .m(dmb), .zero(dzb), .inf(dib), .nan(dnb));
    end
  endgenerate
  always @* begin
    logic signed [EW-1:0] ea, eb, s_e;
    logic [PW:0]          ma, mb;
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
    x = (G+2)'((2*PW+2)'(ma) * (2*PW+2)'(mb)) << (G - 2 * PW);
  end

endmodule
/* verilator lint_on DECLFILENAME */
