// mma_max_tree: e_max = max of N signed exponents as a balanced binary tree (heap layout: node i holds
// max(node 2i, node 2i+1); leaves N2..2*N2-1, the unused ones padded with the smallest value).
module mma_max_tree #(
  parameter int N = 8,
  parameter int W = mma_pkg::EW
) (
  input  logic [N*W-1:0]      x,
  output logic signed [W-1:0] y
);
  localparam int N2 = 1 << mma_pkg::clog2(N);
  logic signed [W-1:0] node [1:2*N2-1] /* verilator split_var */;
  genvar i;
  generate
    for (i = 0; i < N2; i++) begin : g_leaf
      if (i < N) begin : g_in
        assign node[N2+i] = x[i*W +: W];
      end else begin : g_pad
        assign node[N2+i] = {1'b1, {(W-1){1'b0}}};
      end
    end
    for (i = N2 - 1; i >= 1; i--) begin : g_node
      assign node[i] = node[2*i] > node[2*i+1] ? node[2*i] : node[2*i+1];
    end
  endgenerate
  assign y = node[1];
endmodule
