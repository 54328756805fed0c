// make prove's cut point at the operands' decoding (DECODE_CUT of tests/prove/fda_spec_pass.svh,
// fdrda_spec_pass.svh, gps_spec.sv and sfma_spec.sv, through spec_decode_cut): rtl/'s mma_unpack with
// spec_decode's ports, so that a specification can decode
// its operands as rtl/ does.  tests/prove/fda_cut_harness.sv's PART 0 proves this module equal to
// spec_decode on every operand, so a proof with the cut carries to the specification itself.
`ifndef DECODE_CUT_SVH
`define DECODE_CUT_SVH
/* verilator lint_off DECLFILENAME */
module spec_decode_rtl #(
  parameter int MASK = 1 << mma_pkg::FMT_E4M3,
  parameter int AW   = 8,
  parameter int MW   = 3,
  parameter int EW   = 16
) (
  input  logic [mma_pkg::FMT_BITS-1:0] fmt,
  input  logic [AW-1:0]                raw,
  output logic                         s,
  output logic signed [EW-1:0]         e,
  output logic [MW:0]                  m,
  output logic                         zero, inf, nan
);
  mma_pkg::fp_t u;
  mma_unpack #(.MASK(MASK), .MW(MW), .IW(AW)) u_unpack (.raw(raw), .fmt(fmt), .u(u), .sig(m));
  assign {s, e, zero, inf, nan} = {mma_pkg::fp_sign(u), EW'(mma_pkg::fp_exp(u)), mma_pkg::fp_is_zero(u),
                                   mma_pkg::fp_is_inf(u), mma_pkg::fp_is_nan(u)};
endmodule

// A specification's operand decoding: spec_decode, or with CUT = 1 (the specification's DECODE_CUT)
// spec_decode_rtl; the one place that choice is made.
module spec_decode_cut #(
  parameter int CUT  = 0,
  parameter int MASK = 1 << mma_pkg::FMT_E4M3,
  parameter int AW   = 8,
  parameter int MW   = 3,
  parameter int EW   = 16
) (
  input  logic [mma_pkg::FMT_BITS-1:0] fmt,
  input  logic [AW-1:0]                raw,
  output logic                         s,
  output logic signed [EW-1:0]         e,
  output logic [MW:0]                  m,
  output logic                         zero, inf, nan
);
  generate
    if (CUT != 0) begin : g_rtl
      spec_decode_rtl #(.MASK(MASK), .AW(AW), .MW(MW), .EW(EW)) u_decode (
        .fmt(fmt), .raw(raw), .s(s), .e(e), .m(m), .zero(zero), .inf(inf), .nan(nan));
    end else begin : g_spec
      spec_decode #(.MASK(MASK), .AW(AW), .MW(MW), .EW(EW)) u_decode (
        .fmt(fmt), .raw(raw), .s(s), .e(e), .m(m), .zero(zero), .inf(inf), .nan(nan));
    end
  endgenerate
endmodule
/* verilator lint_on DECLFILENAME */
`endif
