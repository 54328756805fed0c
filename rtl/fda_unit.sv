// fda_unit: fused dot-add of K products with a valid/ready handshake (docs/algorithms.md, FDA/CoFDA).
// CHAIN = 1: one K-wide pass per vector, result one cycle after the handshake.
// CHAIN = 2 (CoFDA, Ampere/Ada): two passes through one K/2-wide datapath, as the hardware does: pass 1
// takes C and the first half of K and rounds to D's format; pass 2 takes that as its C with the second
// half.  One vector every two cycles.  (CHAIN > 2 chains the same way through K/CHAIN lanes.)  mma_chain
// sequences the passes and holds the later passes' lanes, block scales and run-time selections.
// Hopper and Blackwell mma.sync FP8 (K_RUN = 2, AB_F16 = 1, C_LAST = 1, CHAIN = 2): the products are
// dealt to the passes in runs of K_RUN (pass 0 takes k mod 4 in {0, 1}, pass 1 k mod 4 in {2, 3}: the
// first and last two bytes of each 32-bit register), every A and B operand is converted exactly to f16
// in front of the datapath (mma_to_f16), the passes start from +0, and C is added last (mma_add_last, one
// IEEE addition rounded to nearest even in D's format: the FADD/HADD2 after the two HMMAs).
// Operand formats and the output kind are run-time inputs among those the masks allow (mma_pkg codes);
// F, K, the chaining and the UE8M0 block size are what the hardware fixes.  MUTANT is fda_datapath's
// (test only: 0 in every unit; the mutation check of make verify, tests/verify/fda_mutants.sv).
module fda_unit #(
  parameter int K        = 16,
  parameter int F        = 25,
  parameter int CHAIN    = 1,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK    = 0,
  parameter int ZERO_EXP = 0,                           // fda_datapath's: a zero term's exponent (Hopper -133)
  parameter int K_RUN    = 0,                           // 0: pass p takes the p-th K/CHAIN products;
                                                        // else runs of K_RUN dealt to the passes in turn
  parameter int AB_F16   = 0,                           // 1: A and B converted exactly to f16 first
  parameter int C_LAST   = 0,                           // 1: passes from +0, C added last (IEEE, RNE)
  parameter int AW       = mma_pkg::max_width(AB_MASK),
  parameter int NSW      = BLOCK > 0 ? K / BLOCK : 1,
  parameter int MUTANT   = 0
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
  localparam int KD  = K / CHAIN;                       // products per pass
  localparam int SDW = mma_pkg::imax(BLOCK > 0 ? KD / BLOCK : 1, 1) * 8;  // scale bits per pass, of A or B
  localparam int FB  = mma_pkg::FMT_BITS;
  localparam int OB  = mma_pkg::OUT_BITS;
  localparam int DAB = AB_F16 != 0 ? 1 << mma_pkg::FMT_F16 : AB_MASK;   // the datapath's A and B formats
  localparam int DAW = mma_pkg::max_width(DAB);

  logic [31:0]        dp_d, dp_c, chain_d;
  logic [FB-1:0]      dp_fmt_c, dp_fmt_a, dp_fmt_b;
  logic [2*FB+OB-1:0] dp_ctl;                           // {out_kind, fmt_b, fmt_a}
  logic [KD*AW-1:0]   dp_a, dp_b;
  logic [KD*DAW-1:0]  dp_a16, dp_b16;                   // the datapath's lanes (f16 when AB_F16)
  logic [2*SDW-1:0]   dp_s;                             // {sb, sa}
  logic [CHAIN*2*SDW-1:0] s;                            // pass p's {sb, sa} (pass 0's only when BLOCK = 0)
  logic [K*AW-1:0]    pa, pb;                           // A and B, pass p's lanes at [p*KD*AW +: KD*AW]
  logic               dp_later;
  genvar p, j;
  generate
    for (p = 0; p < CHAIN; p++) begin : g_pass
      assign s[p*2*SDW +: 2*SDW] = {SDW'(sb >> (p * SDW)), SDW'(sa >> (p * SDW))};
      // lane j of pass p is product k (mmaref_pass_k): contiguous, or run j / K_RUN of pass p's runs
      for (j = 0; j < KD; j++) begin : g_lane
        localparam int KK = K_RUN > 0 ? p * K_RUN + j / K_RUN * K_RUN * CHAIN + j % K_RUN : p * KD + j;
        assign pa[(p*KD+j)*AW +: AW] = a[KK*AW +: AW];
        assign pb[(p*KD+j)*AW +: AW] = b[KK*AW +: AW];
      end
    end
  endgenerate

  // Pass 0 runs from the ports; each pass's result is the next one's C.  C_LAST: pass 0 starts from +0.
  mma_chain #(.PASSES(CHAIN), .DW(32), .KD(KD), .AW(AW), .SW(2 * SDW), .CTW(2 * FB + OB)) u_chain (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .c(C_LAST != 0 ? 32'd0 : c), .a(pa),
    .b(pb), .s(s), .ctl({out_kind, fmt_b, fmt_a}), .dp_c(dp_c), .dp_a(dp_a), .dp_b(dp_b), .dp_s(dp_s),
    .dp_ctl(dp_ctl), .dp_later(dp_later), .dp_d(dp_d), .out_valid(out_valid), .out_ready(out_ready),
    .d(chain_d));
  // a later pass's C is the previous pass's D, in D's format (f16 for an f16 D, else f32)
  assign dp_fmt_c = dp_later ? mma_pkg::out_fmt_of(OUT_MASK, dp_ctl[2*FB +: OB]) : fmt_c;

  // AB_F16: the lanes of the pass that runs are converted to f16 (the datapath then serves f16 alone)
  generate
    if (AB_F16 != 0) begin : g_f16
      for (j = 0; j < KD; j++) begin : g_lane
        mma_to_f16 #(.MASK(AB_MASK), .IW(AW)) u_a (.raw(dp_a[j*AW +: AW]), .fmt(dp_ctl[0 +: FB]),
                                                   .h(dp_a16[j*DAW +: DAW]));
        mma_to_f16 #(.MASK(AB_MASK), .IW(AW)) u_b (.raw(dp_b[j*AW +: AW]), .fmt(dp_ctl[FB +: FB]),
                                                   .h(dp_b16[j*DAW +: DAW]));
      end
      assign dp_fmt_a = FB'(mma_pkg::FMT_F16);
      assign dp_fmt_b = FB'(mma_pkg::FMT_F16);
    end else begin : g_raw
      assign dp_a16 = dp_a;
      assign dp_b16 = dp_b;
      assign dp_fmt_a = dp_ctl[0 +: FB];
      assign dp_fmt_b = dp_ctl[FB +: FB];
    end
  endgenerate

  fda_datapath #(.KD(KD), .F(F), .AB_MASK(DAB), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK),
                 .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP), .AW(DAW), .MUTANT(MUTANT)) u_dp (
    .fmt_a(dp_fmt_a), .fmt_b(dp_fmt_b), .fmt_c(dp_fmt_c), .out_kind(dp_ctl[2*FB +: OB]),
    .c(dp_c), .a(dp_a16), .b(dp_b16), .sa(dp_s[0 +: SDW]), .sb(dp_s[SDW +: SDW]), .d(dp_d));

  // C_LAST: C and the output kind are held from the handshake; D = P + C, P the passes' result in the
  // output register.  They change only on a handshake, which takes a held result in the same cycle.
  generate
    if (C_LAST != 0) begin : g_c_last
      logic [31:0]   c_q;
      logic [OB-1:0] kind_q;
      always @(posedge clk)
        if (in_valid && in_ready) begin
          c_q    <= c;
          kind_q <= out_kind;
        end
      mma_add_last #(.OUT_MASK(OUT_MASK)) u_add_c (.fmt(mma_pkg::out_fmt_of(OUT_MASK, kind_q)), .x(chain_d), .y(c_q), .d(d));
    end else begin : g_direct
      assign d = chain_d;
    end
  endgenerate
endmodule
