// fda_unit: fused dot-add of K products with a valid/ready handshake (docs/algorithms.md, FDA/CoFDA).
// CHAIN = 1: one K-wide pass per vector, result one cycle after the handshake.
// CHAIN = 2 (CoFDA, Ampere/Ada): two passes through one K/2-wide datapath, as the hardware does: pass 1
// takes C and the first half of K and rounds to D's format; pass 2 takes that as its C with the second
// half.  One vector every two cycles.  (CHAIN > 2 chains the same way through K/CHAIN lanes.)
// Operand formats and the output kind are run-time inputs among those the masks allow (mma_pkg codes);
// F, K, the chaining and the UE8M0 block size are what the hardware fixes.
module fda_unit #(
  parameter int K        = 16,
  parameter int F        = 25,
  parameter int CHAIN    = 1,
  parameter int AB_MASK  = 1 << mma_pkg::FMT_F16,
  parameter int C_MASK   = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK    = 0,
  parameter int AW       = mma_pkg::max_width(AB_MASK),
  parameter int NSW      = BLOCK > 0 ? K / BLOCK : 1
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
  localparam int SDW = mma_pkg::imax(BLOCK > 0 ? KD / BLOCK : 1, 1) * 8;  // scale bits per pass
  localparam int PW  = CHAIN > 1 ? mma_pkg::clog2(CHAIN) : 1;

  logic                         accept, last, hold;
  logic [PW-1:0]                pass;
  logic [31:0]                  dp_d, dp_c;
  logic [mma_pkg::FMT_BITS-1:0] dp_fmt_a, dp_fmt_b, dp_fmt_c;
  logic [mma_pkg::OUT_BITS-1:0] dp_out;
  logic [KD*AW-1:0]             dp_a, dp_b;
  logic [SDW-1:0]               dp_sa, dp_sb;

  mma_handshake #(.PASSES(CHAIN), .DW(32)) u_hs (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .accept(accept),
    .final_pass(PW'(CHAIN - 1)), .pass(pass), .last(last), .hold(hold), .d_in(dp_d), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
  logic unused_hold;  // no pipeline register (STAGES = 0): never high
  assign unused_hold = hold;

  fda_datapath #(.KD(KD), .F(F), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK),
                 .BLOCK(BLOCK), .AW(AW)) u_dp (
    .fmt_a(dp_fmt_a), .fmt_b(dp_fmt_b), .fmt_c(dp_fmt_c), .out_kind(dp_out),
    .c(dp_c), .a(dp_a), .b(dp_b), .sa(dp_sa), .sb(dp_sb), .d(dp_d));

  generate
    if (CHAIN == 1) begin : g_single
      logic unused_hs;
      assign unused_hs = ^{accept, last, pass};
      assign dp_fmt_a = fmt_a;  assign dp_fmt_b = fmt_b;  assign dp_fmt_c = fmt_c;
      assign dp_out   = out_kind;
      assign dp_c = c;  assign dp_a = a;  assign dp_b = b;
      assign dp_sa = SDW'(sa);  assign dp_sb = SDW'(sb);
    end else begin : g_chain
      // Pass 0 runs from the ports; the lanes and scales of the later passes, and the run-time formats,
      // are registered on the handshake; each pass's result is the next one's C.
      localparam int HW = (K - KD) * AW;                // lanes of the later passes
      localparam int HS = BLOCK > 0 ? (CHAIN - 1) * SDW : SDW;  // (no scales: one unused slot)
      logic [31:0]                  mid;
      logic [HW-1:0]                a_hi, b_hi;
      logic [HS-1:0]                sa_hi, sb_hi;
      logic [mma_pkg::FMT_BITS-1:0] fa_q, fb_q;
      logic [mma_pkg::OUT_BITS-1:0] out_q;
      logic                         later;
      assign later    = pass != '0;
      assign dp_fmt_a = later ? fa_q : fmt_a;
      assign dp_fmt_b = later ? fb_q : fmt_b;
      assign dp_out   = later ? out_q : out_kind;
      // a later pass's C is the previous pass's D, in D's format (f16 for an f16 D, else f32)
      assign dp_fmt_c = later ? mma_pkg::out_fmt_of(OUT_MASK, out_q) : fmt_c;
      assign dp_c  = later ? mid : c;
      assign dp_a  = later ? a_hi[KD*AW-1:0] : a[KD*AW-1:0];
      assign dp_b  = later ? b_hi[KD*AW-1:0] : b[KD*AW-1:0];
      assign dp_sa = later ? sa_hi[SDW-1:0] : SDW'(sa);
      assign dp_sb = later ? sb_hi[SDW-1:0] : SDW'(sb);
      always @(posedge clk) begin
        if (accept || (CHAIN > 2 && later && !last)) mid <= dp_d;  // every pass's D but the last
        if (accept) begin
          a_hi  <= a[K*AW-1:KD*AW];
          b_hi  <= b[K*AW-1:KD*AW];
          sa_hi <= HS'(sa >> SDW);
          sb_hi <= HS'(sb >> SDW);
          fa_q  <= fmt_a;
          fb_q  <= fmt_b;
          out_q <= out_kind;
        end else if (CHAIN > 2 && later) begin  // the next pass's lanes move down
          a_hi  <= a_hi >> (KD * AW);
          b_hi  <= b_hi >> (KD * AW);
          sa_hi <= sa_hi >> SDW;
          sb_hi <= sb_hi >> SDW;
        end
      end
    end
  endgenerate
endmodule
