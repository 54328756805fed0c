// sfma_spec: an independent specification of sequential fused multiply-add (SFMA: AMD's f32 MFMA; the
// MMA-Sim paper, Algorithm 1) for make prove (tests/prove/all.sh, docs/formal.md), written from IEEE 754's
// fusedMultiplyAdd; it shares no arithmetic with rtl/: only the format table (mma_pkg's fields of
// rtl/mma_formats.svh) is read.  d = C; for k = 0 .. K-1: d = a_k * b_k + d, each step rounded once to
// nearest even in f32, subnormals kept.  One step, in the plainest way: the exact product
// (-1)^(sa^sb) * ma * mb * 2^(ea + eb - 2 MW) and the exact C, both placed on one integer grid whose last
// bit is the smallest weight any product of two f32 values can have (2^(2 (1 - bias) - 2 MW) = 2^-298),
// wide enough for the largest product (below 2^256): their exact sum, rounded once by spec_round.
// Specials: a NaN operand, 0 * inf, or an infinite product meeting an infinite C of the other sign give
// f32's canonical NaN; else an infinite product or C gives that infinity.  An exact zero sum is +0, but
// a zero product and a zero C both negative give -0 (IEEE 754 section 6.3).
// Scope: f32 A, B, C and D (OUT_MASK f32 RNE: CDNA1/CDNA2's v_mfma_f32_*f32).
// Ports: sfma_unit's (clk, rst_n, in_valid/in_ready, out_kind, c, a, b, out_valid/out_ready, d), and,
// unused, the port contract's fmt_a, fmt_b, fmt_c, sa, sb (make verify and make prove connect a module
// that is not one of the project's units by fda_unit's ports: docs/verify-your-design.md, section 4).
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 rounds each
// step toward zero.
// DECODE_CUT (make prove's cut point; 0 for the specification): 1 decodes A, B and C with rtl/'s
// mma_unpack (spec_decode_rtl), which tests/prove/fda_cut_harness.sv's PART 0 proves equal to
// spec_decode, so that both sides' multipliers read the same significands.
// The port contract of make verify: D is registered on the handshake and held until taken.
`include "tests/prove/spec_common.svh"
`include "tests/prove/decode_cut.svh"

/* verilator lint_off DECLFILENAME */  // the specification's step, in its file
// one IEEE fused multiply-add a * b + c in f32, rounded to nearest even (toward zero: SPEC_MUTANT = 1)
module sfma_spec_fma #(
  parameter int SPEC_MUTANT = 0,
  parameter int DECODE_CUT  = 0
) (
  input  logic [31:0] a, b, c,
  output logic [31:0] d
);
  localparam int FMT  = mma_pkg::FMT_F32;
  localparam int MW   = mma_pkg::fmt_man_bits(FMT);
  localparam int BIAS = mma_pkg::fmt_bias(FMT);
  localparam int EMAX = (1 << mma_pkg::fmt_exp_bits(FMT)) - 2 - BIAS;   // the largest normal exponent
  localparam int EW   = 16;
  localparam int L    = 2 * (1 - BIAS) - 2 * MW;         // the grid's last bit: the smallest product weight
  localparam int SW   = 2 * (EMAX + 1) - L + 2;           // up to the largest product, a carry and the sign
  localparam int OUT  = SPEC_MUTANT == 1 ? mma_pkg::OUT_F32_RZ : mma_pkg::OUT_F32_RNE;

  logic                 s_a, s_b, s_c, z_a, z_b, z_c, i_a, i_b, i_c, n_a, n_b, n_c;
  logic signed [EW-1:0] e_a, e_b, e_c;
  logic [MW:0]          m_a, m_b, m_c;
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(1 << FMT), .AW(32), .MW(MW), .EW(EW)) u_a (
    .fmt(mma_pkg::FMT_BITS'(FMT)), .raw(a), .s(s_a), .e(e_a), .m(m_a), .zero(z_a), .inf(i_a), .nan(n_a));
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(1 << FMT), .AW(32), .MW(MW), .EW(EW)) u_b (
    .fmt(mma_pkg::FMT_BITS'(FMT)), .raw(b), .s(s_b), .e(e_b), .m(m_b), .zero(z_b), .inf(i_b), .nan(n_b));
  spec_decode_cut #(.CUT(DECODE_CUT), .MASK(1 << FMT), .AW(32), .MW(MW), .EW(EW)) u_c (
    .fmt(mma_pkg::FMT_BITS'(FMT)), .raw(c), .s(s_c), .e(e_c), .m(m_c), .zero(z_c), .inf(i_c), .nan(n_c));

  // the exact product and C on the grid of 2^L: each magnitude shifted left by its last bit's weight - L
  logic                  s_p, z_p, i_p;
  logic [2*MW+1:0]       m_p;
  logic [SW-1:0]         mag_p, mag_c;
  logic signed [SW-1:0]  sum;
  logic [31:0]           rounded;
  assign s_p   = s_a ^ s_b;
  assign z_p   = z_a || z_b;
  assign i_p   = i_a || i_b;
  assign m_p   = (2*MW+2)'(m_a) * (2*MW+2)'(m_b);    // the exact product, on its own width
  assign mag_p = z_p ? '0 : SW'(m_p) << (e_a + e_b - EW'(2 * MW) - EW'(L));
  assign mag_c = z_c ? '0 : SW'(m_c) << (e_c - EW'(MW) - EW'(L));
  assign sum   = (s_p ? -$signed(mag_p) : $signed(mag_p)) + (s_c ? -$signed(mag_c) : $signed(mag_c));
  spec_round #(.OUT_MASK(1 << OUT), .SW(SW), .EW(EW)) u_round (
    .out_kind(mma_pkg::OUT_BITS'(OUT)), .sum(sum), .lsb(EW'(L)), .any_nan(1'b0), .pos_inf(1'b0), .neg_inf(1'b0),
    .d(rounded));
  always @* begin
    if (n_a || n_b || n_c || (i_a && z_b) || (z_a && i_b) || (i_p && i_c && s_p != s_c))
      d = 32'(mma_pkg::fmt_canonical_nan(FMT));
    else if (i_p)               d = 32'(mma_pkg::fmt_inf(FMT)) | {s_p, 31'd0};
    else if (i_c)               d = 32'(mma_pkg::fmt_inf(FMT)) | {s_c, 31'd0};
    else if (z_p && z_c)        d = {s_p && s_c, 31'd0};
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
  /* verilator lint_off UNUSEDSIGNAL */  // the port contract's selects: every operand is f32, no scales
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [7:0]                    sa, sb,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  generate
    if (OUT_MASK != (1 << mma_pkg::OUT_F32_RNE) || AW != 32) begin : g_scope
      $error("sfma_spec: f32 only (OUT_MASK f32 RNE, 32-bit lanes)");
    end
  endgenerate
  logic [(K+1)*32-1:0] acc;                              // d after k steps at [k*32 +: 32]
  assign acc[31:0] = c;
  genvar k;
  generate
    for (k = 0; k < K; k++) begin : g_step
      sfma_spec_fma #(.SPEC_MUTANT(SPEC_MUTANT), .DECODE_CUT(DECODE_CUT)) u_fma (
        .a(a[k*32 +: 32]), .b(b[k*32 +: 32]), .c(acc[k*32 +: 32]), .d(acc[(k+1)*32 +: 32]));
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(acc[K*32 +: 32]),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
