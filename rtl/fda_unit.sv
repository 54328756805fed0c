// fda_unit: fused dot-add of K products with a valid/ready handshake (docs/algorithms.md, FDA/CoFDA).
// CHAIN = 1: one K-wide pass per vector, result one cycle after the handshake.
// CHAIN = 2 (CoFDA, Ampere/Ada): two passes through one K/2-wide datapath under a two-state FSM, as the
// hardware does: pass 1 takes C and the first half of K and rounds to D's format; pass 2 takes that as
// its C with the second half.  One vector every two cycles.
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
  parameter int NS       = BLOCK > 0 ? K / BLOCK : 0,
  parameter int NSW      = NS > 0 ? NS : 1
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [3:0]       fmt_a,
  input  logic [3:0]       fmt_b,
  input  logic [3:0]       fmt_c,
  input  logic [1:0]       out_kind,
  input  logic [31:0]      c,
  input  logic [K*AW-1:0]  a,
  input  logic [K*AW-1:0]  b,
  input  logic [NSW*8-1:0] sa,
  input  logic [NSW*8-1:0] sb,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [31:0]      d
);
  localparam int KD   = K / CHAIN;                       // products per pass
  localparam int NSD  = BLOCK > 0 ? KD / BLOCK : 0;      // scale pairs per pass
  localparam int NSDW = NSD > 0 ? NSD : 1;
  localparam int SDW  = NSDW * 8;

  logic [31:0]       dp_d;
  logic [3:0]        dp_fmt_c;
  logic [31:0]       dp_c;
  logic [KD*AW-1:0]  dp_a, dp_b;
  logic [NSDW*8-1:0] dp_sa, dp_sb;
  logic [3:0]        dp_fmt_a, dp_fmt_b;
  logic [1:0]        dp_out;
  logic              accept;

  fda_datapath #(.KD(KD), .F(F), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK),
                 .BLOCK(BLOCK), .AW(AW)) u_dp (
    .fmt_a(dp_fmt_a), .fmt_b(dp_fmt_b), .fmt_c(dp_fmt_c), .out_kind(dp_out),
    .c(dp_c), .a(dp_a), .b(dp_b), .sa(dp_sa), .sb(dp_sb), .d(dp_d));

  generate
    if (CHAIN == 1) begin : g_single
      assign in_ready = !out_valid || out_ready;
      assign accept   = in_valid && in_ready;
      assign dp_fmt_a = fmt_a;  assign dp_fmt_b = fmt_b;  assign dp_fmt_c = fmt_c;
      assign dp_out   = out_kind;
      assign dp_c = c;  assign dp_a = a;  assign dp_b = b;
      assign dp_sa = SDW'(sa);  assign dp_sb = SDW'(sb);
      always @(posedge clk) begin
        if (!rst_n) out_valid <= 1'b0;
        else if (accept) out_valid <= 1'b1;
        else if (out_ready) out_valid <= 1'b0;
        if (accept) d <= dp_d;
      end
    end else begin : g_chain
      // FSM: idle (pass 1 runs on the handshake, from the ports) -> pass 2 (from the registers).
      logic              pass2;
      logic [31:0]       mid;          // pass 1 result, in D's format
      logic [KD*AW-1:0]  a_hi, b_hi;
      logic [NSDW*8-1:0] sa_hi, sb_hi;
      logic [3:0]        fa_q, fb_q;
      logic [1:0]        out_q;
      assign in_ready = !pass2 && (!out_valid || out_ready);
      assign accept   = in_valid && in_ready;
      assign dp_fmt_a = pass2 ? fa_q : fmt_a;
      assign dp_fmt_b = pass2 ? fb_q : fmt_b;
      assign dp_out   = pass2 ? out_q : out_kind;
      // pass 2's C is pass 1's D: f16 for an f16 D, f32 otherwise
      assign dp_fmt_c = !pass2 ? fmt_c
                      : out_q == 2'(mma_pkg::OUT_F16_RNE) ? 4'(mma_pkg::FMT_F16) : 4'(mma_pkg::FMT_F32);
      assign dp_c  = pass2 ? mid : c;
      assign dp_a  = pass2 ? a_hi : a[KD*AW-1:0];
      assign dp_b  = pass2 ? b_hi : b[KD*AW-1:0];
      assign dp_sa = pass2 ? sa_hi : SDW'(sa);
      assign dp_sb = pass2 ? sb_hi : SDW'(sb);
      always @(posedge clk) begin
        if (!rst_n) begin
          pass2 <= 1'b0;
          out_valid <= 1'b0;
        end else if (accept) begin
          pass2 <= 1'b1;
          out_valid <= 1'b0;              // the previous result, if any, leaves on this edge
        end else if (pass2) begin
          pass2 <= 1'b0;
          out_valid <= 1'b1;
        end else if (out_ready) begin
          out_valid <= 1'b0;
        end
        if (accept) begin
          mid   <= dp_d;
          a_hi  <= a[K*AW-1:KD*AW];
          b_hi  <= b[K*AW-1:KD*AW];
          sa_hi <= SDW'(sa >> (NSD * 8));
          sb_hi <= SDW'(sb >> (NSD * 8));
          fa_q  <= fmt_a;
          fb_q  <= fmt_b;
          out_q <= out_kind;
        end
        if (pass2) d <= dp_d;
      end
    end
  endgenerate
endmodule
