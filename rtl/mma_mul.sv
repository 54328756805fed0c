// mma_mul: one lane's multiplier, the unsigned product of two significands (or of their halves, the
// M3XU's 12-bit multipliers).  A module of its own so that make prove can cut at it (CUT=mma_mul,
// docs/formal.md): a proof that holds for any function in its place holds for the product.
module mma_mul #(
  parameter int AW = 12,
  parameter int BW = AW
) (
  input  logic [AW-1:0]     a,
  input  logic [BW-1:0]     b,
  output logic [AW+BW-1:0]  p
);
  assign p = (AW+BW)'(a) * (AW+BW)'(b);
endmodule
