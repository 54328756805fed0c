// mma_align: FDA Step 3 for one term.  x is the term's magnitude already placed on the common grid;
// shifting right by sh (= e_max - e + extra fractional bits) and dropping the shifted-out bits is
// trunc(value * 2^(F - e_max)) in sign-magnitude, i.e. truncation toward zero.  Shifts of XW or more
// leave nothing.
module mma_align #(
  parameter int XW  = 27,  // input width
  parameter int OW  = 27,  // output width (F + integer bits)
  parameter int SHW = 13   // shift-amount width (unsigned)
) (
  input  logic [XW-1:0]  x,
  input  logic [SHW-1:0] sh,
  output logic [OW-1:0]  y
);
  logic [XW-1:0] shifted;
  assign shifted = sh >= SHW'(XW) ? '0 : x >> sh;
  assign y = OW'(shifted);
  // callers shift by at least XW - OW, so the bits above OW are zero
  generate
    if (XW > OW) begin : g_high
      logic unused_high;
      assign unused_high = ^shifted[XW-1:OW];
    end
  endgenerate
endmodule
