// fdrda_add_c: C added to the dot sum of rtl/fdrda_dot.sv in one FDRDA or GFDRDA pass (docs/algorithms.md,
// AMD: FDRDA Steps 1, 3, 6 and 7, GFDRDA Steps 1, 3, 8 and 9): the special values and the exact sum that
// fdrda_datapath rounds to D (mma_encode).
//   Steps 1, 3: NaN if C or a product is NaN or +inf and -inf both occur (C's and the products'
//     infinities); else the one infinity present; only then an overflowed product's infinity.
//   Step 6: e_max = max(e_dot, e_c); the dot sum re-aligned to e_max keeping DOT_F = 31 fractional bits,
//     C keeping C_F = 24, both rounded by the table's align_products / align_c (RD on the hardware);
//     GFDRDA: a C below e_max - 25 is dropped (rounded toward zero, it is 0).
//   Step 7: the exact sum, in units of 2^(e_max - 31).
module fdrda_add_c #(
  parameter int ALGO      = mma_pkg::ALGO_FDRDA,              // ALGO_FDRDA or ALGO_GFDRDA
  parameter int F         = 24,                               // fractional bits of s_dot below 2^e_dot
  parameter int DSW       = 32,                               // width of s_dot (mma_pkg::fdrda_dot_width)
  parameter int ALIGN_DOT = mma_pkg::ROUND_RD,                // Step 6 rounding of the dot sum
  parameter int ALIGN_C   = mma_pkg::ROUND_RD,                // Step 6 rounding of C
  parameter int SW        = 40                                // width of the sum (mma_pkg::fdrda_sum_width)
) (
  input  logic [31:0]                   c,      // f32
  input  logic signed [DSW-1:0]         s_dot,
  input  logic signed [mma_pkg::EW+1:0] e_dot,
  input  logic                          nan, pos_inf, neg_inf,  // the products' (fdrda_dot)
  input  logic                          pos_ovf, neg_ovf,
  output logic signed [SW-1:0]          sum,      // D = sum * 2^lsb_exp, unless d_nan or d_inf
  output logic signed [mma_pkg::EW+1:0] lsb_exp,
  output logic                          d_nan, d_inf, d_inf_neg
);
  localparam int EW       = mma_pkg::EW;
  localparam int LW       = EW + 2;                           // exponent arithmetic
  // the model's per-kind constants (cmodel/src/kind_consts.h, through rtl/mma_formats.svh)
  localparam int DOT_F    = mma_pkg::FDRDA_DOT_F;             // Step 6: the dot sum keeps 31 bits ...
  localparam int C_F      = mma_pkg::FDRDA_C_F;               // ... and C 24, below 2^e_max
  localparam int C_WINDOW = mma_pkg::GFDRDA_C_WINDOW;         // GFDRDA Step 8: C dropped below e_max - 25
  localparam int CF       = mma_pkg::fmt_man_bits(mma_pkg::FMT_F32);
  localparam bit GROUPED  = ALGO == mma_pkg::ALGO_GFDRDA;
  localparam int TW       = DSW - 1 + DOT_F - F;              // dot sum magnitude on the 31-bit grid
  localparam int CW       = CF + 1 + C_F - CF;                // C's magnitude on the 24-bit grid

  // ---- C ----
  mma_pkg::fp_t uc;
  logic [CF:0] c_sig;
  mma_unpack #(.MASK(1 << mma_pkg::FMT_F32), .MW(CF), .IW(32)) u_c (
    .raw(c), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_F32)), .u(uc), .sig(c_sig));

  // ---- Steps 1 and 3: special values (an infinity of Step 1 wins over a product's overflow) ----
  logic nan1, inf1, neg1, nan3, inf3, neg3;
  mma_special #(.N(3)) u_special_inputs (  // C, the products' +inf, their -inf
    .nan({nan, 1'b0, mma_pkg::fp_is_nan(uc)}), .inf({neg_inf, pos_inf, mma_pkg::fp_is_inf(uc)}),
    .neg({2'b10, mma_pkg::fp_sign(uc)}), .d_nan(nan1), .d_inf(inf1), .d_inf_neg(neg1));
  mma_special #(.N(2)) u_special_products (
    .nan('0), .inf({neg_ovf, pos_ovf}), .neg(2'b10), .d_nan(nan3), .d_inf(inf3), .d_inf_neg(neg3));
  assign d_nan     = nan1 || (!inf1 && nan3);
  assign d_inf     = inf1 || inf3;
  assign d_inf_neg = inf1 ? neg1 : neg3;

  // ---- Step 6: the dot sum and C onto e_max = max(e_dot, e_c), rounded down ----
  logic signed [LW-1:0] e_c, e_max;
  logic dot_neg, c_drop;
  logic [TW-1:0] t_dot;
  logic [CW-1:0] t_c;
  logic [DSW-2:0] dot_mag;
  assign e_c     = LW'(mma_pkg::fp_exp(uc));
  assign e_max   = e_dot > e_c ? e_dot : e_c;
  assign dot_neg = s_dot[DSW-1];
  assign dot_mag = (DSW-1)'(dot_neg ? -s_dot : s_dot);
  mma_align #(.XW(TW), .OW(TW), .SHW(LW), .ROUND(ALIGN_DOT)) u_align_dot (
    .x(TW'(dot_mag) << (DOT_F - F)), .neg(dot_neg), .sh(e_max - e_dot), .y(t_dot));
  mma_align #(.XW(CW), .OW(CW), .SHW(LW), .ROUND(ALIGN_C)) u_align_c (
    .x(CW'(c_sig) << (C_F - CF)), .neg(mma_pkg::fp_sign(uc)), .sh(e_max - e_c), .y(t_c));
  assign c_drop = GROUPED && e_c < e_max - LW'(C_WINDOW);

  // ---- Step 7: exact sum in units of 2^(e_max - 31) ----
  logic signed [SW-1:0] c_term;
  assign c_term  = c_drop ? '0 : SW'(t_c) << (DOT_F - C_F);
  assign sum     = (dot_neg ? -(SW'(t_dot)) : SW'(t_dot)) + (mma_pkg::fp_sign(uc) ? -c_term : c_term);
  assign lsb_exp = e_max - LW'(DOT_F);
endmodule
