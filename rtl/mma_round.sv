// mma_round: Step 5, second part.  The round decision of D's output kind (mma_pkg::round_up: RZ, RD or
// RNE from the model's output table) adds one unit in the last place; a carry out of D's mantissa moves
// the leading one up (kept shifts right, q grows by one).
module mma_round #(
  parameter int KW       = 61,
  parameter int XE       = mma_pkg::EW + 4,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ
) (
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic                          neg,
  input  logic [KW-1:0]                 kept,
  input  logic signed [XE-1:0]          q,
  input  logic                          guard,
  input  logic                          sticky,
  output logic [KW-1:0]                 kept_r,
  output logic signed [XE-1:0]          q_r
);
  localparam int FIRST = mma_pkg::first_set(OUT_MASK);
  localparam int KI    = mma_pkg::clog2(KW);

  always @* begin
    logic up;
    logic [KI-1:0] carry;  // the bit above D's mantissa and hidden one
    up = 1'b0; carry = '0;
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && (o == FIRST || out_kind == mma_pkg::OUT_BITS'(o))) begin
        up = mma_pkg::round_up(mma_pkg::out_rounding(o), neg, kept[0], guard, sticky);
        carry = KI'(mma_pkg::out_man_bits(o) + 1);
      end
    kept_r = kept + KW'(up);
    q_r = q;
    if (kept_r[carry]) begin
      kept_r = kept_r >> 1;
      q_r = q + 1;
    end
  end
endmodule
