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
// mma_to_f16 instead, which a proof of its own sets equal to spec_to_f16 (docs/formal.md).  Scope: A and
// B of the IEEE-like formats with or without infinities (f16, bf16, tf32 with its 13 ignored mantissa
// bits cleared by spec_decode as Step 0, fp8, fp6, fp4; not the fnuz formats), C of
// an IEEE format up to 32 bits (with C_LAST, in D's format), D up to 32 bits, UE8M0 block scales
// (BLOCK > 0, one scale per BLOCK products).
// PASS_CUT (make prove's cut point; 0 for the specification): 1 runs each pass through rtl/fda_datapath.sv
// instead, so that a proof against the unit checks the passes' chaining, C_LAST's addition and the
// handshake alone; the pass itself is proven equal part by part (tests/prove/fda_cut_harness.sv).  Not
// with AB_F16 (an elaboration error).  DECODE_CUT (make prove's cut point; 0 for the specification): 1
// decodes A and B with rtl/'s mma_unpack (fda_spec_term), which tests/prove/fda_cut_harness.sv's PART 0
// proves equal to spec_decode on every operand.  PRODUCT_HALF: each product written in the M3XU's two
// steps on significands split at that bit (fda_spec_term; the same value, tests/prove/m3xu_spec.sv);
// MUL_CUT (make prove's cut point, with PRODUCT_HALF): those halves multiplied by rtl/'s mma_mul.
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 aligns with
// F - 1 fractional bits; 2 chains the passes in the other order (pass p takes pass CHAIN - 1 - p's
// products and scales), a mutant of the chaining that a proof with the passes cut (CUT=) must refute.
// The port contract of make verify (docs/verify-your-design.md, section 4): D is registered on the
// handshake and held until taken.
`include "tests/prove/spec_common.svh"
`include "tests/prove/fda_spec_add.svh"
`include "tests/prove/spec_to_f16.svh"
`include "tests/prove/fda_spec_pass.svh"

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
  parameter int PASS_CUT    = 0,
  parameter int DECODE_CUT  = 0,
  parameter int PRODUCT_HALF = 0,
  parameter int MUL_CUT     = 0,
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
    if (PASS_CUT != 0 && AB_F16 != 0) begin : g_cut_f16
      $error("fda_spec: PASS_CUT reads A and B in the datapath's formats; AB_F16 converts them first");
    end
    for (p = 0; p < CHAIN; p++) begin : g_pass
      localparam int NSP = BLOCK > 0 ? KP / BLOCK : 1;
      localparam int PP  = SPEC_MUTANT == 2 ? CHAIN - 1 - p : p;  // the pass whose products it takes
      logic [KP*AW-1:0] pa, pb;                          // the pass's products: its lanes, in order
      for (j = 0; j < KP; j++) begin : g_lane
        // contiguous (pass p takes products p KP ..), or the j / K_RUN-th run of K_RUN dealt to pass p
        localparam int KK = K_RUN > 0 ? (j / K_RUN * CHAIN + PP) * K_RUN + j % K_RUN : PP * KP + j;
        assign pa[j*AW +: AW] = a[KK*AW +: AW];
        assign pb[j*AW +: AW] = b[KK*AW +: AW];
      end
      if (PASS_CUT == 0) begin : g_spec
        fda_spec_pass #(.K(KP), .F(SPEC_MUTANT == 1 ? F - 1 : F), .AB_MASK(AB_MASK),
                        .C_MASK(C_MASK | (CHAIN > 1 ? mma_pkg::out_formats(OUT_MASK) : 0)), .OUT_MASK(OUT_MASK),
                        .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP), .AB_F16(AB_F16), .F16_CUT(F16_CUT), .DECODE_CUT(DECODE_CUT),
                        .PRODUCT_HALF(PRODUCT_HALF), .MUL_CUT(MUL_CUT), .AW(AW)) u_pass (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .fmt_c(p == 0 ? fmt_c : d_fmt), .out_kind(out_kind),
          .c(cs[p*32 +: 32]), .a(pa), .b(pb),
          .sa(sa[(BLOCK > 0 ? PP * NSP : 0)*8 +: NSP*8]), .sb(sb[(BLOCK > 0 ? PP * NSP : 0)*8 +: NSP*8]),
          .d(cs[(p+1)*32 +: 32]));
      end else begin : g_cut
        fda_datapath #(.KD(KP), .F(F), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .BLOCK(BLOCK),
                       .ZERO_EXP(ZERO_EXP), .AW(AW)) u_pass (
          .fmt_a(fmt_a), .fmt_b(fmt_b), .fmt_c(p == 0 ? fmt_c : d_fmt), .out_kind(out_kind),
          .c(cs[p*32 +: 32]), .a(pa), .b(pb),
          .sa(sa[(BLOCK > 0 ? PP * NSP : 0)*8 +: NSP*8]), .sb(sb[(BLOCK > 0 ? PP * NSP : 0)*8 +: NSP*8]),
          .d(cs[(p+1)*32 +: 32]));
      end
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
