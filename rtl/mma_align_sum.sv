// mma_align_sum: Steps 3-4 of FDA (Steps 5-6 of GDFS).  N terms, each a magnitude x on a common grid
// of F + EXTRA fractional bits below 2^e, its sign and its exponent e: e_max is the largest exponent
// (mma_max_tree); each term is shifted right by e_max - e + EXTRA and truncated (mma_align: toward
// zero, keeping F fractional bits below 2^e_max), and the signed terms are summed exactly in SW bits.
// lsb_exp = e_max - F is the weight of the sum's last bit.  ROUND and JAM choose mma_align's rounding
// (truncation by default; JAM: an IEEE adder's sticky bit).  MUTANT = 1 (the mutation check of make
// verify only, tests/verify/fda_mutants.sv): the last term is left out of e_max.
module mma_align_sum #(
  parameter int N     = 9,
  parameter int F     = 24,
  parameter int XW    = 27,               // term width on the common grid
  parameter int OW    = XW,               // aligned term width (F + integer bits)
  parameter int EXTRA = 0,                // fractional bits of the grid beyond F
  parameter int SW    = OW + 1 + mma_pkg::clog2(N),
  parameter int SHW   = mma_pkg::EW + 2,  // shift-amount width
  parameter int ROUND = mma_pkg::ROUND_RZ,
  parameter int JAM   = 0,
  parameter int MUTANT = 0                // test only (see above)
) (
  input  logic [N*XW-1:0]                   x,
  input  logic [N-1:0]                      neg,
  input  logic [N*mma_pkg::EW-1:0]          exps,
  output logic signed [SW-1:0]              sum,
  output logic signed [mma_pkg::EW+1:0]     lsb_exp
);
  localparam int EW = mma_pkg::EW;

  localparam int NE = MUTANT == 1 ? N - 1 : N;  // the terms e_max is taken over (the mutant: all but the last)
  logic signed [EW-1:0] e_max;
  mma_max_tree #(.N(NE), .W(EW)) u_emax (.x(exps[NE*EW-1:0]), .y(e_max));
  assign lsb_exp = (EW+2)'(e_max) - (EW+2)'(F);

  logic signed [SW-1:0] term [N];
  genvar i;
  generate
    for (i = 0; i < N; i++) begin : g_term
      logic signed [EW-1:0] e;
      logic [OW-1:0] y;
      logic [SHW-1:0] sh;
      assign e  = exps[i*EW +: EW];
      assign sh = SHW'(SHW'(e_max) - SHW'(e)) + SHW'(EXTRA);
      mma_align #(.XW(XW), .OW(OW), .SHW(SHW), .ROUND(ROUND), .JAM(JAM)) u_align (
        .x(x[i*XW +: XW]), .neg(neg[i]), .sh(sh), .y(y));
      assign term[i] = neg[i] ? -(SW'(y)) : SW'(y);
    end
  endgenerate

  always @* begin
    sum = '0;
    for (int k = 0; k < N; k++) sum = sum + term[k];
  end
endmodule
