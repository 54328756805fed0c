// The specification of GDFS's steps (tests/prove/gdfs_spec.sv), in a header of its own so that
// tests/prove/gdfs_cut_harness.sv can set each part against rtl/'s: gdfs_spec_group (Steps 0, 2-4: one
// group's term) and gdfs_spec_sum (Steps 1, 5-6: C and the terms, the exact sum); Step 7 is spec_round.
// Shares nothing with rtl/ but the format table (mma_pkg).  Included by path from the repository root.
`ifndef GDFS_SPEC_STEPS_SVH
`define GDFS_SPEC_STEPS_SVH
`include "tests/prove/spec_common.svh"

function automatic int gdfs_spec_log2up(input int x);   // bits to count 0 .. x - 1
  gdfs_spec_log2up = 0;
  for (int i = 0; i < 30; i++) if ((1 << i) < x) gdfs_spec_log2up = i + 1;
endfunction

// the width of an aligned term's magnitude (C's or a group's, FA fractional bits below 2^e_max; a spare
// bit): a group's gamma is |sigma| (an e2m1 product at most 144 in units of 2^-2, G of them, 8 bits and
// the carries) times two scale significands of SCALE_FMT, with 2 + 2 SM fractional bits; C's significand
// 24 bits with 23
function automatic int gdfs_spec_term_width(input int g, input int fa, input int scale_fmt);
  int sm, gmw, tc;
  sm  = mma_pkg::fmt_man_bits(scale_fmt);
  gmw = 8 + gdfs_spec_log2up(g + 1) + 2 * (sm + 1);
  tc  = mma_pkg::fmt_man_bits(mma_pkg::FMT_F32) + 1 + fa - mma_pkg::fmt_man_bits(mma_pkg::FMT_F32);
  gdfs_spec_term_width = (gmw + fa - (2 + 2 * sm) > tc ? gmw + fa - (2 + 2 * sm) : tc) + 1;
endfunction

// the signed exact sum of C and ng terms
function automatic int gdfs_spec_sum_width(input int ng, input int tw);
  gdfs_spec_sum_width = tw + gdfs_spec_log2up(ng + 2) + 2;
endfunction

/* verilator lint_off DECLFILENAME */  // the specification's parts, kept together
// Steps 0, 2-4 for one group of G e2m1 products and its two block scales: the term gamma =
// |sigma| * m_sa * m_sb (sigma the exact sum of the products) with exponent e_sa + e_sb alone, sigma's
// sign, on the grid of FA fractional bits below 2^e; nan: a scale of the two is NaN (Step 1 reads it).
module gdfs_spec_group #(
  parameter int G         = mma_pkg::GDFS_GROUP,
  parameter int FA        = 35,
  parameter int SCALE_FMT = mma_pkg::FMT_UE8M0,
  parameter int AW        = 4,
  parameter int EW        = 16,
  parameter int TW        = gdfs_spec_term_width(G, FA, SCALE_FMT)
) (
  input  logic [G*AW-1:0]       a, b,
  input  logic [7:0]            sa, sb,
  output logic                  nan,
  output logic                  neg,
  output logic signed [EW-1:0]  e,
  output logic [TW-1:0]         x
);
  // ---- the formats, from the table ----
  localparam int AB    = mma_pkg::FMT_E2M1;
  localparam int W     = mma_pkg::fmt_width(AB);             // 4
  localparam int MW    = mma_pkg::fmt_man_bits(AB);          // 1
  localparam int EB    = mma_pkg::fmt_exp_bits(AB);          // 2
  localparam int EMIN  = 1 - mma_pkg::fmt_bias(AB);          // 0
  localparam int EOFF  = (1 << EB) - 2;                      // largest exponent above EMIN (no specials)
  localparam int PF    = 2 * MW - 2 * EMIN;                  // fractional bits of a product (2)
  localparam int PW    = 2 * (MW + 1) + 2 * EOFF;            // a product's magnitude (8 bits: <= 144)
  localparam int GSW   = PW + 1 + gdfs_spec_log2up(G + 1);   // a signed group sum
  localparam int SM    = mma_pkg::fmt_man_bits(SCALE_FMT);   // a scale's fractional bits (UE8M0 0, UE4M3 3)
  localparam int GFR   = PF + 2 * SM;                        // fractional bits of gamma
  localparam int GMW   = GSW - 1 + 2 * (SM + 1);             // gamma's magnitude
  localparam int SC_DW = 2 + EW + SM + 1;                    // a decoded scale {nan, zero, e, m}

  // Step 0 and a scale (UE8M0: 2^(E - bias), 0xFF NaN; UE4M3: an unsigned e4m3 whose top bit is
  // ignored, 0x7F NaN, zero at ZERO_OPERAND_EXP)
  function automatic logic [SC_DW-1:0] decode_scale(input logic [7:0] raw);
    logic [63:0] bits, man, ex, ones;
    logic nan_, zero;
    logic signed [EW-1:0] e_;
    logic [SM:0] m;
    bits = 64'(raw) & ((64'd1 << mma_pkg::fmt_width(SCALE_FMT)) - 64'd1) & ~mma_pkg::fmt_ignored(SCALE_FMT);
    man  = bits & ((64'd1 << SM) - 64'd1);
    ex   = (bits >> SM) & ((64'd1 << mma_pkg::fmt_exp_bits(SCALE_FMT)) - 64'd1);
    ones = (64'd1 << mma_pkg::fmt_exp_bits(SCALE_FMT)) - 64'd1;
    if (mma_pkg::fmt_specials(SCALE_FMT) == mma_pkg::SPEC_E8M0) begin
      nan_ = ex == ones; zero = 1'b0;
      e_ = EW'(ex) - EW'(mma_pkg::fmt_bias(SCALE_FMT));
      m = (SM+1)'(1) << SM;
    end else begin
      nan_ = ex == ones && man == (64'd1 << SM) - 64'd1;
      zero = ex == 0 && man == 0;
      if (zero)         e_ = EW'(mma_pkg::ZERO_EXP);
      else if (ex == 0) e_ = EW'(1 - mma_pkg::fmt_bias(SCALE_FMT));
      else              e_ = EW'(ex) - EW'(mma_pkg::fmt_bias(SCALE_FMT));
      m = ex == 0 ? (SM+1)'(man) : (SM+1)'(man | (64'd1 << SM));
    end
    decode_scale = {nan_, zero, e_, m};
  endfunction

  always @* begin
    logic [W-1:0]          ra, rb;
    logic                  normal_a, normal_b;
    logic [MW:0]           ma, mb;
    logic [EB-1:0]         xa, xb;
    logic [PW-1:0]         p;
    logic signed [GSW-1:0] sigma;
    logic [GSW-2:0]        mag;
    logic [GMW-1:0]        gamma;
    logic [SC_DW-1:0]      dsa, dsb;

    // ---- Steps 2-3: exact products, their exact sum ----
    sigma = '0;
    for (int i = 0; i < G; i++) begin
      ra = a[i*AW +: W];
      rb = b[i*AW +: W];
      xa = ra[MW +: EB];
      xb = rb[MW +: EB];
      normal_a = xa != '0;
      normal_b = xb != '0;
      ma = {normal_a, ra[MW-1:0]};
      mb = {normal_b, rb[MW-1:0]};
      p = PW'((2*MW+2)'(ma) * (2*MW+2)'(mb)) << ((normal_a ? xa - 1 : 0) + (normal_b ? xb - 1 : 0));
      if (ra[W-1] ^ rb[W-1]) sigma = sigma - GSW'(p);
      else                   sigma = sigma + GSW'(p);
    end

    // ---- Step 4: gamma = |sigma| * m_sa * m_sb, exponent e_sa + e_sb ----
    dsa   = decode_scale(sa);
    dsb   = decode_scale(sb);
    nan   = dsa[SC_DW-1] | dsb[SC_DW-1];
    mag   = sigma < 0 ? (GSW-1)'(-sigma) : (GSW-1)'(sigma);
    gamma = GMW'(mag) * GMW'(dsa[SM:0]) * GMW'(dsb[SM:0]);
    e     = $signed(dsa[SM+1 +: EW]) + $signed(dsb[SM+1 +: EW]);
    x     = TW'(gamma) << (FA - GFR);
    neg   = sigma < 0;
  end
endmodule

// Steps 1, 5-6: D's special value (NaN if a group's scale or C is NaN, else an infinite C passes
// through: e2m1 products are finite), e_max over C and the NG terms (pairwise maxima in order, padded
// with the smallest exponent), every term truncated to FA fractional bits below 2^e_max (RZ), their
// exact signed sum; lsb the weight of its last bit.
module gdfs_spec_sum #(
  parameter int NG   = 4,
  parameter int FA   = 35,
  parameter int EW   = 16,
  parameter int TW   = 49,
  parameter int SUMW = gdfs_spec_sum_width(NG, TW)
) (
  input  logic [31:0]              c,                  // f32
  input  logic [NG-1:0]            nan,                // group g's scales: a NaN
  input  logic [NG-1:0]            neg,                // group g's term: its sign ...
  input  logic [NG*EW-1:0]         e,                  // ... exponent ...
  input  logic [NG*TW-1:0]         x,                  // ... and magnitude on the FA grid
  output logic signed [SUMW-1:0]   sum,
  output logic signed [EW-1:0]     lsb,
  output logic                     any_nan, pos_inf, neg_inf
);
  localparam int CFMT = mma_pkg::FMT_F32;
  localparam int CM   = mma_pkg::fmt_man_bits(CFMT);        // 23
  localparam int N2   = 1 << gdfs_spec_log2up(NG + 1);      // leaves of the e_max tree
  always @* begin
    logic signed [EW-1:0]  ec, e_max;
    logic [(NG+1)*EW-1:0]  e_t;                            // term t's exponent (C is term 0)
    logic [(NG+1)*TW-1:0]  x_t;                            // its magnitude on the grid of FA bits below 2^e
    logic [NG:0]           neg_t;
    logic [2*N2*EW-1:0]    e_tree;                         // node i at [i*EW +: EW], leaves N2 .. 2 N2 - 1
    logic                  c_nan, c_inf, c_sign;
    logic [7:0]            cx;
    logic [CM:0]           cm;
    logic [TW-1:0]         y, xc;

    // ---- Step 1 ----
    c_sign  = c[31];
    cx      = c[30:23];
    c_nan   = cx == 8'hFF && c[22:0] != '0;
    c_inf   = cx == 8'hFF && c[22:0] == '0;
    any_nan = nan != '0 || c_nan;
    pos_inf = c_inf && !c_sign;                          // an infinite C passes through
    neg_inf = c_inf && c_sign;

    // ---- C is term 0 (a zero or subnormal C at 2^-126), the groups' terms follow ----
    ec = cx == 8'd0 ? EW'(1 - mma_pkg::fmt_bias(CFMT)) : EW'(cx) - EW'(mma_pkg::fmt_bias(CFMT));
    cm = {cx != 8'd0, c[CM-1:0]};
    xc    = TW'(cm) << (FA - CM);                          // (not shifted inside the concatenation:
    e_t   = {e, ec};                                       // Yosys 0.23 sizes such a shift too narrowly)
    x_t   = {x, xc};
    neg_t = {neg, c_sign};

    // ---- Step 5: e_max (pairwise maxima, terms in order, padded with the smallest exponent) ----
    e_tree = '0;
    for (int i = 0; i < N2; i++)
      e_tree[(N2+i)*EW +: EW] = i <= NG ? e_t[i*EW +: EW] : {1'b1, {(EW-1){1'b0}}};
    for (int i = N2 - 1; i >= 1; i--)
      e_tree[i*EW +: EW] = $signed(e_tree[2*i*EW +: EW]) > $signed(e_tree[(2*i+1)*EW +: EW])
                         ? e_tree[2*i*EW +: EW] : e_tree[(2*i+1)*EW +: EW];
    e_max = e_tree[EW +: EW];

    // ---- Steps 5-6: truncate every term below 2^(e_max - FA), sum exactly ----
    sum = '0;
    for (int t = 0; t <= NG; t++) begin
      y = x_t[t*TW +: TW] >> (e_max - $signed(e_t[t*EW +: EW]));
      if (neg_t[t]) sum = sum - SUMW'(y);
      else          sum = sum + SUMW'(y);
    end
    lsb = e_max - EW'(FA);                                 // the weight of the sum's last bit
  end
endmodule
/* verilator lint_on DECLFILENAME */
`endif
