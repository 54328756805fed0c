// mma_add_last: C added last (Hopper's and Blackwell's FP8 mma.sync, fda_unit's C_LAST): d = x + y in
// D's format fmt, one IEEE addition rounded to nearest even in it (mma_fp_add, the FADD/HADD2 after the
// two HMMAs), one adder per format of D that OUT_MASK's output kinds have, the one of fmt selected.
// Values sit in the low bits of x, y and d; d is 0 for a format OUT_MASK does not have.
module mma_add_last #(
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ
) (
  input  logic [mma_pkg::FMT_BITS-1:0] fmt,
  input  logic [31:0]                  x, y,
  output logic [31:0]                  d
);
  localparam int DF = mma_pkg::out_formats(OUT_MASK);
  logic [mma_pkg::NUM_FMTS*32-1:0] sums;               // format f's sum at [f*32 +: 32]
  genvar f;
  generate
    for (f = 0; f < mma_pkg::NUM_FMTS; f++) begin : g_fmt
      if (DF[f]) begin : g_add
        localparam int W = mma_pkg::fmt_width(f);
        logic [W-1:0] r;
        mma_fp_add #(.FMT(f), .OUT(mma_pkg::rne_out(f))) u_add (.x(x[W-1:0]), .y(y[W-1:0]), .d(r));
        assign sums[f*32 +: 32] = 32'(r);
      end else begin : g_none
        assign sums[f*32 +: 32] = '0;
      end
    end
  endgenerate
  always @* begin
    d = '0;
    for (int i = 0; i < mma_pkg::NUM_FMTS; i++)
      if (fmt == mma_pkg::FMT_BITS'(i)) d = sums[i*32 +: 32];
  end
endmodule
