// tb_unpack: mma_unpack serving every format of the schema, for tb/tb_unpack.cpp to compare with the
// model's decoding (mmaref_format_to_double) value by value.
module tb_unpack (
  input  logic [63:0]                   raw,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt,
  output mma_pkg::fp_t                  u,
  output logic [MW:0]                   sig,
  output logic [7:0]                    mw     // fractional bits of sig
);
  localparam int MASK = (1 << mma_pkg::NUM_FMTS) - 1;
  localparam int MW   = mma_pkg::max_man_bits(MASK);
  assign mw = 8'(MW);
  mma_unpack #(.MASK(MASK), .MW(MW), .IW(64)) dut (.raw(raw), .fmt(fmt), .u(u), .sig(sig));
endmodule
