// mul_probe: L unsigned W x W multipliers between registers, as the M3XU designs' lanes have them
// (rtl/m3xu_datapath.sv), for synthesis only: the area of the multipliers alone at W = 11, 12 and 24
// measures the cost of the 12th significand bit (docs/synthesis.md), which the baseline unit with
// MUL_W = 12 cannot show (its 12th input bit is a constant 0 there and Yosys removes it).
module mul_probe #(
  parameter int L = 8,
  parameter int W = 12
) (
  input  logic               clk,
  input  logic [L*W-1:0]     a, b,
  output logic [L*2*W-1:0]   p
);
  logic [L*W-1:0] ra, rb;
  always_ff @(posedge clk) begin
    ra <= a;
    rb <= b;
    for (int l = 0; l < L; l++) p[l*2*W +: 2*W] <= ra[l*W +: W] * rb[l*W +: W];
  end
endmodule
