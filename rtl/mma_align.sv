// mma_align: FDA Step 3 for one term.  x is the term's magnitude already placed on the common grid;
// shifting right by sh (= e_max - e + extra fractional bits) and dropping the shifted-out bits is
// trunc(value * 2^(F - e_max)) in sign-magnitude, i.e. truncation toward zero.  Shifts of XW or more
// leave nothing.  ROUND = ROUND_RD rounds down instead (FDRDA Step 6: toward -inf, so a negative term
// that lost bits grows by one unit; neg is the term's sign).  JAM = 1 ORs the lost bits into the last
// kept bit (round to odd: the sticky bit of an IEEE adder, whose grid keeps two bits beyond the result's).
module mma_align #(
  parameter int XW    = 27,                  // input width
  parameter int OW    = 27,                  // output width (F + integer bits)
  parameter int SHW   = 13,                  // shift-amount width (unsigned)
  parameter int ROUND = mma_pkg::ROUND_RZ,   // ROUND_RZ or ROUND_RD
  parameter int JAM   = 0
) (
  input  logic [XW-1:0]  x,
  input  logic           neg,
  input  logic [SHW-1:0] sh,
  output logic [OW-1:0]  y
);
  logic [XW-1:0] shifted;
  logic          lost;   // a nonzero bit was shifted out
  assign shifted = sh >= SHW'(XW) ? '0 : x >> sh;
  assign lost    = sh >= SHW'(XW) ? x != '0 : (x & ~({XW{1'b1}} << sh)) != '0;
  generate
    if (ROUND == mma_pkg::ROUND_RD) begin : g_rd
      assign y = OW'(shifted) + OW'(neg && lost);
    end else if (JAM != 0) begin : g_jam
      logic unused_neg;
      assign unused_neg = neg;
      assign y = OW'(shifted) | OW'(lost);
    end else begin : g_rz
      logic unused_rz;
      assign unused_rz = ^{neg, lost};
      assign y = OW'(shifted);
    end
  endgenerate
  // callers shift by at least XW - OW, so the bits above OW are zero
  generate
    if (XW > OW) begin : g_high
      logic unused_high;
      assign unused_high = ^shifted[XW-1:OW];
    end
  endgenerate
endmodule
