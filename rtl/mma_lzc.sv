// mma_lzc: leading-zero count of a W-bit word (W when the word is zero), priority-encoder form.
module mma_lzc #(
  parameter int W  = 32,
  parameter int CW = mma_pkg::clog2(W + 1)
) (
  input  logic [W-1:0]  x,
  output logic [CW-1:0] count
);
  always @* begin
    count = CW'(W);
    for (int i = 0; i < W; i++)
      if (x[i]) count = CW'(W - 1 - i);
  end
endmodule
