// fda_datapath: one combinational FDA pass over KD products (docs/algorithms.md, FDA Steps 0-5).
//   d = round(C + sum_k a_k b_k [* 2^(e_sa + e_sb)]), aligned to e_max keeping F fractional bits.
// Operand formats and the output kind are chosen at run time among those in the masks, as one Tensor
// Core datapath serves f16 and bf16 (or e4m3, e5m2, e3m2, e2m3, e2m1).
module fda_datapath #(
  parameter int KD       = 8,                              // products per pass
  parameter int F        = 24,                             // fractional bits kept by the aligner
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,          // formats of A and B
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,          // formats of C
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,       // output kinds
  parameter int BLOCK    = 0,                              // UE8M0 block size, 0 = no block scales
  parameter int AW       = mma_pkg::max_width(AB_MASK),    // lane width of A and B
  parameter int NS       = BLOCK > 0 ? KD / BLOCK : 0,     // scale pairs per pass
  parameter int NSW      = NS > 0 ? NS : 1
) (
  input  logic [3:0]       fmt_a,
  input  logic [3:0]       fmt_b,
  input  logic [3:0]       fmt_c,     // f32 or f16 (C enters in D's format, Volta's f16 C widened)
  input  logic [1:0]       out_kind,
  input  logic [31:0]      c,
  input  logic [KD*AW-1:0] a,
  input  logic [KD*AW-1:0] b,
  input  logic [NSW*8-1:0] sa,
  input  logic [NSW*8-1:0] sb,
  output logic [31:0]      d
);
  localparam bit D_F32  = OUT_MASK[mma_pkg::OUT_F32_RZ] || OUT_MASK[mma_pkg::OUT_F32_E8M13];
  localparam bit D_F16  = OUT_MASK[mma_pkg::OUT_F16_RNE];
  localparam int CM     = C_MASK | (D_F32 ? 1 << mma_pkg::FMT_F32 : 0) | (D_F16 ? 1 << mma_pkg::FMT_F16 : 0);
  localparam int MW     = mma_pkg::max_man_bits(AB_MASK);   // fractional bits of an operand significand
  localparam int PF     = 2 * MW;                  // ... of a product
  localparam int CF     = D_F32 ? 23 : 10;         // ... of C in D's format
  localparam int TF     = mma_pkg::imax(mma_pkg::imax(PF, CF), F);   // common grid before truncation to F
  localparam int XW     = TF + 2;                  // every term is below 4 on that grid
  localparam int OW     = F + 2;                   // aligned term
  localparam int SW     = F + 3 + mma_pkg::clog2(KD + 1);   // signed exact sum
  localparam int SHW    = mma_pkg::EW + 2;
  localparam int CW     = mma_pkg::clog2(CF + 2);

  // ---- C: unpack, widen an f16 C for an f32 D (a subnormal f16 becomes a normal f32) ----
  logic c_sign, c_sub, c_inf, c_nan;
  logic signed [mma_pkg::EW-1:0] c_exp0, c_exp;
  logic [CF:0] c_sig0, c_sig;
  logic [CW-1:0] c_lz;
  /* verilator lint_off PINCONNECTEMPTY */
  mma_unpack #(.MASK(CM), .MW(CF), .IW(32)) u_unpack_c (
    .raw(c), .fmt(fmt_c), .sign(c_sign), .exp(c_exp0), .sig(c_sig0),
    .is_zero(), .is_sub(c_sub), .is_inf(c_inf), .is_nan(c_nan));
  /* verilator lint_on PINCONNECTEMPTY */
  mma_lzc #(.W(CF + 1)) u_lzc_c (.x(c_sig0), .count(c_lz));
  always @* begin
    c_sig = c_sig0;
    c_exp = c_exp0;
    if (D_F32 && CM[mma_pkg::FMT_F16] && fmt_c == 4'(mma_pkg::FMT_F16) && out_kind != 2'(mma_pkg::OUT_F16_RNE) && c_sub) begin
      c_sig = c_sig0 << c_lz;
      c_exp = c_exp0 - mma_pkg::EW'(c_lz);
    end
  end

  // ---- block scales: exponents only (UE8M0), a NaN scale makes D NaN ----
  logic signed [mma_pkg::EW-1:0] s_exp [NSW];
  logic [NSW-1:0] s_nan;
  genvar i;
  generate
    for (i = 0; i < NSW; i++) begin : g_scale
      if (NS > 0) begin : g_on
        logic signed [mma_pkg::EW-1:0] ea, eb;
        logic na, nb;
        /* verilator lint_off PINCONNECTEMPTY */
        mma_unpack #(.MASK(1 << mma_pkg::FMT_UE8M0), .MW(0), .IW(8)) u_sa (
          .raw(sa[i*8 +: 8]), .fmt(4'(mma_pkg::FMT_UE8M0)), .sign(), .exp(ea), .sig(),
          .is_zero(), .is_sub(), .is_inf(), .is_nan(na));
        mma_unpack #(.MASK(1 << mma_pkg::FMT_UE8M0), .MW(0), .IW(8)) u_sb (
          .raw(sb[i*8 +: 8]), .fmt(4'(mma_pkg::FMT_UE8M0)), .sign(), .exp(eb), .sig(),
          .is_zero(), .is_sub(), .is_inf(), .is_nan(nb));
        /* verilator lint_on PINCONNECTEMPTY */
        assign s_exp[i] = ea + eb;
        assign s_nan[i] = na | nb;
      end else begin : g_off
        logic unused_scales;
        assign unused_scales = ^{sa, sb};
        assign s_exp[i] = '0;
        assign s_nan[i] = 1'b0;
      end
    end
  endgenerate

  // ---- Step 2: exact unnormalized products ----
  logic [KD-1:0] p_nan, p_inf, p_neg;
  logic [(KD+1)*mma_pkg::EW-1:0] exps;          // C and the products, for the e_max tree
  logic [XW-1:0] p_x [KD];
  generate
    for (i = 0; i < KD; i++) begin : g_lane
      logic sa_, sb_, za, zb, ia, ib, na, nb;
      logic signed [mma_pkg::EW-1:0] ea, eb;
      logic [MW:0] ga, gb;
      /* verilator lint_off PINCONNECTEMPTY */
      mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_a (
        .raw(a[i*AW +: AW]), .fmt(fmt_a), .sign(sa_), .exp(ea), .sig(ga),
        .is_zero(za), .is_sub(), .is_inf(ia), .is_nan(na));
      mma_unpack #(.MASK(AB_MASK), .MW(MW), .IW(AW)) u_b (
        .raw(b[i*AW +: AW]), .fmt(fmt_b), .sign(sb_), .exp(eb), .sig(gb),
        .is_zero(zb), .is_sub(), .is_inf(ib), .is_nan(nb));
      /* verilator lint_on PINCONNECTEMPTY */
      assign p_nan[i] = na | nb | (ia & zb) | (za & ib);
      assign p_inf[i] = (ia | ib) & ~p_nan[i];
      assign p_neg[i] = sa_ ^ sb_;
      assign exps[(i+1)*mma_pkg::EW +: mma_pkg::EW] = ea + eb + (NS > 0 ? s_exp[i / (BLOCK > 0 ? BLOCK : 1)] : mma_pkg::EW'(0));
      assign p_x[i] = XW'(ga * gb) << (TF - PF);
    end
  endgenerate
  assign exps[0 +: mma_pkg::EW] = c_exp;

  // ---- Step 1: special values ----
  logic d_nan, d_inf, d_inf_neg;
  mma_special #(.N(KD + 2)) u_special (
    .nan({|s_nan, p_nan, c_nan}), .inf({1'b0, p_inf, c_inf}), .neg({1'b0, p_neg, c_sign}),
    .d_nan(d_nan), .d_inf(d_inf), .d_inf_neg(d_inf_neg));

  // ---- Step 3: e_max and alignment (truncation toward zero) ----
  logic signed [mma_pkg::EW-1:0] e_max;
  mma_max_tree #(.N(KD + 1), .W(mma_pkg::EW)) u_emax (.x(exps), .y(e_max));

  logic signed [SW-1:0] term [KD+1];
  generate
    for (i = 0; i <= KD; i++) begin : g_align
      logic [XW-1:0] x;
      logic [OW-1:0] y;
      logic signed [mma_pkg::EW-1:0] e;
      logic [SHW-1:0] sh;
      logic s;
      if (i == 0) begin : g_c
        assign x = XW'(c_sig) << (TF - CF);
        assign s = c_sign;
      end else begin : g_p
        assign x = p_x[i-1];
        assign s = p_neg[i-1];
      end
      assign e  = exps[i*mma_pkg::EW +: mma_pkg::EW];
      assign sh = SHW'(SHW'(e_max) - SHW'(e)) + SHW'(TF - F);
      mma_align #(.XW(XW), .OW(OW), .SHW(SHW)) u_align (.x(x), .sh(sh), .y(y));
      assign term[i] = s ? -(SW'(y)) : SW'(y);
    end
  endgenerate

  // ---- Step 4: exact sum ----
  logic signed [SW-1:0] sum;
  always @* begin
    sum = '0;
    for (int k = 0; k <= KD; k++) sum = sum + term[k];
  end

  // ---- Step 5: normalize and round ----
  logic signed [mma_pkg::EW+1:0] lsb_exp;
  assign lsb_exp = (mma_pkg::EW+2)'(e_max) - (mma_pkg::EW+2)'(F);
  mma_round #(.SW(SW), .LW(mma_pkg::EW + 2), .OUT_MASK(OUT_MASK)) u_round (
    .sum(sum), .lsb_exp(lsb_exp), .out_kind(out_kind),
    .nan(d_nan), .inf(d_inf), .inf_neg(d_inf_neg), .d(d));
endmodule
