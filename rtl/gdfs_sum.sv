// gdfs_sum: the fused sum of GDFS (docs/algorithms.md, GDFS Steps 1, 5-6): C and the K / G group terms
// of rtl/gdfs_group.sv aligned to e_max keeping F fractional bits (truncated) and summed exactly:
// sum * 2^lsb_exp; Step 1's verdict for mma_encode: NaN if a scale (any group's) or C is NaN, else an
// infinite C passes through (e2m1 products are finite).
module gdfs_sum #(
  parameter int NG = 4,                                     // groups
  parameter int G  = mma_pkg::GDFS_GROUP,
  parameter int F  = 35,
  parameter int XW = mma_pkg::gdfs_term_width(G, F),
  parameter int SW = mma_pkg::gdfs_sum_width(NG, G, F)
) (
  input  logic [31:0]                   c,              // f32
  input  logic [NG-1:0]                 s_nan,          // group g's scales: a NaN
  input  logic [NG-1:0]                 neg,            // group g's term: its sign ...
  input  logic [NG*mma_pkg::EW-1:0]     e,              // ... exponent ...
  input  logic [NG*XW-1:0]              x,              // ... and magnitude on the F grid
  output logic signed [SW-1:0]          sum,
  output logic signed [mma_pkg::EW+1:0] lsb_exp,
  output logic                          d_nan, d_inf, d_inf_neg
);
  localparam int EW = mma_pkg::EW;
  localparam int CF = mma_pkg::fmt_man_bits(mma_pkg::FMT_F32);

  // ---- C is term 0; Step 1 ----
  mma_pkg::fp_t uc;
  logic [CF:0] c_sig;
  mma_unpack #(.MASK(1 << mma_pkg::FMT_F32), .MW(CF), .IW(32)) u_c (
    .raw(c), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F32)), .u(uc), .sig(c_sig));
  // every group reads its own block's scales, so with block32 the unused slots never reach s_nan
  mma_special #(.N(2)) u_special (
    .nan({|s_nan, mma_pkg::fp_is_nan(uc)}), .inf({1'b0, mma_pkg::fp_is_inf(uc)}),
    .neg({1'b0, mma_pkg::fp_sign(uc)}),
    .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  // ---- Steps 5-6: align to e_max keeping F fractional bits, exact sum ----
  logic [XW-1:0] c_x;                     // C on the F grid (a shift kept out of the concatenation:
  assign c_x = XW'(c_sig) << (F - CF);    // Yosys 0.23 sizes a shift inside one too narrowly)
  mma_align_sum #(.N(NG + 1), .F(F), .XW(XW), .OW(XW), .EXTRA(0), .SW(SW), .SHW(EW + 1)) u_sum (
    .x({x, c_x}), .neg({neg, mma_pkg::fp_sign(uc)}), .exps({e, mma_pkg::fp_exp(uc)}),
    .sum(sum), .lsb_exp(lsb_exp));
endmodule
