// make prove's harness for GPS's two operations, each proven alone for every input: PART = 0 one product
// a * b rounded to f32 (rtl/mma_fp_mul.sv, as gps_datapath instantiates it, against the specification's
// gps_spec_mul; a and b are lane 0 of A and of B, any operand of AB_MASK's formats), PART = 1 one f32
// addition (rtl/mma_fp_add.sv against gps_spec_add; x is lanes 0 .. of A, its low 32 bits, y the port c:
// any two f32 values).  With both proven, the unit against the specification running rtl/'s two
// operations in its own order (tests/prove/gps_spec.sv, OP_CUT = 1: the pairwise tree, C first, the
// groups in order, the handshake) proves the unit against the specification itself, the operations being
// the same functions on both sides.  It wears make verify's port contract so that make prove can drive
// it; the other inputs are not read.  SIDE = 0 rtl/, 1 the specification, 2 a mutant (PART 0: a zero
// product's sign lost, +0 for every zero; PART 1: the sum rounded toward zero).
// PART 2 takes CDNA2's flushed product (FLUSH = 1) apart, where PART 0 whole is undecided: SIDE 0 and 1 as
// in PART 0, SIDE 3 rtl/'s product without flushing (FLUSH = 0) between the flushing done outside it
// (an operand whose exponent field is 0 replaced by +0, a result whose exponent field is 0 by a zero of
// its sign), SIDE 4 the specification's product alike.  0 = 3, 3 = 4 and 4 = 1 prove 0 = 1.
`include "tests/prove/gps_spec.sv"

/* verilator lint_off UNUSEDSIGNAL */  // the contract's inputs that an operation does not read
module gps_cut_harness #(
  parameter int SIDE       = 0,
  parameter int PART       = 0,
  parameter int K          = 4,
  parameter int FLUSH      = 0,
  parameter int AB_MASK    = 1 << mma_pkg::FMT_F16,
  parameter int DECODE_CUT = 0,                         // PART 0, SIDE 1: the specification's DECODE_CUT
  parameter int AW         = mma_pkg::max_width(AB_MASK)
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [7:0]                    sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int OUT = SIDE == 2 && PART == 1 ? mma_pkg::OUT_F32_RZ : mma_pkg::OUT_F32_RNE;
  localparam bit OUTSIDE = PART == 2 && SIDE >= 3;       // the flushing done outside the product
  // an f16 or bf16 operand (the formats GPS reads) whose exponent field is 0 (zero or subnormal) -> +0
  localparam int MF16 = mma_pkg::fmt_man_bits(mma_pkg::FMT_F16), MBF16 = mma_pkg::fmt_man_bits(mma_pkg::FMT_BF16);
  function automatic logic [AW-1:0] flush_operand(input logic [mma_pkg::FMT_BITS-1:0] fmt, input logic [AW-1:0] raw);
    if (fmt == mma_pkg::FMT_BITS'(mma_pkg::FMT_BF16)) flush_operand = raw[14:MBF16] == '0 ? '0 : raw;
    else                                              flush_operand = raw[14:MF16] == '0 ? '0 : raw;
  endfunction
  logic [31:0]   x, r, p, q;
  logic [AW-1:0] a0, b0;
  assign x  = 32'(a);
  assign a0 = OUTSIDE ? flush_operand(fmt_a, a[0 +: AW]) : a[0 +: AW];
  assign b0 = OUTSIDE ? flush_operand(fmt_b, b[0 +: AW]) : b[0 +: AW];
  assign q  = gps_spec_flush(OUTSIDE ? 1 : 0, p);       // a subnormal product -> a zero of its sign
  generate
    if (K * AW < 32 || (PART == 2 && (FLUSH == 0 || AW != 16))) begin : g_scope
      $error("gps_cut_harness: PART 1 reads a 32-bit x from A's lanes (K * AW at least 32); PART 2 is FLUSH = 1's, on 16-bit lanes");
    end
    if (PART != 1 && (SIDE == 1 || SIDE == 4)) begin : g_spec_mul
      gps_spec_mul #(.AB_MASK(AB_MASK), .FLUSH(OUTSIDE ? 0 : FLUSH), .DECODE_CUT(DECODE_CUT), .AW(AW)) u_mul (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a0), .b(b0), .p(p));
      assign r = q;
    end else if (PART != 1) begin : g_rtl_mul
      mma_fp_mul #(.AB_MASK(AB_MASK), .OUT(OUT), .FLUSH(OUTSIDE ? 0 : FLUSH), .AW(AW), .DW(32)) u_mul (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a0), .b(b0), .d(p));
      assign r = SIDE == 2 && p[30:0] == '0 ? '0 : q;
    end else if (SIDE == 1) begin : g_spec_add
      assign p = '0;
      gps_spec_add #(.FLUSH(FLUSH)) u_add (.x(x), .y(c), .d(r));
    end else begin : g_rtl_add
      assign p = '0;
      mma_fp_add #(.FMT(mma_pkg::FMT_F32), .OUT(OUT), .FLUSH(FLUSH)) u_add (.x(x), .y(c), .d(r));
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(r),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
/* verilator lint_on UNUSEDSIGNAL */
