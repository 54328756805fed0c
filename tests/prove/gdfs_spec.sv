// gdfs_spec: an independent specification of NVIDIA Blackwell's group dot, fused sum (GDFS: OMMA.SF and
// UTCOMMA on MXFP4 and NVFP4) for make prove (tests/prove/all.sh, docs/formal.md), written from the GDFS
// steps of the MMA-Sim paper (section IV-E) and sharing no arithmetic with rtl/: only the format table
// (mma_pkg's fields of rtl/mma_formats.svh: widths, biases, special-value kinds, ignored bits, the output
// kind's format) is read.  One vector -> D, combinationally, in the plainest way:
//   Step 0: a UE4M3 scale's most significant bit is ignored (the format table's ignored bits).
//   Step 1: D = NaN (f32's canonical NaN, 0x7FFFFFFF) if a scale of A or B (any of the K / BLOCK slots) is
//     NaN (UE8M0 0xFF; UE4M3 0x7F, either sign bit) or C is NaN; else D = C if C is an infinity.  e2m1
//     operands have no special values.
//   Step 2: each e2m1 operand decoded to (sign, integer significand m, exponent above the format's
//     smallest e - e_min); the product's magnitude is the integer (m_a m_b) << (e_a - e_min + e_b - e_min)
//     in units of 2^(2 e_min - 2 MW) (0.25 for e2m1: 1 .. 144), exact, with the sign s_a ^ s_b.
//   Step 3: sigma_g = the exact signed sum of products 16 g .. 16 g + 15 (G = 16, the model's GDFS_GROUP,
//     whatever the block size).
//   Step 4: gamma_g = |sigma_g| * m_sa * m_sb, its exponent e_sa + e_sb only (the scales' exponents; a
//     zero UE4M3 scale counts as 2^-126, the model's ZERO_OPERAND_EXP, and its group still enters e_max),
//     its sign sigma_g's; the scales of group g are slot floor(16 g / BLOCK) of sa and sb.
//   Step 5: e_max = max(e_C, e_0 .. e_{K/16-1}) (a zero or subnormal C at 2^-126), as pairwise maxima in
//     order; every term (C and the gammas) truncated to F = 35 fractional bits below 2^e_max (RZ).
//   Step 6: S = the exact signed sum of the aligned terms.
//   Step 7: S * 2^(e_max - F) normalized to f32 toward zero (subnormals at 2^-126, a biased exponent past
//     254 -> inf of S's sign), a zero D +0 (the f32-rz output kind keeps no -0).
// Scope: the GDFS instructions of Blackwell and RTX Blackwell (tcgen05.mma ... k64 block32/block16 e2m1
// ue8m0, block16 e2m1 ue4m3; mma.m16n8k64 ...): A and B e2m1, C and D f32 (f32-rz), K = 64, UE8M0 with
// blocks of 32 or 16, UE4M3 with blocks of 16.  The interpretations where the paper is silent are the C
// model's (cmodel/src/algo_gdfs.c gdfs_pass, format.h fmt_decode, fixed.h fixed_align_rz, fixed.c
// to_output): the zero-scale exponent, the NaN check over the instruction's slots, +0, overflow to inf.
// Ports: make verify's contract (docs/verify-your-design.md, section 4), as any user's unit has it; the
// contract has no port for the scale format or the block size, so they are parameters here (SCALE_FMT,
// BLOCK; gdfs_unit takes them at run time), and the selects fmt_a, fmt_b, fmt_c, out_kind are not read
// (the instructions fix them: e2m1, e2m1, f32, f32-rz).  D is registered on the handshake and held until
// taken.
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 aligns with
// F - 1 fractional bits.
`include "tests/prove/spec_common.svh"

module gdfs_spec #(
  parameter int K           = 64,
  parameter int G           = mma_pkg::GDFS_GROUP,
  parameter int F           = 35,
  parameter int BLOCK       = 16,
  parameter int SCALE_FMT   = mma_pkg::FMT_UE8M0,
  parameter int SPEC_MUTANT = 0,
  parameter int AW          = mma_pkg::fmt_width(mma_pkg::FMT_E2M1),
  parameter int NSW         = K / BLOCK
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
  function automatic int biggest(input int x, input int y);
    biggest = x > y ? x : y;
  endfunction
  function automatic int log2up(input int x);              // bits to count 0 .. x - 1
    log2up = 0;
    for (int i = 0; i < 30; i++) if ((1 << i) < x) log2up = i + 1;
  endfunction

  // ---- the formats, from the table ----
  localparam int AB    = mma_pkg::FMT_E2M1;
  localparam int W     = mma_pkg::fmt_width(AB);             // 4
  localparam int MW    = mma_pkg::fmt_man_bits(AB);          // 1
  localparam int EB    = mma_pkg::fmt_exp_bits(AB);          // 2
  localparam int EMIN  = 1 - mma_pkg::fmt_bias(AB);          // 0
  localparam int EOFF  = (1 << EB) - 2;                      // largest exponent above EMIN (no specials)
  localparam int PF    = 2 * MW - 2 * EMIN;                  // fractional bits of a product (2)
  localparam int PW    = 2 * (MW + 1) + 2 * EOFF;            // a product's magnitude (8 bits: <= 144)
  localparam int NG    = K / G;                              // groups
  localparam int GSW   = PW + 1 + log2up(G + 1);             // a signed group sum
  localparam int SM    = mma_pkg::fmt_man_bits(SCALE_FMT);   // a scale's fractional bits (UE8M0 0, UE4M3 3)
  localparam int GFR   = PF + 2 * SM;                        // fractional bits of gamma
  localparam int GMW   = GSW - 1 + 2 * (SM + 1);             // gamma's magnitude
  localparam int CFMT  = mma_pkg::FMT_F32;
  localparam int CM    = mma_pkg::fmt_man_bits(CFMT);        // 23
  localparam int FA    = SPEC_MUTANT == 1 ? F - 1 : F;       // fractional bits kept by the alignment
  localparam int TW    = biggest(GMW + FA - GFR, CM + 1 + FA - CM) + 1;   // an aligned term's magnitude
  localparam int SUMW  = TW + log2up(NG + 2) + 2;            // the signed exact sum
  localparam int EW    = 16;                                 // signed exponents
  localparam int N2    = 1 << log2up(NG + 1);                // leaves of the e_max tree
  localparam int OUT   = mma_pkg::OUT_F32_RZ;                // the one output kind of GDFS
  localparam int SC_DW = 2 + EW + SM + 1;                    // a decoded scale {nan, zero, e, m}

  // a scale (UE8M0: 2^(E - bias), 0xFF NaN; UE4M3: an unsigned e4m3 whose top bit is ignored, 0x7F NaN,
  // zero at ZERO_OPERAND_EXP)
  function automatic logic [SC_DW-1:0] decode_scale(input logic [7:0] raw);
    logic [63:0] bits, man, ex, ones;
    logic nan, zero;
    logic signed [EW-1:0] e;
    logic [SM:0] m;
    bits = 64'(raw) & ((64'd1 << mma_pkg::fmt_width(SCALE_FMT)) - 64'd1) & ~mma_pkg::fmt_ignored(SCALE_FMT);
    man  = bits & ((64'd1 << SM) - 64'd1);
    ex   = (bits >> SM) & ((64'd1 << mma_pkg::fmt_exp_bits(SCALE_FMT)) - 64'd1);
    ones = (64'd1 << mma_pkg::fmt_exp_bits(SCALE_FMT)) - 64'd1;
    if (mma_pkg::fmt_specials(SCALE_FMT) == mma_pkg::SPEC_E8M0) begin
      nan = ex == ones; zero = 1'b0;
      e = EW'(ex) - EW'(mma_pkg::fmt_bias(SCALE_FMT));
      m = (SM+1)'(1) << SM;
    end else begin
      nan  = ex == ones && man == (64'd1 << SM) - 64'd1;
      zero = ex == 0 && man == 0;
      if (zero)         e = EW'(mma_pkg::ZERO_EXP);
      else if (ex == 0) e = EW'(1 - mma_pkg::fmt_bias(SCALE_FMT));
      else              e = EW'(ex) - EW'(mma_pkg::fmt_bias(SCALE_FMT));
      m = ex == 0 ? (SM+1)'(man) : (SM+1)'(man | (64'd1 << SM));
    end
    decode_scale = {nan, zero, e, m};
  endfunction

  logic [31:0]            res;                         // D, combinationally
  logic                   any_nan, pos_inf, neg_inf;   // Step 1's findings
  logic signed [SUMW-1:0] sum;                         // Step 6's exact sum ...
  logic signed [EW-1:0]   lsb;                         // ... and the weight of its last bit
  always @* begin
    logic [W-1:0]            ra, rb;
    logic                    normal_a, normal_b;
    logic [MW:0]             ma, mb;
    logic [EB-1:0]           xa, xb;
    logic [PW-1:0]           p;
    logic signed [GSW-1:0]   sigma;
    logic [NG*GSW-1:0]       sigmas;                      // sigma_g at [g*GSW +: GSW]
    logic [GSW-2:0]          mag_g;
    logic [GMW-1:0]          gamma;
    logic [SC_DW-1:0]        dsa, dsb;
    logic [SM:0]             msa, msb;
    logic signed [EW-1:0]    esa, esb, ec, e_max;
    logic [(NG+1)*EW-1:0]    e_t;                         // term t's exponent (C is term 0)
    logic [(NG+1)*TW-1:0]    x_t;                         // its magnitude on the grid of FA bits below 2^e
    logic [NG:0]             neg_t;
    logic [2*N2*EW-1:0]      e_tree;                      // node i at [i*EW +: EW], leaves N2 .. 2 N2 - 1
    logic                    scale_nan, c_nan, c_inf, c_sign;
    logic [31:0]             cbits;
    logic [7:0]              cx;
    logic [CM:0]             cm;
    logic [TW-1:0]           y;

    // ---- Step 1 ----
    scale_nan = 1'b0;
    for (int j = 0; j < NSW; j++) begin
      dsa = decode_scale(sa[j*8 +: 8]);
      dsb = decode_scale(sb[j*8 +: 8]);
      scale_nan = scale_nan | dsa[SC_DW-1] | dsb[SC_DW-1];
    end
    cbits  = c;
    c_sign = cbits[31];
    cx     = cbits[30:23];
    c_nan  = cx == 8'hFF && cbits[22:0] != '0;
    c_inf  = cx == 8'hFF && cbits[22:0] == '0;

    // ---- Steps 2-3: exact products, exact group sums ----
    for (int g = 0; g < NG; g++) begin
      sigma = '0;
      for (int i = g * G; i < (g + 1) * G; i++) begin
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
      sigmas[g*GSW +: GSW] = sigma;
    end

    // ---- Step 4: gamma_g; C is term 0 ----
    ec = cx == 8'd0 ? EW'(1 - mma_pkg::fmt_bias(CFMT)) : EW'(cx) - EW'(mma_pkg::fmt_bias(CFMT));
    cm = {cx != 8'd0, cbits[CM-1:0]};
    e_t = '0; x_t = '0; neg_t = '0;
    e_t[0 +: EW] = ec;                                     // a zero or subnormal C: 2^-126
    x_t[0 +: TW] = TW'(cm) << (FA - CM);
    neg_t[0]     = c_sign;
    for (int g = 0; g < NG; g++) begin
      dsa = decode_scale(sa[(g * G / BLOCK)*8 +: 8]);
      dsb = decode_scale(sb[(g * G / BLOCK)*8 +: 8]);
      {msa, esa} = {dsa[SM:0], dsa[SM+1 +: EW]};
      {msb, esb} = {dsb[SM:0], dsb[SM+1 +: EW]};
      sigma = sigmas[g*GSW +: GSW];
      mag_g = sigma < 0 ? (GSW-1)'(-sigma) : (GSW-1)'(sigma);
      gamma = GMW'(mag_g) * GMW'(msa) * GMW'(msb);
      e_t[(g+1)*EW +: EW] = esa + esb;
      x_t[(g+1)*TW +: TW] = TW'(gamma) << (FA - GFR);
      neg_t[g+1]          = sigma < 0;
    end

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

    any_nan = scale_nan || c_nan;
    pos_inf = c_inf && !c_sign;                          // an infinite C passes through
    neg_inf = c_inf && c_sign;
  end
  // ---- Step 7: normalize to f32, toward zero (spec_common.svh) ----
  spec_round #(.OUT_MASK(1 << OUT), .SW(SUMW), .EW(EW)) u_round (
    .out_kind(mma_pkg::OUT_BITS'(OUT)), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(pos_inf),
    .neg_inf(neg_inf), .d(res));

  // the instructions fix the selects (A, B e2m1; C f32; D f32-rz): not read
  wire unused_selects = &{1'b0, fmt_a, fmt_b, fmt_c, out_kind};

  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(res),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
