// m3xu_contract: an M3XU design (rtl/m3xu_unit.sv) behind make verify's port contract, so that make prove
// can put two of them side by side (tests/prove/all.sh: pipelined against not, without FP32C against
// with, 11-bit multipliers against 12-bit ones) or one against the fda_unit serving the same FP16/BF16
// instruction.  The mode is fmt_a (the instruction's A format: f16, bf16, f32 or f32c); A and B are the
// unit's L x 16-bit operand registers, the contract's K lanes of the mode's width; C and D are PORT_W
// bits (the instruction's: 64 for f32c), the unit's CW bits zero-extended or cut to it.  No scales.
module m3xu_contract #(
  parameter int L       = 8,
  parameter int MUL_W   = 12,
  parameter int AB_MASK = (1 << mma_pkg::FMT_F16) | (1 << mma_pkg::FMT_BF16) | mma_pkg::M3XU_WIDE_FMTS,
  parameter int F_LO    = 24,
  parameter int F_HI    = 46,
  parameter int OUT_LO  = mma_pkg::OUT_F32_RZ,
  parameter int OUT_HI  = mma_pkg::OUT_F32_RNE,
  parameter int PIPE    = 0,
  parameter int MUTANT  = 0,
  parameter int PORT_W  = 32,
  parameter int IW      = L * mma_pkg::max_width(AB_MASK & ~mma_pkg::M3XU_WIDE_FMTS),
  parameter int CW      = AB_MASK[mma_pkg::FMT_F32C] ? mma_pkg::fmt_width(mma_pkg::FMT_F32C) : mma_pkg::M3XU_PART_W
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [PORT_W-1:0]             c,
  input  logic [IW-1:0]                 a, b,
  input  logic [7:0]                    sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [PORT_W-1:0]             d
);
  logic [CW-1:0] d_unit;
  logic          busy;
  m3xu_unit #(.L(L), .MUL_W(MUL_W), .AB_MASK(AB_MASK), .F_LO(F_LO), .F_HI(F_HI), .OUT_LO(OUT_LO),
              .OUT_HI(OUT_HI), .PIPE(PIPE), .MUTANT(MUTANT)) u (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .fmt(fmt_a), .c(CW'(c)), .a(a), .b(b),
    .out_valid(out_valid), .out_ready(out_ready), .d(d_unit), .busy(busy));
  assign d = PORT_W'(d_unit);
  // the contract's selects other than the mode, the scales, busy and D's bits past PORT_W are not used
  wire unused = &{1'b0, fmt_b, fmt_c, out_kind, sa, sb, busy, d_unit};
endmodule
