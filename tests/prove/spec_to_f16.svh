// The specification's conversion of an FP8 operand to f16 (the mma.sync FP8 path of fda_spec, AB_F16),
// in a header of its own so that tests/prove/to_f16_harness.sv can set it against rtl/'s (mma_to_f16).
// Written from the formats' definitions; shares nothing with rtl/ but the format table (mma_pkg).
// Included by path from the repository root, after tests/prove/spec_common.svh (spec_decode).
`ifndef SPEC_TO_F16_SVH
`define SPEC_TO_F16_SVH

// raw, of the format fmt among MASK (every one of them exact in f16: e4m3, e5m2), as the f16 of the same
// value: the operand decoded (spec_decode), its leading one moved to the hidden place while the exponent
// stays at or above f16's smallest normal one (an e4m3 subnormal becomes an f16 normal; an e5m2
// subnormal stays an f16 subnormal), then packed as sign, biased exponent (0 without a hidden one) and
// fraction; NaN becomes f16's canonical NaN, an infinity f16's of its sign, a zero f16's of its sign.
// MUTANT (the check that a proof against it can fail; 0 for the specification): 1 leaves subnormals as
// they are (an e4m3 subnormal then reads as an f16 subnormal of the wrong value).
module spec_to_f16 #(
  parameter int MASK   = (1 << mma_pkg::FMT_E4M3) | (1 << mma_pkg::FMT_E5M2),
  parameter int AW     = 8,
  parameter int MUTANT = 0
) (
  input  logic [mma_pkg::FMT_BITS-1:0] fmt,
  input  logic [AW-1:0]                raw,
  output logic [15:0]                  h
);
  localparam int MW   = mma_pkg::max_man_bits(MASK);              // fractional bits of the decoded significand
  localparam int HM   = mma_pkg::fmt_man_bits(mma_pkg::FMT_F16);   // f16's fraction bits
  localparam int HE   = mma_pkg::fmt_exp_bits(mma_pkg::FMT_F16);
  localparam int HB   = mma_pkg::fmt_bias(mma_pkg::FMT_F16);
  localparam int EW   = 16;
  logic signed [EW-1:0] de;
  logic [MW:0]          dm;
  logic                 ds, dz, di, dn;
  spec_decode #(.MASK(MASK), .AW(AW), .MW(MW), .EW(EW)) u_decode (
    .fmt(fmt), .raw(raw), .s(ds), .e(de), .m(dm), .zero(dz), .inf(di), .nan(dn));
  always @* begin
    logic signed [EW-1:0] e;
    logic [MW:0]          m;
    logic [HE-1:0]        biased;
    logic [HM-1:0]        frac;
    e = de; m = dm;
    if (MUTANT != 1)
      for (int i = 0; i < MW; i++)
        if (!m[MW] && e > EW'(1 - HB)) begin m = m << 1; e = e - 1; end
    biased = m[MW] ? HE'(e + EW'(HB)) : '0;             // no hidden one: an f16 subnormal
    frac   = HM'(m[MW-1:0]);
    frac   = frac << (HM - MW);
    h = {ds, biased, frac};
    if (dn)      h = 16'(mma_pkg::fmt_canonical_nan(mma_pkg::FMT_F16));
    else if (di) h = 16'(mma_pkg::fmt_inf(mma_pkg::FMT_F16)) | {ds, 15'd0};
    else if (dz) h = {ds, 15'd0};
  end
endmodule

`endif
