// mma_chain: a unit whose vector takes PASSES passes through one datapath, each pass's D the next one's
// C (CoFDRDA's two FDRDA passes; GPS's groups, one group a pass: d = d + PS(group)).  mma_handshake
// sequences the passes; on the handshake pass 0 runs from the ports (C, lanes[0 +: LW], ctl); the lanes
// of the later passes and the run-time selections (ctl: formats) are registered, and each later pass
// takes the previous pass's result as its C (later = 1).  One vector every PASSES cycles.
module mma_chain #(
  parameter int PASSES = 2,
  parameter int DW     = 32,  // C and D
  parameter int LW     = 8,   // operand lanes of one pass
  parameter int CTW    = 1,   // run-time selections, held for the later passes
  parameter int PW     = PASSES > 1 ? mma_pkg::clog2(PASSES) : 1
) (
  input  logic                 clk,
  input  logic                 rst_n,
  input  logic                 in_valid,
  output logic                 in_ready,
  input  logic [DW-1:0]        c,
  input  logic [PASSES*LW-1:0] lanes,     // pass p's lanes at [p*LW +: LW]
  input  logic [CTW-1:0]       ctl,
  output logic [DW-1:0]        dp_c,      // the datapath's C, lanes and selections this cycle
  output logic [LW-1:0]        dp_lanes,
  output logic [CTW-1:0]       dp_ctl,
  output logic                 dp_later,  // a later pass: dp_c is the previous pass's D
  input  logic [DW-1:0]        dp_d,
  output logic                 out_valid,
  input  logic                 out_ready,
  output logic [DW-1:0]        d
);
  logic          accept, last, hold;
  logic [PW-1:0] pass;

  mma_handshake #(.PASSES(PASSES), .DW(DW)) u_hs (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .accept(accept),
    .final_pass(PW'(PASSES - 1)), .pass(pass), .last(last), .hold(hold), .d_in(dp_d), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
  logic unused_hold;  // no pipeline register (STAGES = 0): never high
  assign unused_hold = hold;

  generate
    if (PASSES == 1) begin : g_single
      logic unused_hs;
      assign unused_hs = ^{accept, last, pass};
      assign dp_c = c;  assign dp_lanes = lanes;  assign dp_ctl = ctl;
      assign dp_later = 1'b0;
    end else begin : g_chain
      localparam int HW = (PASSES - 1) * LW;  // lanes of the later passes
      logic [DW-1:0]  mid;
      logic [HW-1:0]  hi;
      logic [CTW-1:0] ctl_q;
      assign dp_later = pass != '0;
      assign dp_c     = dp_later ? mid : c;
      assign dp_lanes = dp_later ? hi[LW-1:0] : lanes[LW-1:0];
      assign dp_ctl   = dp_later ? ctl_q : ctl;
      always @(posedge clk) begin
        if (accept || (PASSES > 2 && dp_later && !last)) mid <= dp_d;  // every pass's D but the last
        if (accept) begin
          hi    <= lanes[PASSES*LW-1:LW];
          ctl_q <= ctl;
        end else if (PASSES > 2 && dp_later) begin
          hi <= HW'(hi >> LW);  // the next pass's lanes move down
        end
      end
    end
  endgenerate
endmodule
