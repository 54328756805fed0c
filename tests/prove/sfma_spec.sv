// sfma_spec: an independent specification of sequential fused multiply-add (SFMA: AMD's f32 and f64 MFMA,
// NVIDIA's DMMA; the MMA-Sim paper, Algorithm 1) for make prove (tests/prove/all.sh, docs/formal.md), written from IEEE 754's
// fusedMultiplyAdd; it shares no arithmetic with rtl/: only the format table (mma_pkg's fields of
// rtl/mma_formats.svh) is read.  d = C; for k = 0 .. K-1: d = a_k * b_k + d, each step rounded once to
// nearest even in D's format (f32 or f64), subnormals kept.  One step, in the plainest way: the exact
// product (-1)^(sa^sb) * ma * mb * 2^(ea + eb - 2 MW) and the exact C, both placed on one integer grid
// whose last bit is the smallest weight any product of two values of the format can have
// (2^(2 (1 - bias) - 2 MW): 2^-298 in f32, 2^-2148 in f64), wide enough for the largest product (below
// 2^256, 2^2048): their exact sum (556 bits in f32, 4,198 in f64), rounded once by spec_round.
// Specials: a NaN operand, 0 * inf, or an infinite product meeting an infinite C of the other sign give
// the format's canonical NaN; else an infinite product or C gives that infinity.  An exact zero sum is
// +0, but a zero product and a zero C both negative give -0 (IEEE 754 section 6.3).
// Scope: the output kinds f32 RNE (A, B, C, D f32: CDNA1/CDNA2's v_mfma_f32_*f32) and f64 RNE (f64:
// v_mfma_f64_*, DMMA), either or both in OUT_MASK, chosen by out_kind as sfma_unit's are; lanes AW bits
// (64 with f64), a narrower format in the low end and D's upper bits zero.
// Ports: sfma_unit's (clk, rst_n, in_valid/in_ready, out_kind, c, a, b, out_valid/out_ready, d), and,
// unused, the port contract's fmt_a, fmt_b, fmt_c, sa, sb (make verify and make prove connect a module
// that is not one of the project's units by fda_unit's ports: docs/verify-your-design.md, section 4).
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 rounds each
// step toward zero (spec_round's ROUND_RZ).
// DECODE_CUT (make prove's cut point; 0 for the specification): 1 decodes A, B and C with rtl/'s
// mma_unpack (spec_decode_rtl), which tests/prove/fda_cut_harness.sv's PART 0 proves equal to
// spec_decode, so that both sides' multipliers read the same significands.
// The port contract of make verify: D is registered on the handshake and held until taken.
`include "tests/prove/spec_common.svh"
`include "tests/prove/decode_cut.svh"

/* verilator lint_off DECLFILENAME */  // the specification's step, in its file
// one IEEE fused multiply-add a * b + c in FMT (f32 or f64), rounded to nearest even (toward zero:
// SPEC_MUTANT = 1)
module sfma_spec_fma #(
  parameter int FMT         = mma_pkg::FMT_F32,
  parameter int SPEC_MUTANT = 0,
  parameter int DECODE_CUT  = 0,
  parameter int W           = mma_pkg::fmt_width(FMT)
) (
  input  logic [W-1:0] a, b, c,
  output logic [W-1:0] d
);
  localparam int MW   = mma_pkg::fmt_man_bits(FMT);
  localparam int BIAS = mma_pkg::fmt_bias(FMT);
  localparam int EMAX = (1 << mma_pkg::fmt_exp_bits(FMT)) - 2 - BIAS;   // the largest normal exponent
  localparam int EW   = 16;
  localparam int L    = 2 * (1 - BIAS) - 2 * MW;         // the grid's last bit: the smallest product weight
  localparam int SW   = 2 * (EMAX + 1) - L + 2;           // up to the largest product, a carry and the sign
  localparam int OUT  = FMT == mma_pkg::FMT_F64 ? mma_pkg::OUT_F64_RNE : mma_pkg::OUT_F32_RNE;

  logic                 s_a, s_b, s_c, z_a, z_b, z_c, i_a, i_b, i_c, n_a, n_b, n_c;
  logic signed [EW-1:0] e_a, e_b, e_c;
  logic [MW:0]          m_a, m_b, m_c;
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(1 << FMT), .AW(W), .MW(MW), .EW(EW)) u_a (
    .fmt(mma_pkg::FMT_BITS'(FMT)), .raw(a), .s(s_a), .e(e_a), .m(m_a), .zero(z_a), .inf(i_a), .nan(n_a));
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(1 << FMT), .AW(W), .MW(MW), .EW(EW)) u_b (
    .fmt(mma_pkg::FMT_BITS'(FMT)), .raw(b), .s(s_b), .e(e_b), .m(m_b), .zero(z_b), .inf(i_b), .nan(n_b));
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(1 << FMT), .AW(W), .MW(MW), .EW(EW)) u_c (
    .fmt(mma_pkg::FMT_BITS'(FMT)), .raw(c), .s(s_c), .e(e_c), .m(m_c), .zero(z_c), .inf(i_c), .nan(n_c));

  // the exact product and C on the grid of 2^L: each magnitude shifted left by its last bit's weight - L
  logic                  s_p, z_p, i_p;
  logic [2*MW+1:0]       m_p;
  logic [SW-1:0]         mag_p, mag_c;
  logic signed [SW-1:0]  sum;
  logic [W-1:0]          rounded;
  assign s_p   = s_a ^ s_b;
  assign z_p   = z_a || z_b;
  assign i_p   = i_a || i_b;
  assign m_p   = (2*MW+2)'(m_a) * (2*MW+2)'(m_b);    // the exact product, on its own width
  assign mag_p = z_p ? '0 : SW'(m_p) << (e_a + e_b - EW'(2 * MW) - EW'(L));
  assign mag_c = z_c ? '0 : SW'(m_c) << (e_c - EW'(MW) - EW'(L));
  assign sum   = (s_p ? -$signed(mag_p) : $signed(mag_p)) + (s_c ? -$signed(mag_c) : $signed(mag_c));
  spec_round #(.OUT_MASK(1 << OUT), .SW(SW), .EW(EW), .DW(W), .ROUND_RZ(SPEC_MUTANT == 1 ? 1 : 0)) u_round (
    .out_kind(mma_pkg::OUT_BITS'(OUT)), .sum(sum), .lsb(EW'(L)), .any_nan(1'b0), .pos_inf(1'b0), .neg_inf(1'b0),
    .d(rounded));
  always @* begin
    if (n_a || n_b || n_c || (i_a && z_b) || (z_a && i_b) || (i_p && i_c && s_p != s_c))
      d = W'(mma_pkg::fmt_canonical_nan(FMT));
    else if (i_p)               d = W'(mma_pkg::fmt_inf(FMT)) | {s_p, (W-1)'(0)};
    else if (i_c)               d = W'(mma_pkg::fmt_inf(FMT)) | {s_c, (W-1)'(0)};
    else if (z_p && z_c)        d = {s_p && s_c, (W-1)'(0)};
    else                        d = rounded;
  end
endmodule
/* verilator lint_on DECLFILENAME */

module sfma_spec #(
  parameter int K           = 1,
  parameter int OUT_MASK    = 1 << mma_pkg::OUT_F32_RNE,
  parameter int SPEC_MUTANT = 0,
  parameter int DECODE_CUT  = 0,
  parameter int AW          = 32
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  /* verilator lint_off UNUSEDSIGNAL */  // the contract's selects: operands in D's format, no scales; out_kind with one kind
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [7:0]                    sa, sb,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [AW-1:0]                 c,
  input  logic [K*AW-1:0]               a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [AW-1:0]                 d
);
  localparam int M32 = 1 << mma_pkg::OUT_F32_RNE, M64 = 1 << mma_pkg::OUT_F64_RNE;
  generate
    if ((OUT_MASK & ~(M32 | M64)) != 0 || OUT_MASK == 0 || AW != ((OUT_MASK & M64) != 0 ? 64 : 32)) begin : g_scope
      $error("sfma_spec: the output kinds f32 RNE and f64 RNE only, lanes of 32 bits (64 with f64)");
    end
  endgenerate
  logic [AW-1:0] d32, d64;                               // the f32 chain's D, the f64 chain's
  genvar k;
  generate
    if ((OUT_MASK & M32) != 0) begin : g_f32
      logic [(K+1)*32-1:0] acc;                          // d after k steps at [k*32 +: 32]
      assign acc[31:0] = c[31:0];
      for (k = 0; k < K; k++) begin : g_step
        sfma_spec_fma #(.FMT(mma_pkg::FMT_F32), .SPEC_MUTANT(SPEC_MUTANT), .DECODE_CUT(DECODE_CUT)) u_fma (
          .a(a[k*AW +: 32]), .b(b[k*AW +: 32]), .c(acc[k*32 +: 32]), .d(acc[(k+1)*32 +: 32]));
      end
      assign d32 = AW'(acc[K*32 +: 32]);
    end else begin : g_no_f32
      assign d32 = '0;
    end
    if ((OUT_MASK & M64) != 0) begin : g_f64
      logic [(K+1)*64-1:0] acc;                          // d after k steps at [k*64 +: 64]
      assign acc[63:0] = 64'(c);
      for (k = 0; k < K; k++) begin : g_step
        sfma_spec_fma #(.FMT(mma_pkg::FMT_F64), .SPEC_MUTANT(SPEC_MUTANT), .DECODE_CUT(DECODE_CUT)) u_fma (
          .a(64'(a[k*AW +: AW])), .b(64'(b[k*AW +: AW])), .c(acc[k*64 +: 64]), .d(acc[(k+1)*64 +: 64]));
      end
      assign d64 = AW'(acc[K*64 +: 64]);
    end else begin : g_no_f64
      assign d64 = '0;
    end
  endgenerate
  spec_hold #(.DW(AW)) u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready),
    .result((OUT_MASK & M64) != 0 && out_kind == mma_pkg::OUT_BITS'(mma_pkg::OUT_F64_RNE) ? d64 : d32),
    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
