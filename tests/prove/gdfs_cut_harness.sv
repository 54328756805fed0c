// make prove's harness for GDFS (Blackwell's block-scaled FP4) cut in three, each part rtl/'s against
// the specification's (tests/prove/gdfs_spec_steps.svh) as gdfs_unit and gdfs_spec instantiate them:
// PART = 0 one group's term (rtl/gdfs_group.sv, gdfs_spec_group: G e2m1 products, their sum, the two
// scales), PART = 1 C and the K / G terms summed (rtl/gdfs_sum.sv, gdfs_spec_sum), PART = 2 the exact sum
// rounded to D (mma_encode, spec_round; tests/prove/round_cut.svh).  It wears make verify's port contract
// so that make prove's harness can drive it; SIDE 0 is rtl/, 1 the specification, 2 a mutant of rtl/'s
// part (PART 0: the term on a grid of F - 1 fractional bits; 1: the terms aligned with F - 1 bits; 2: D
// rounded to nearest even).  Each part's D is one 32-bit word of its output cut, chosen by two input bits
// the part does not read otherwise; its values read as 0 where a NaN decides D.
//   Cut 1, a group's term: nan (a scale of the two is NaN) and, where it is not, the sign, the exponent
//   e_sa + e_sb and the magnitude x on the grid of F fractional bits below 2^e.  PART 0 reads lanes 0 to
//   G - 1 of A and B and scale slot 0 of sa and sb; its words (C's low bits choose): x's low and high
//   words, {range bit, nan, sign, e}.
//   Cut 2, the exact sum: the verdict of Step 1 (0 the sum, 1 NaN, 2 +inf, 3 -inf, each side's flags read
//   as its rounder reads them) and sum * 2^lsb.  PART 1's words (sb[1:0] choose): the sum's low and high
//   words, {range bit, verdict, lsb}.
//   A range bit is 1 on the specification's side and, on rtl/'s, says that where the cut's values matter
//   they lie where the next part reads them: e in [E_LO, E_HI] (twice the smallest and the largest
//   exponent of SCALE_FMT, a zero scale at ZERO_EXP) and x's low F - GF bits 0 (x is gamma, of GF
//   fractional bits, on the grid of F), lsb in [L_LO, L_HI] (the smaller and larger of those and C's
//   exponents, less F), the sum not the most negative number of its width.
//   PART 1 reads group g's term from bits 64 g up of A: x = the low XW - (F - GF) bits shifted up by
//   F - GF (rtl/'s width, which the specification's holds), e = E_LO + the field at bit 48 (past E_HI
//   read as E_HI), the sign bit 60; the groups' nan bits from
//   sa[NG-1:0]; C the port c.  Where a nan bit is set, each side gets its own free values of its own
//   widths instead (rtl/'s from A: x, e at bit 48; the specification's from B: x, e at bit 50, 13 bits).
//   So a proof says the two parts agree on every input cut the part before allows, whatever values a NaN
//   makes irrelevant.  The sum and lsb compared come from a second instance of each side's part given
//   the same terms, no NaN bit and C made finite: equal to the first's wherever the verdict is the sum
//   (where it is not they are not compared), and, unlike the first's, equal on the two sides for every
//   input, so that the solver can pair the two sides' alignments and partial sums one by one (with C
//   infinite the two sides place its exponent differently, and nothing inside is equal unconditionally).
// gdfs_unit instantiates one rtl/gdfs_group a group, gdfs_spec one gdfs_spec_group: with the three parts
// proven, gdfs_unit equals gdfs_spec for every input where both give each group its lanes and its block's
// scales, which gdfs_spec's GDFS_CUT rows prove (with rtl/'s parts in the specification).  PART 1 needs
// A 64 bits a group and sa NG + 2 bits (an elaboration error otherwise).
`include "tests/prove/gdfs_spec_steps.svh"
`include "tests/prove/round_cut.svh"

/* verilator lint_off UNUSEDSIGNAL */  // the contract's inputs that a half does not read
/* verilator lint_off UNUSEDPARAM */   // BLOCK: the instruction's, read only for the scale slots' count
module gdfs_cut_harness #(
  parameter int SIDE      = 0,                           // 0: rtl/, 1: the specification, 2: a mutant
  parameter int PART      = 0,                           // 0: a group's term, 1: the sum, 2: the rounding
  parameter int K         = 64,
  parameter int G         = mma_pkg::GDFS_GROUP,
  parameter int F         = 35,
  parameter int BLOCK     = 16,
  parameter int SCALE_FMT = mma_pkg::FMT_UE8M0,
  parameter int AW        = 4,
  parameter int NSW       = K / BLOCK
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int NG   = K / G;
  localparam int EW   = mma_pkg::EW;                                  // rtl/'s exponents
  localparam int LW   = EW + 2;
  localparam int XW   = mma_pkg::gdfs_term_width(G, F);               // rtl/'s term ...
  localparam int RSW  = mma_pkg::gdfs_sum_width(NG, G, F);            // ... and sum
  localparam int SEW  = 16;                                           // the specification's
  localparam int TW   = gdfs_spec_term_width(G, F, SCALE_FMT);
  localparam int SSW  = gdfs_spec_sum_width(NG, TW);
  localparam int GF   = mma_pkg::GDFS_GAMMA_F;                        // rtl/'s grid of gamma
  localparam int GMW  = XW - (F - GF);                                // a term's bits above its zeros:
  localparam int SBIAS = mma_pkg::fmt_bias(SCALE_FMT);                // gamma on its own grid
  localparam int E_LO = 2 * (mma_pkg::ZERO_EXP < -SBIAS ? mma_pkg::ZERO_EXP : -SBIAS);
  localparam int E_HI = 2 * ((1 << mma_pkg::fmt_exp_bits(SCALE_FMT)) - 1 - SBIAS);
  localparam int EB   = $clog2(E_HI - E_LO + 1);
  localparam int C_LO = 1 - mma_pkg::fmt_bias(mma_pkg::FMT_F32);
  localparam int C_HI = (1 << mma_pkg::fmt_exp_bits(mma_pkg::FMT_F32)) - 2 - mma_pkg::fmt_bias(mma_pkg::FMT_F32);
  localparam int L_LO = (E_LO < C_LO ? E_LO : C_LO) - F;
  localparam int L_HI = (E_HI > C_HI ? E_HI : C_HI) - F;

  if (TW < XW || XW > 48 || EW > 12 || EB > 12) begin : g_widths
    $error("gdfs_cut_harness: a term does not fit its 64 bits of A, or the specification's x is narrower than rtl/'s");
  end
  if (PART == 1 && (K * AW < NG * 64 || NSW * 8 < NG + 2)) begin : g_too_narrow
    $error("gdfs_cut_harness: PART 1 reads 64 bits of A and B a group and NG + 2 bits of sa and sb");
  end

  logic [31:0] result;
  generate
    if (PART == 0) begin : g_group
      logic                  nan, neg, in_range;
      logic signed [SEW-1:0] e16;
      logic [63:0]           x64;
      if (SIDE != 1) begin : g_rtl
        localparam int FM  = SIDE == 2 ? F - 1 : F;                   // the mutant's grid
        localparam int XWM = mma_pkg::gdfs_term_width(G, FM);
        logic signed [EW-1:0] e;
        logic [XWM-1:0]       x;
        gdfs_group #(.G(G), .F(FM), .XW(XWM)) u_group (
          .fmt_s(mma_pkg::FMT_BITS'(SCALE_FMT)), .a(a[G*AW-1:0]), .b(b[G*AW-1:0]), .sa(sa[7:0]), .sb(sb[7:0]),
          .nan(nan), .neg(neg), .e(e), .x(x));
        assign e16      = SEW'(e);
        assign x64      = 64'(x);
        assign in_range = e >= EW'(E_LO) && e <= EW'(E_HI) && x[F-GF-1:0] == '0;
      end else begin : g_spec
        logic [TW-1:0] x;
        gdfs_spec_group #(.G(G), .FA(F), .SCALE_FMT(SCALE_FMT), .AW(AW), .EW(SEW), .TW(TW)) u_group (
          .a(a[G*AW-1:0]), .b(b[G*AW-1:0]), .sa(sa[7:0]), .sb(sb[7:0]), .nan(nan), .neg(neg), .e(e16), .x(x));
        assign x64      = 64'(x);
        assign in_range = 1'b1;
      end
      logic [63:0]           x_cut;
      logic signed [SEW-1:0] e_cut;
      assign x_cut = nan ? '0 : x64;
      assign e_cut = nan ? '0 : e16;
      always @*
        case (c[1:0])
          2'd0:    result = x_cut[31:0];
          2'd1:    result = x_cut[63:32];
          2'd2:    result = 32'({nan | in_range, nan, !nan & neg, e_cut});
          default: result = '0;
        endcase
    end else if (PART == 1) begin : g_sum
      // the cut PART 0 allows, the same on both sides where no nan bit is set
      logic [NG-1:0]         nan, neg;
      logic [NG*XW-1:0]      x_in;
      logic [NG*EW-1:0]      e_in;
      logic                  any_nan;
      logic [1:0]            verdict;
      logic signed [63:0]    sum64;
      logic signed [SEW-1:0] lsb16;
      logic                  ok;
      assign nan     = sa[NG-1:0];
      assign any_nan = nan != '0;
      always @*
        for (int g = 0; g < NG; g++) begin
          logic [EB-1:0] field;
          field              = a[g*64 + 48 +: EB];
          neg[g]             = a[g*64 + 60];
          x_in[g*XW +: XW]   = XW'(a[g*64 +: GMW]) << (F - GF);
          e_in[g*EW +: EW]   = EW'(E_LO) + (field > EB'(E_HI - E_LO) ? EW'(E_HI - E_LO) : EW'(field));
        end
      // the sum compared is a second instance's, with the same terms, no NaN scale and C finite (its
      // exponent field 255 read as 254): where the verdict is the sum, the first instance's too
      logic [31:0] c_fin;
      assign c_fin = c[30:23] == 8'hFF ? {c[31], 8'hFE, c[22:0]} : c;
      if (SIDE != 1) begin : g_rtl
        localparam int FM = SIDE == 2 ? F - 1 : F;                    // the mutant's alignment
        logic signed [RSW-1:0] sum, sum_unused;
        logic signed [LW-1:0]  lsb, lsb_unused;
        logic                  d_nan, d_inf, d_inf_neg, fin_nan, fin_inf, fin_inf_neg;
        logic [NG*EW-1:0]      e_free;
        logic [NG*XW-1:0]      x_free;
        always @*
          for (int g = 0; g < NG; g++) begin
            e_free[g*EW +: EW] = a[g*64 + 48 +: EW];
            x_free[g*XW +: XW] = a[g*64 +: XW];
          end
        gdfs_sum #(.NG(NG), .G(G), .F(FM), .XW(XW), .SW(RSW)) u_verdict (
          .c(c), .s_nan(nan), .neg(neg), .e(any_nan ? e_free : e_in), .x(any_nan ? x_free : x_in),
          .sum(sum_unused), .lsb_exp(lsb_unused), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));
        gdfs_sum #(.NG(NG), .G(G), .F(FM), .XW(XW), .SW(RSW)) u_sum (
          .c(c_fin), .s_nan('0), .neg(neg), .e(e_in), .x(x_in), .sum(sum), .lsb_exp(lsb),
          .d_nan(fin_nan), .d_inf(fin_inf), .d_inf_neg(fin_inf_neg));
        assign verdict = cut_verdict_rtl(d_nan, d_inf, d_inf_neg);
        assign sum64   = 64'(sum);
        assign lsb16   = SEW'(lsb);
        assign ok      = lsb >= LW'(L_LO) && lsb <= LW'(L_HI) && sum != {1'b1, {(RSW-1){1'b0}}};
      end else begin : g_spec
        logic signed [SSW-1:0] sum, sum_unused;
        logic signed [SEW-1:0] lsb, lsb_unused;
        logic                  s_nan, p_inf, n_inf, fin_nan, fin_p_inf, fin_n_inf;
        logic [NG*TW-1:0]      x_spec, x_same;
        logic [NG*SEW-1:0]     e_spec, e_same;
        always @*
          for (int g = 0; g < NG; g++) begin
            x_same[g*TW +: TW]   = TW'(x_in[g*XW +: XW]);
            e_same[g*SEW +: SEW] = SEW'($signed(e_in[g*EW +: EW]));
            x_spec[g*TW +: TW]   = any_nan ? b[g*64 +: TW] : x_same[g*TW +: TW];
            e_spec[g*SEW +: SEW] = any_nan ? SEW'($signed(b[g*64 + 50 +: 13])) : e_same[g*SEW +: SEW];
          end
        gdfs_spec_sum #(.NG(NG), .FA(F), .EW(SEW), .TW(TW), .SUMW(SSW)) u_verdict (
          .c(c), .nan(nan), .neg(neg), .e(e_spec), .x(x_spec), .sum(sum_unused), .lsb(lsb_unused),
          .any_nan(s_nan), .pos_inf(p_inf), .neg_inf(n_inf));
        gdfs_spec_sum #(.NG(NG), .FA(F), .EW(SEW), .TW(TW), .SUMW(SSW)) u_sum (
          .c(c_fin), .nan('0), .neg(neg), .e(e_same), .x(x_same), .sum(sum), .lsb(lsb),
          .any_nan(fin_nan), .pos_inf(fin_p_inf), .neg_inf(fin_n_inf));
        assign verdict = cut_verdict_spec(s_nan, p_inf, n_inf);
        assign sum64   = 64'(sum);
        assign lsb16   = lsb;
        assign ok      = 1'b1;
      end
      sum_cut_word #(.SEW(SEW)) u_word (.sel(sb[1:0]), .verdict(verdict), .sum(sum64), .lsb(lsb16), .in_range(ok),
                                        .word(result));
    end else begin : g_round
      // the cut PART 1 allows (tests/prove/round_cut.svh)
      round_cut #(.SIDE(SIDE), .OUT(mma_pkg::OUT_F32_RZ), .RSW(RSW), .LW(LW), .SSW(SSW), .SEW(SEW),
                  .L_LO(L_LO), .L_HI(L_HI)) u_round (.a(a[101:0]), .b(b[101:0]), .d(result));
    end
  endgenerate
  spec_hold u_hold (.clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .result(result),
                    .out_valid(out_valid), .out_ready(out_ready), .d(d));
endmodule
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
