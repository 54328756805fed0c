// gdfs_spec: an independent specification of NVIDIA Blackwell's group dot, fused sum (GDFS: OMMA.SF and
// UTCOMMA on MXFP4 and NVFP4) for make prove (tests/prove/all.sh, docs/formal.md), written from the GDFS
// steps of the MMA-Sim paper (section IV-E) and sharing no arithmetic with rtl/: only the format table
// (mma_pkg's fields of rtl/mma_formats.svh: widths, biases, special-value kinds, ignored bits, the output
// kind's format) is read.  One vector -> D, combinationally, in the plainest way:
//   Step 0: a UE4M3 scale's most significant bit is ignored (the format table's ignored bits).
//   Step 1: D = NaN (f32's canonical NaN, 0x7FFFFFFF) if a scale of A or B (any group's: every one of the
//     K / BLOCK slots is some group's) is NaN (UE8M0 0xFF; UE4M3 0x7F, either sign bit) or C is NaN; else
//     D = C if C is an infinity.  e2m1 operands have no special values.
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
// The steps are modules of tests/prove/gdfs_spec_steps.svh (a group's term, the sum) and spec_round, so
// that make prove can prove them part by part (tests/prove/gdfs_cut_harness.sv); GDFS_CUT = 1 runs rtl/'s
// parts (gdfs_group, gdfs_sum, mma_encode) in their place: the cut point, proving the rest.
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 aligns with
// F - 1 fractional bits.
`include "tests/prove/gdfs_spec_steps.svh"

module gdfs_spec #(
  parameter int K           = 64,
  parameter int G           = mma_pkg::GDFS_GROUP,
  parameter int F           = 35,
  parameter int BLOCK       = 16,
  parameter int SCALE_FMT   = mma_pkg::FMT_UE8M0,
  parameter int SPEC_MUTANT = 0,
  parameter int GDFS_CUT    = 0,
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
  localparam int NG   = K / G;                                // groups
  localparam int FA   = SPEC_MUTANT == 1 ? F - 1 : F;         // fractional bits kept by the alignment
  localparam int EW   = 16;                                   // signed exponents
  localparam int TW   = gdfs_spec_term_width(G, FA, SCALE_FMT);
  localparam int SUMW = gdfs_spec_sum_width(NG, TW);
  localparam int OUT  = mma_pkg::OUT_F32_RZ;                  // the one output kind of GDFS

  logic [31:0] res;                                           // D, combinationally
  genvar g;
  generate
    if (GDFS_CUT == 0) begin : g_spec
      // ---- Steps 0, 2-4: each group's term, its scales slot floor(16 g / BLOCK) ----
      logic [NG-1:0]    s_nan, t_neg;
      logic [NG*EW-1:0] t_e;
      logic [NG*TW-1:0] t_x;
      for (g = 0; g < NG; g++) begin : g_group
        gdfs_spec_group #(.G(G), .FA(FA), .SCALE_FMT(SCALE_FMT), .AW(AW), .EW(EW), .TW(TW)) u_group (
          .a(a[g*G*AW +: G*AW]), .b(b[g*G*AW +: G*AW]), .sa(sa[(g * G / BLOCK)*8 +: 8]),
          .sb(sb[(g * G / BLOCK)*8 +: 8]), .nan(s_nan[g]), .neg(t_neg[g]), .e(t_e[g*EW +: EW]),
          .x(t_x[g*TW +: TW]));
      end
      // ---- Steps 1, 5-6: C and the terms, the exact sum ----
      logic signed [SUMW-1:0] sum;
      logic signed [EW-1:0]   lsb;
      logic                   any_nan, pos_inf, neg_inf;
      gdfs_spec_sum #(.NG(NG), .FA(FA), .EW(EW), .TW(TW), .SUMW(SUMW)) u_sum (
        .c(c), .nan(s_nan), .neg(t_neg), .e(t_e), .x(t_x), .sum(sum), .lsb(lsb), .any_nan(any_nan),
        .pos_inf(pos_inf), .neg_inf(neg_inf));
      // ---- Step 7: normalize to f32, toward zero (spec_common.svh) ----
      spec_round #(.OUT_MASK(1 << OUT), .SW(SUMW), .EW(EW)) u_round (
        .out_kind(mma_pkg::OUT_BITS'(OUT)), .sum(sum), .lsb(lsb), .any_nan(any_nan), .pos_inf(pos_inf),
        .neg_inf(neg_inf), .d(res));
    end else begin : g_cut
      // make prove's cut: the three parts are rtl/'s (proven equal to the above, part by part, through
      // tests/prove/gdfs_cut_harness.sv), the groups' operands and scale slots and the handshake this
      // specification's
      localparam int RXW = mma_pkg::gdfs_term_width(G, F);
      localparam int RSW = mma_pkg::gdfs_sum_width(NG, G, F);
      logic [NG-1:0]                s_nan, t_neg;
      logic [NG*mma_pkg::EW-1:0]    t_e;
      logic [NG*RXW-1:0]            t_x;
      for (g = 0; g < NG; g++) begin : g_group
        gdfs_group #(.G(G), .F(F), .XW(RXW)) u_group (
          .fmt_s(mma_pkg::FMT_BITS'(SCALE_FMT)), .a(a[g*G*AW +: G*AW]), .b(b[g*G*AW +: G*AW]),
          .sa(sa[(g * G / BLOCK)*8 +: 8]), .sb(sb[(g * G / BLOCK)*8 +: 8]), .nan(s_nan[g]), .neg(t_neg[g]),
          .e(t_e[g*mma_pkg::EW +: mma_pkg::EW]), .x(t_x[g*RXW +: RXW]));
      end
      logic signed [RSW-1:0]          sum;
      logic signed [mma_pkg::EW+1:0]  lsb;
      logic                           d_nan, d_inf, d_inf_neg;
      gdfs_sum #(.NG(NG), .G(G), .F(F), .XW(RXW), .SW(RSW)) u_sum (
        .c(c), .s_nan(s_nan), .neg(t_neg), .e(t_e), .x(t_x), .sum(sum), .lsb_exp(lsb), .d_nan(d_nan),
        .d_inf(d_inf), .d_inf_neg(d_inf_neg));
      mma_encode #(.SW(RSW), .LW(mma_pkg::EW + 2), .OUT_MASK(1 << OUT), .DW(32)) u_encode (
        .sum(sum), .lsb_exp(lsb), .out_kind(mma_pkg::OUT_BITS'(OUT)), .nan(d_nan), .inf(d_inf),
        .inf_neg(d_inf_neg), .d(res));
    end
  endgenerate

  // the instructions fix the selects (A, B e2m1; C f32; D f32-rz): not read
  wire unused_selects = &{1'b0, fmt_a, fmt_b, fmt_c, out_kind};

  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(res),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
