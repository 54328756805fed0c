// fda_datapath: one combinational FDA pass over KD products (docs/algorithms.md, FDA Steps 0-5): the
// block scales, one fda_term a product (Step 2), fda_sum (Steps 1, 3-4) and mma_encode (Step 5).
//   d = round(C + sum_k a_k b_k [* 2^(e_sa + e_sb)]), aligned to e_max keeping F fractional bits.
// Operand formats and the output kind are chosen at run time among those in the masks, as one Tensor
// Core datapath serves f16 and bf16 (or e4m3, e5m2, e3m2, e2m3, e2m1).
// MUTANT (the mutation check of make verify only, tests/verify/fda_mutants.sv; 0 in every unit): 1 the
// last product left out of e_max; 2 the sticky bit dropped from the round decision; 3 the block scales'
// exponent one short (the two UE8M0 biases taken off as 255 instead of 254).
module fda_datapath #(
  parameter int KD       = 8,                              // products per pass
  parameter int F        = 24,                             // fractional bits kept by the aligner
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,          // formats of A and B
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,          // formats of C
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,       // output kinds
  parameter int BLOCK    = 0,                              // UE8M0 block size, 0 = no block scales
  parameter int ZERO_EXP = 0,                              // a zero term's exponent in e_max (Hopper: -133);
                                                           // 0: each zero operand counts as -126
  parameter int AW       = mma_pkg::max_width(AB_MASK),    // lane width of A and B
  parameter int NSW      = BLOCK > 0 ? KD / BLOCK : 1,     // scale slots per pass
  parameter int MUTANT   = 0                               // test only (see above)
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_c,     // C enters in D's format (Volta's f16 C is widened)
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [KD*AW-1:0]              a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic [31:0]                   d
);
  localparam int EW     = mma_pkg::EW;
  localparam int CM     = C_MASK | mma_pkg::out_formats(OUT_MASK);  // C's formats, D's included
  localparam int TF     = mma_pkg::fda_grid_bits(AB_MASK, CM, F);  // common grid before truncation to F
  localparam int XW     = TF + 2;                           // every term is below 4 on that grid
  localparam int SW     = mma_pkg::fda_sum_width(KD, F);    // signed exact sum
  localparam int SM     = 1 << mma_pkg::FMT_UE8M0;

  // ---- block scales: exponents only (UE8M0), a NaN scale makes D NaN ----
  logic signed [EW-1:0] s_exp [NSW];
  logic [NSW-1:0] s_nan;
  genvar i;
  generate
    for (i = 0; i < NSW; i++) begin : g_scale
      if (BLOCK > 0) begin : g_on
        mma_pkg::fp_t usa, usb;
        logic [0:0] ga, gb;
        logic unused_scale;
        mma_unpack #(.MASK(SM), .MW(0), .IW(8)) u_sa (
          .raw(sa[i*8 +: 8]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_UE8M0)), .u(usa), .sig(ga));
        mma_unpack #(.MASK(SM), .MW(0), .IW(8)) u_sb (
          .raw(sb[i*8 +: 8]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_UE8M0)), .u(usb), .sig(gb));
        assign s_exp[i] = mma_pkg::fp_exp(usa) + mma_pkg::fp_exp(usb) - EW'(MUTANT == 3 ? 1 : 0);
        assign s_nan[i] = mma_pkg::fp_is_nan(usa) | mma_pkg::fp_is_nan(usb);
        assign unused_scale = ga ^ gb;  // a UE8M0 significand is 1
      end else begin : g_off
        logic unused_scales;
        assign unused_scales = ^{sa, sb};
        assign s_exp[i] = '0;
        assign s_nan[i] = 1'b0;
      end
    end
  endgenerate

  // ---- Step 2: exact unnormalized products (fda_term) ----
  logic [KD-1:0] p_nan, p_inf, p_neg;
  logic [KD*EW-1:0] p_exp;
  logic [KD*XW-1:0] p_x;
  generate
    for (i = 0; i < KD; i++) begin : g_lane
      fda_term #(.AB_MASK(AB_MASK), .TF(TF), .ZERO_EXP(ZERO_EXP), .AW(AW)) u_term (
        .fmt_a(fmt_a), .fmt_b(fmt_b), .a(a[i*AW +: AW]), .b(b[i*AW +: AW]),
        .s_exp(BLOCK > 0 ? s_exp[i / (BLOCK > 0 ? BLOCK : 1)] : EW'(0)),
        .nan(p_nan[i]), .inf(p_inf[i]), .neg(p_neg[i]), .exp(p_exp[i*EW +: EW]), .x(p_x[i*XW +: XW]));
    end
  endgenerate

  // ---- Steps 1, 3-4 (fda_sum): C, special values, e_max, alignment, exact sum ----
  logic signed [SW-1:0] sum;
  logic signed [EW+1:0] lsb_exp;
  logic d_nan, d_inf, d_inf_neg;
  fda_sum #(.KD(KD), .F(F), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK), .ZERO_EXP(ZERO_EXP),
            .MUTANT(MUTANT == 1 ? 1 : 0)) u_sum (
    .fmt_c(fmt_c), .out_kind(out_kind), .c(c), .p_nan(p_nan), .p_inf(p_inf), .p_neg(p_neg), .p_exp(p_exp),
    .p_x(p_x), .s_nan(|s_nan), .sum(sum), .lsb_exp(lsb_exp), .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  // ---- Step 5: normalize, round, pack ----
  mma_encode #(.SW(SW), .LW(EW + 2), .OUT_MASK(OUT_MASK), .DW(32), .MUTANT(MUTANT == 2 ? 1 : 0)) u_encode (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(out_kind),
    .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(d));
endmodule
