// fda_sum: an FDA pass from its products on (docs/algorithms.md, FDA Steps 1, 3 and 4): C unpacked as
// term 0 (an f16 C of an f32 D widened: a subnormal f16 becomes a normal f32), Step 1's NaN and infinity
// over C, the products and the block scales, and e_max, the alignment (truncation toward zero to F
// fractional bits below 2^e_max) and the exact sum of C and the KD products (mma_align_sum).  Each
// product comes from fda_term: its sign, exponent and magnitude on the grid of TF fractional bits.
// MUTANT = 1 (the mutation check of make verify only): the last product left out of e_max.
module fda_sum #(
  parameter int KD       = 8,                              // products per pass
  parameter int F        = 24,                             // fractional bits kept by the aligner
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,          // formats of A and B
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,          // formats of C
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,       // output kinds
  parameter int ZERO_EXP = 0,                              // a zero C's exponent in e_max (0: its own)
  parameter int CM       = C_MASK | mma_pkg::out_formats(OUT_MASK),  // C's formats, D's included
  parameter int CF       = mma_pkg::max_man_bits(CM),      // fractional bits of C's significand
  parameter int TF       = mma_pkg::fda_grid_bits(AB_MASK, CM, F),
  parameter int XW       = TF + 2,                         // a term's width on the grid (below 4)
  parameter int SW       = mma_pkg::fda_sum_width(KD, F),  // signed exact sum
  parameter int MUTANT   = 0                               // test only (see above)
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_c,             // C enters in D's format (Volta's f16 C is widened)
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [KD-1:0]                 p_nan, p_inf, p_neg,  // the products (fda_term)
  input  logic [KD*mma_pkg::EW-1:0]     p_exp,
  input  logic [KD*XW-1:0]              p_x,
  input  logic                          s_nan,             // a block scale is NaN
  output logic signed [SW-1:0]          sum,
  output logic signed [mma_pkg::EW+1:0] lsb_exp,
  output logic                          d_nan, d_inf, d_inf_neg
);
  localparam int EW = mma_pkg::EW;
  localparam int CW = mma_pkg::clog2(CF + 2);

  // ---- C: unpack; an f16 C of an f32 D is widened (a subnormal f16 becomes a normal f32) ----
  mma_pkg::fp_t uc;
  logic signed [EW-1:0] c_exp;
  logic [CF:0] c_sig0, c_sig;
  logic [CW-1:0] c_lz;
  mma_unpack #(.MASK(CM), .MW(CF), .IW(32)) u_unpack_c (.raw(c), .fmt(fmt_c), .u(uc), .sig(c_sig0));
  mma_lzc #(.W(CF + 1)) u_lzc_c (.x(c_sig0), .count(c_lz));
  always @* begin
    c_sig = c_sig0;
    c_exp = mma_pkg::fp_exp(uc);
    if (mma_pkg::popcount(CM) > 1 && fmt_c != mma_pkg::out_fmt_of(OUT_MASK, out_kind)
        && mma_pkg::fp_is_sub(uc)) begin
      c_sig = c_sig0 << c_lz;
      c_exp = mma_pkg::fp_exp(uc) - EW'(c_lz);
    end
  end

  // ---- Step 1: special values ----
  mma_special #(.N(KD + 2)) u_special (
    .nan({s_nan, p_nan, mma_pkg::fp_is_nan(uc)}), .inf({1'b0, p_inf, mma_pkg::fp_is_inf(uc)}),
    .neg({1'b0, p_neg, mma_pkg::fp_sign(uc)}),
    .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  // ---- Steps 3-4: e_max, alignment (truncation toward zero), exact sum; C is term 0 ----
  logic [EW-1:0] c_term_exp;
  logic [XW-1:0] c_x;
  assign c_term_exp = ZERO_EXP != 0 && mma_pkg::fp_is_zero(uc) ? EW'(ZERO_EXP) : c_exp;
  assign c_x = XW'(c_sig) << (TF - CF);
  mma_align_sum #(.N(KD + 1), .F(F), .XW(XW), .OW(F + 2), .EXTRA(TF - F), .SW(SW),
                  .MUTANT(MUTANT == 1 ? 1 : 0)) u_sum (
    .x({p_x, c_x}), .neg({p_neg, mma_pkg::fp_sign(uc)}), .exps({p_exp, c_term_exp}), .sum(sum), .lsb_exp(lsb_exp));
endmodule
