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
// products (Step 4) with F - 1 fractional bits; 2 chains the passes in the other order (pass p takes pass
// CHAIN - 1 - p's products), a mutant of the chaining that a proof with the passes cut (CUT=) must refute.
// A pass is fdrda_spec_pass (tests/prove/fdrda_spec_pass.svh: the products' dot sum, then C).  PASS_CUT
// (make prove's cut point; 0 for the specification): 1 runs each pass through rtl/fdrda_datapath.sv
// instead, so that a proof against the unit checks the passes' chaining and the handshake alone; the
// passes themselves are proven equal half by half (tests/prove/fdrda_cut_harness.sv).  DECODE_CUT (make
// prove's cut point; 0 for the specification): 1 decodes A and B with rtl/'s mma_unpack
// (fdrda_spec_term), which tests/prove/fda_cut_harness.sv's PART 0 proves equal to spec_decode.
// The port contract of make verify: D is registered on the handshake and held until taken.
`include "tests/prove/spec_common.svh"
`include "tests/prove/fdrda_spec_pass.svh"

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
  parameter int PASS_CUT    = 0,
  parameter int DECODE_CUT  = 0,
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
      localparam int PP = SPEC_MUTANT == 2 ? CHAIN - 1 - p : p;  // the pass whose products it takes
      if (PASS_CUT == 0) begin : g_spec
        fdrda_spec_pass #(.K(KP), .F(SPEC_MUTANT == 1 ? F - 1 : F), .ALGO(ALGO), .AB_MASK(AB_MASK),
                          .ALIGN_DOT(ALIGN_DOT), .ALIGN_C(ALIGN_C), .OUT(OUT), .AW(AW), .DECODE_CUT(DECODE_CUT),
                          .C_FMT(p == 0 ? mma_pkg::FMT_F32 : mma_pkg::out_format(OUT))) u_pass (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .c(cs[p*32 +: 32]), .a(a[PP*KP*AW +: KP*AW]), .b(b[PP*KP*AW +: KP*AW]),
          .d(cs[(p+1)*32 +: 32]));
      end else begin : g_cut
        fdrda_datapath #(.KD(KP), .F(F), .ALGO(ALGO), .AB_MASK(AB_MASK), .ALIGN_DOT(ALIGN_DOT),
                         .ALIGN_C(ALIGN_C), .OUT(OUT), .AW(AW)) u_pass (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .c(cs[p*32 +: 32]), .a(a[PP*KP*AW +: KP*AW]), .b(b[PP*KP*AW +: KP*AW]),
          .d(cs[(p+1)*32 +: 32]));
      end
    end
  endgenerate

  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(cs[CHAIN*32 +: 32]),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule

