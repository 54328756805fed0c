// mma_encode: Step 5 of FDA and GDFS, the exact sum S * 2^lsb_exp to D: normalize (mma_normalize),
// round (mma_round), pack (mma_pack), for the output kind chosen by out_kind among OUT_MASK (f32 RZ,
// f32_e8m13 RZ, f16 RNE, ...: the model's output table), with mma_special's NaN/inf overriding.
// MUTANT: mma_normalize's (1 = the sticky bit dropped; the mutation check only).
module mma_encode #(
  parameter int SW       = 34,               // width of the signed sum
  parameter int LW       = mma_pkg::EW + 2,  // width of the signed lsb exponent
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int DW       = 32,
  parameter int MUTANT   = 0
) (
  input  logic signed [SW-1:0]          sum,
  input  logic signed [LW-1:0]          lsb_exp,  // weight of the sum's last bit: e_max - F
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic                          nan,
  input  logic                          inf,
  input  logic                          inf_neg,
  output logic [DW-1:0]                 d
);
  localparam int XE = LW + 2;
  localparam int KW = SW + mma_pkg::max_out_man(OUT_MASK) + 2;

  logic neg, guard, sticky;
  logic [KW-1:0] kept, kept_r;
  logic signed [XE-1:0] q, q_r;

  mma_normalize #(.SW(SW), .LW(LW), .OUT_MASK(OUT_MASK), .XE(XE), .KW(KW), .MUTANT(MUTANT)) u_normalize (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(out_kind),
    .neg(neg), .kept(kept), .q(q), .guard(guard), .sticky(sticky));
  mma_round #(.KW(KW), .XE(XE), .OUT_MASK(OUT_MASK)) u_round (
    .out_kind(out_kind), .neg(neg), .kept(kept), .q(q), .guard(guard), .sticky(sticky),
    .kept_r(kept_r), .q_r(q_r));
  mma_pack #(.KW(KW), .XE(XE), .OUT_MASK(OUT_MASK), .DW(DW)) u_pack (
    .out_kind(out_kind), .neg(neg), .kept(kept_r), .q(q_r), .nan(nan), .inf(inf), .inf_neg(inf_neg),
    .d(d));
endmodule
