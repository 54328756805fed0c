// The last part of a unit cut for make prove (tests/prove/fdrda_cut_harness.sv, gdfs_cut_harness.sv):
// the exact sum * 2^lsb and the verdict of Step 1 rounded to D, rtl/'s mma_encode (SIDE 0; 2: a mutant
// rounding to the other of f32-RNE and f32-RZ) against the specification's spec_round (SIDE 1), on every
// input cut the part before allows:
//   where no special value decides D, the same sum (A's low RSW bits, the most negative number read as the
//   next) and lsb (L_LO + A's bits 64 up, past L_HI read as L_HI) on both sides;
//   where one does, each side its own free values of its own widths (rtl/'s from A, the specification's
//   from B);
//   rtl/'s flags {d_inf_neg, d_inf, d_nan} A's bits 96-98, the specification's {n_inf, p_inf, any_nan}
//   B's where they give the same verdict, else the verdict's own (NaN: any_nan alone).
// So A and B carry at least 102 bits; sum_cut_word writes the part before's output words.  The verdict (0 the sum, 1 NaN, 2 +inf, 3 -inf) of each side's
// flags is read as its own rounder reads them (cut_verdict_rtl, cut_verdict_spec).
`ifndef ROUND_CUT_SVH
`define ROUND_CUT_SVH
// the largest exponent field value minus the bias over a mask of formats (a cut's exponent range)
function automatic int cut_top_exp(input int mask);
  cut_top_exp = 0;
  for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
    if (mask[f] && (1 << mma_pkg::fmt_exp_bits(f)) - 1 - mma_pkg::fmt_bias(f) > cut_top_exp)
      cut_top_exp = (1 << mma_pkg::fmt_exp_bits(f)) - 1 - mma_pkg::fmt_bias(f);
endfunction
function automatic logic [1:0] cut_verdict_rtl(input logic nan, input logic inf, input logic inf_neg);
  cut_verdict_rtl = nan ? 2'd1 : !inf ? 2'd0 : inf_neg ? 2'd3 : 2'd2;
endfunction
function automatic logic [1:0] cut_verdict_spec(input logic nan, input logic p_inf, input logic n_inf);
  cut_verdict_spec = nan || (p_inf && n_inf) ? 2'd1 : p_inf ? 2'd2 : n_inf ? 2'd3 : 2'd0;
endfunction

/* verilator lint_off UNUSEDSIGNAL */  // the bits of A and B a side does not read
module round_cut #(
  parameter int SIDE = 0,                       // 0: rtl/, 1: the specification, 2: the mutant
  parameter int OUT  = mma_pkg::OUT_F32_RNE,    // f32-RNE or f32-RZ
  parameter int RSW  = 40,                      // rtl/'s sum width ...
  parameter int LW   = mma_pkg::EW + 2,         // ... and lsb width
  parameter int SSW  = 44,                      // the specification's
  parameter int SEW  = 16,
  parameter int L_LO = -300,                    // the lsb range the part before gives
  parameter int L_HI = 300
) (
  input  logic [101:0] a, b,
  output logic [31:0]  d
);
  localparam int LB    = $clog2(L_HI - L_LO + 1);
  localparam int OTHER = OUT == mma_pkg::OUT_F32_RZ ? mma_pkg::OUT_F32_RNE : mma_pkg::OUT_F32_RZ;
  localparam int KIND  = SIDE == 2 ? OTHER : OUT;
  logic [LB-1:0]         l_field;
  logic signed [RSW-1:0] s_in;
  logic signed [LW-1:0]  l_in;
  logic [2:0]            r, q, q_same;
  logic [1:0]            v;
  assign r       = a[96 +: 3];                               // {d_inf_neg, d_inf, d_nan}
  assign q       = b[96 +: 3];                               // {n_inf, p_inf, any_nan}
  assign v       = cut_verdict_rtl(r[0], r[1], r[2]);
  assign q_same  = cut_verdict_spec(q[0], q[1], q[2]) == v ? q : v == 2'd1 ? 3'b001 : v == 2'd2 ? 3'b010 :
                   v == 2'd3 ? 3'b100 : 3'b000;
  assign l_field = a[64 +: LB];
  assign l_in    = LW'(L_LO) + (l_field > LB'(L_HI - L_LO) ? LW'(L_HI - L_LO) : LW'(l_field));
  assign s_in    = a[RSW-1:0] == {1'b1, {(RSW-1){1'b0}}} ? {1'b1, {(RSW-2){1'b0}}, 1'b1} : a[RSW-1:0];
  generate
    if (SIDE != 1) begin : g_rtl
      mma_encode #(.SW(RSW), .LW(LW), .OUT_MASK(1 << KIND), .DW(32)) u_encode (
        .sum(v != 2'd0 ? a[RSW-1:0] : s_in), .lsb_exp(v != 2'd0 ? a[80 +: LW] : l_in),
        .out_kind(mma_pkg::OUT_BITS'(KIND)), .nan(r[0]), .inf(r[1]), .inf_neg(r[2]), .d(d));
    end else begin : g_spec
      spec_round #(.OUT_MASK(1 << OUT), .SW(SSW), .EW(SEW)) u_round (
        .out_kind(mma_pkg::OUT_BITS'(OUT)), .sum(v != 2'd0 ? b[SSW-1:0] : SSW'(s_in)),
        .lsb(v != 2'd0 ? b[64 +: SEW] : SEW'(l_in)), .any_nan(q_same[0]), .pos_inf(q_same[1]),
        .neg_inf(q_same[2]), .d(d));
    end
  endgenerate
endmodule
/* verilator lint_on UNUSEDSIGNAL */

// The output words of the part that gives round_cut its input (the exact sum): chosen by sel, the sum's
// low and high words and {range bit, verdict, lsb}; the sum and lsb read as 0 where the verdict is a
// special value (they do not matter there).
/* verilator lint_off DECLFILENAME */  // the two sides of the cut, in one header
module sum_cut_word #(
  parameter int SEW = 16
) (
  input  logic [1:0]            sel,
  input  logic [1:0]            verdict,            // 0 the sum, 1 NaN, 2 +inf, 3 -inf
  input  logic signed [63:0]    sum,
  input  logic signed [SEW-1:0] lsb,
  input  logic                  in_range,           // the range bit (1 on the specification's side)
  output logic [31:0]           word
);
  logic signed [63:0]    sum_cut;
  logic signed [SEW-1:0] lsb_cut;
  assign sum_cut = verdict != 2'd0 ? '0 : sum;
  assign lsb_cut = verdict != 2'd0 ? '0 : lsb;
  always @*
    case (sel)
      2'd0:    word = sum_cut[31:0];
      2'd1:    word = sum_cut[63:32];
      2'd2:    word = 32'({verdict != 2'd0 || in_range, verdict, lsb_cut});
      default: word = '0;
    endcase
endmodule
/* verilator lint_on DECLFILENAME */
`endif
