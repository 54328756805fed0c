// mma_special: FDA Step 1 over N terms (C and the products).  D is NaN if any term is NaN (a NaN input,
// a 0 * inf product, a NaN scale) or +inf and -inf both occur; otherwise the one infinity present.
module mma_special #(
  parameter int N = 9
) (
  input  logic [N-1:0] nan,
  input  logic [N-1:0] inf,
  input  logic [N-1:0] neg,
  output logic         d_nan,
  output logic         d_inf,
  output logic         d_inf_neg
);
  logic pos_inf, neg_inf;
  assign pos_inf   = |(inf & ~neg);
  assign neg_inf   = |(inf & neg);
  assign d_nan     = |nan || (pos_inf && neg_inf);
  assign d_inf     = pos_inf || neg_inf;
  assign d_inf_neg = neg_inf;
endmodule
