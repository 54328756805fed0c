// Test fixture of tests/t_rtl_verify.sh: a unit without the contract's `d` port (make verify must say so).
module bad_no_d (
  input  logic          clk, rst_n, in_valid,
  output logic          in_ready,
  input  logic [3:0]    fmt_a, fmt_b, fmt_c,
  input  logic [2:0]    out_kind,
  input  logic [31:0]   c,
  input  logic [255:0]  a, b,
  input  logic [7:0]    sa, sb,
  output logic          out_valid,
  input  logic          out_ready
);
  assign in_ready = 1'b1;
  assign out_valid = 1'b0;
endmodule
