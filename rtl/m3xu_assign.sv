// m3xu_assign: the M3XU data-assignment stage (the M3XU paper, Fig. 3(a) and (c); docs/m3xu.md), the
// multiplexers that give each of the L lanes its two multiplier operands for one step.  A and B are the
// unit's operand words, IW = L x 16 bits in every mode: L f16/bf16 values, L/2 f32 values (element i
// at [32i +: 32]), or L/4 f32c values (real part low, imaginary part high: element 2j is re_j, 2j+1 is
// im_j).  Each operand leaves as a buffer entry: sign, exponent and class (mma_pkg::fp_t) and a
// MUL_W-bit significand.
//   f16 / bf16: lane l takes the l-th 16-bit value, its significand (hidden one included, 10 fractional
//     bits) zero-filled to MUL_W bits.
//   f32: lanes 2i and 2i+1 work on product i; the significand splits into sig_H = sig >> 12 (with the
//     hidden one) and sig_L = sig & 0xFFF, sign and exponent wired to both.  A: lane 2i sig_H, lane
//     2i+1 sig_L.  B: step 0 the same (a_H b_H, a_L b_L), step 1 swapped between the two lanes
//     (a_H b_L, a_L b_H).  C: the f32 word.
//   f32c: steps 0-1 the real part, the f32 assignment of (ar0, -ai0, ar1, -ai1) with (br0, bi0, br1,
//     bi1) and C's real part (the sign of A's imaginary elements flipped); steps 2-3 the imaginary part,
//     (ar0, ai0, ar1, ai1) with B's real and imaginary parts swapped, (bi0, br0, bi1, br1), and C's
//     imaginary part.
// C leaves decoded as an f32 (fp_t and its 24-bit significand).
module m3xu_assign #(
  parameter int L       = 8,
  parameter int MUL_W   = 12,
  parameter int AB_MASK = (1 << mma_pkg::FMT_F16) | (1 << mma_pkg::FMT_BF16) | mma_pkg::M3XU_WIDE_FMTS,
  parameter int MUTANT  = 0,   // test only: 2 = FP32C's real part without the sign flip
  parameter int NARROW  = AB_MASK & ~mma_pkg::M3XU_WIDE_FMTS,    // the one-step formats
  parameter int NW      = mma_pkg::max_width(NARROW),        // 16: a lane's share of A and B
  parameter int IW      = L * NW,
  parameter int CW      = AB_MASK[mma_pkg::FMT_F32C] ? mma_pkg::fmt_width(mma_pkg::FMT_F32C) : mma_pkg::M3XU_PART_W
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt,    // the mode
  input  logic [1:0]                    step,   // [0]: which half of B (wide modes); [1]: f32c's imaginary part
  input  logic [IW-1:0]                 a, b,
  input  logic [CW-1:0]                 c,
  output logic [L*mma_pkg::FP_W-1:0]    ua, ub, // lane l at [l*FP_W +: FP_W]
  output logic [L*MUL_W-1:0]            sa, sb, // lane l at [l*MUL_W +: MUL_W]
  output mma_pkg::fp_t                  uc,
  output logic [mma_pkg::M3XU_PART_MW:0]    c_sig
);
  localparam int FP_W  = mma_pkg::FP_W;
  localparam int NMW   = mma_pkg::max_man_bits(NARROW);   // 10
  localparam int WMW   = mma_pkg::M3XU_PART_MW;               // 23
  localparam int HALF  = mma_pkg::M3XU_HALF;                  // 12
  localparam int PW    = mma_pkg::M3XU_PART_W;                // 32
  localparam int F32   = 1 << mma_pkg::M3XU_PART_FMT;
  localparam bit WIDE  = (AB_MASK & mma_pkg::M3XU_WIDE_FMTS) != 0;

  logic wide, cplx, b_swap, imag;
  assign wide   = mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32, fmt) || mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32C, fmt);
  assign cplx   = mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32C, fmt);
  assign b_swap = step[0];          // step 1 of a product: B's halves swapped between the lanes
  assign imag   = cplx && step[1];  // f32c steps 2-3

  // ---- C: an f32, the imaginary part's in f32c steps 2-3 ----
  logic [PW-1:0] c_word;
  assign c_word = imag ? PW'(c >> PW) : c[PW-1:0];
  mma_unpack #(.MASK(F32), .MW(WMW), .IW(PW)) u_c (
    .raw(c_word), .fmt(mma_pkg::FMT_BITS'(mma_pkg::M3XU_PART_FMT)), .u(uc), .sig(c_sig));

  genvar l;
  generate
    // ---- the f32 elements, each decoded once: element i of A and B ----
    logic [L/2*FP_W-1:0]  uaw, ubw;
    logic [L/2*(WMW+1)-1:0] gaw, gbw;
    if (WIDE) begin : g_wide
      for (l = 0; l < L / 2; l++) begin : g_elem
        mma_unpack #(.MASK(F32), .MW(WMW), .IW(PW)) u_a (
          .raw(a[l*PW +: PW]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::M3XU_PART_FMT)), .u(uaw[l*FP_W +: FP_W]),
          .sig(gaw[l*(WMW+1) +: WMW+1]));
        mma_unpack #(.MASK(F32), .MW(WMW), .IW(PW)) u_b (
          .raw(b[l*PW +: PW]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::M3XU_PART_FMT)), .u(ubw[l*FP_W +: FP_W]),
          .sig(gbw[l*(WMW+1) +: WMW+1]));
      end
    end else begin : g_no_wide
      assign uaw = '0;  assign ubw = '0;  assign gaw = '0;  assign gbw = '0;
      logic unused_wide;
      assign unused_wide = ^{imag, b_swap, wide, uaw, ubw, gaw, gbw};
    end

    for (l = 0; l < L; l++) begin : g_lane
      localparam int P = l / 2;        // the lane pair: f32 element P
      localparam bit ODD = l % 2 == 1; // the pair's low-half lane
      // the one-step formats: the l-th 16-bit value
      mma_pkg::fp_t una, unb;
      logic [NMW:0] gna, gnb;
      mma_unpack #(.MASK(NARROW), .MW(NMW), .IW(NW)) u_na (.raw(a[l*NW +: NW]), .fmt(fmt), .u(una), .sig(gna));
      mma_unpack #(.MASK(NARROW), .MW(NMW), .IW(NW)) u_nb (.raw(b[l*NW +: NW]), .fmt(fmt), .u(unb), .sig(gnb));
      if (WIDE) begin : g_assign
        // B's element: f32c's imaginary part swaps the real and imaginary parts (element P ^ 1)
        localparam int Q = P ^ 1;
        mma_pkg::fp_t ea, eb;
        logic [WMW:0] ga, gb;
        logic flip;
        assign ea = uaw[P*FP_W +: FP_W];
        assign ga = gaw[P*(WMW+1) +: WMW+1];
        assign eb = imag ? ubw[Q*FP_W +: FP_W] : ubw[P*FP_W +: FP_W];
        assign gb = imag ? gbw[Q*(WMW+1) +: WMW+1] : gbw[P*(WMW+1) +: WMW+1];
        // f32c's real part subtracts ai*bi: A's imaginary elements (odd P) enter negated
        assign flip = cplx && !imag && P % 2 == 1 && MUTANT != 2;
        always @* begin
          if (wide) begin
            ua[l*FP_W +: FP_W] = mma_pkg::fp_make(mma_pkg::fp_sign(ea) ^ flip, mma_pkg::fp_exp(ea),
                mma_pkg::fp_is_zero(ea), mma_pkg::fp_is_sub(ea), mma_pkg::fp_is_inf(ea), mma_pkg::fp_is_nan(ea));
            ub[l*FP_W +: FP_W] = eb;
            sa[l*MUL_W +: MUL_W] = MUL_W'(ODD ? ga[HALF-1:0] : ga[WMW:HALF]);
            sb[l*MUL_W +: MUL_W] = MUL_W'((ODD ^ b_swap) ? gb[HALF-1:0] : gb[WMW:HALF]);
          end else begin
            ua[l*FP_W +: FP_W] = una;
            ub[l*FP_W +: FP_W] = unb;
            sa[l*MUL_W +: MUL_W] = MUL_W'(gna);
            sb[l*MUL_W +: MUL_W] = MUL_W'(gnb);
          end
        end
      end else begin : g_narrow
        assign ua[l*FP_W +: FP_W] = una;
        assign ub[l*FP_W +: FP_W] = unb;
        assign sa[l*MUL_W +: MUL_W] = MUL_W'(gna);
        assign sb[l*MUL_W +: MUL_W] = MUL_W'(gnb);
      end
    end
  endgenerate
endmodule
