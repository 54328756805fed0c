// Test fixture of tests/t_rtl_verify.sh: a unit whose A and B ports hold 8 f16 lanes where the
// instruction has K = 16 (make verify must report the port of the wrong width).
module bad_width (
  input  logic          clk, rst_n, in_valid,
  output logic          in_ready,
  input  logic [3:0]    fmt_a, fmt_b, fmt_c,
  input  logic [2:0]    out_kind,
  input  logic [31:0]   c,
  input  logic [127:0]  a, b,
  input  logic [7:0]    sa, sb,
  output logic          out_valid,
  input  logic          out_ready,
  output logic [31:0]   d
);
  assign in_ready = 1'b1;
  assign out_valid = 1'b0;
  assign d = c;
endmodule
