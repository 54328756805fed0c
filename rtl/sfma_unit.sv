// sfma_unit: sequential fused multiply-add (SFMA: NVIDIA DMMA, AMD f32/f64 MFMA; docs/algorithms.md):
// d = c; d = fma(a_k, b_k, d) for k = 0 .. K-1, each FMA rounded to nearest even in D's format, through
// one FMA datapath (sfma_datapath), one product per cycle: the area of one FMA plus the operand and
// accumulator registers.  The output kind (f64-rne or f32-rne among OUT_MASK, chosen at run time) fixes
// the format of A, B, C and D; lanes are AW bits wide (the widest format), a narrower format in the low
// end.  mma_handshake sequences the K passes: pass 0 runs from the ports (a_0, b_0, C) on the handshake,
// which also registers lanes 1 .. K-1 and the output kind; pass k takes lane k and the accumulator (pass
// k-1's D); the last pass's D is the result.  One vector every K cycles; in_ready is low while the
// later passes run and while an untaken result is held.
module sfma_unit #(
  parameter int K        = 4,
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F64_RNE,
  parameter int MUTANT   = 0,   // passed to sfma_datapath (the mutation check only)
  parameter int AW       = mma_pkg::max_width(mma_pkg::out_formats(OUT_MASK))
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [AW-1:0]                 c,
  input  logic [K*AW-1:0]               a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [AW-1:0]                 d
);
  localparam int PW = K > 1 ? mma_pkg::clog2(K) : 1;

  logic                         accept, last, hold;
  logic [PW-1:0]                pass;
  logic [AW-1:0]                dp_a, dp_b, dp_c, dp_d;
  logic [mma_pkg::OUT_BITS-1:0] dp_out;

  mma_handshake #(.PASSES(K), .DW(AW)) u_hs (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .accept(accept),
    .final_pass(PW'(K - 1)), .pass(pass), .last(last), .hold(hold), .d_in(dp_d), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
  logic unused_hold;  // no pipeline register (STAGES = 0): never high
  assign unused_hold = hold;

  sfma_datapath #(.OUT_MASK(OUT_MASK), .AW(AW), .MUTANT(MUTANT)) u_fma (
    .out_kind(dp_out), .a(dp_a), .b(dp_b), .c(dp_c), .d(dp_d));

  generate
    if (K == 1) begin : g_one
      logic unused_hs;
      assign unused_hs = ^{accept, last, pass};
      assign dp_out = out_kind;
      assign dp_a = a;  assign dp_b = b;  assign dp_c = c;
    end else begin : g_chain
      logic [(K-1)*AW-1:0]          a_q, b_q;   // lanes of the passes still to run, the next one lowest
      logic [AW-1:0]                acc;        // the previous pass's D
      logic [mma_pkg::OUT_BITS-1:0] out_q;
      logic                         later;
      assign later  = pass != '0;
      assign dp_out = later ? out_q : out_kind;
      assign dp_a   = later ? a_q[AW-1:0] : a[AW-1:0];
      assign dp_b   = later ? b_q[AW-1:0] : b[AW-1:0];
      assign dp_c   = later ? acc : c;
      always @(posedge clk) begin
        if (accept || (later && !last)) acc <= dp_d;  // every pass's D but the last
        if (accept) begin
          a_q   <= a[K*AW-1:AW];
          b_q   <= b[K*AW-1:AW];
          out_q <= out_kind;
        end else if (later) begin                    // the next pass's lane moves down
          a_q <= a_q >> AW;
          b_q <= b_q >> AW;
        end
      end
    end
  endgenerate
endmodule
