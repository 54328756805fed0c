// mma_chain: a unit whose vector takes PASSES passes through one datapath, each pass's D the next one's
// C (CoFDA and CoFDRDA: two passes of K/2 products; GPS: one group of G products a pass; SFMA: one FMA a
// pass).  A and B hold KD products per pass, pass p's at [p*KD*AW +: KD*AW]; s holds SW bits per pass
// that travel with them (FDA's block scales; tie it to 0 where there are none).  mma_handshake
// sequences the passes; on the handshake pass 0 runs from the ports (C, pass 0's lanes, ctl); the lanes
// of the later passes and the run-time selections (ctl: formats, output kind) are registered, and each
// later pass takes the previous pass's result as its C (dp_later = 1).  One vector every PASSES cycles.
module mma_chain #(
  parameter int PASSES = 2,
  parameter int DW     = 32,  // C and D
  parameter int KD     = 1,   // products per pass
  parameter int AW     = 16,  // bits of one A or B element
  parameter int SW     = 1,   // side bits per pass (s)
  parameter int CTW    = 1,   // run-time selections, held for the later passes
  parameter int PW     = PASSES > 1 ? mma_pkg::clog2(PASSES) : 1
) (
  input  logic                    clk,
  input  logic                    rst_n,
  input  logic                    in_valid,
  output logic                    in_ready,
  input  logic [DW-1:0]           c,
  input  logic [PASSES*KD*AW-1:0] a, b,
  input  logic [PASSES*SW-1:0]    s,
  input  logic [CTW-1:0]          ctl,
  output logic [DW-1:0]           dp_c,      // the datapath's C, lanes and selections this cycle
  output logic [KD*AW-1:0]        dp_a, dp_b,
  output logic [SW-1:0]           dp_s,
  output logic [CTW-1:0]          dp_ctl,
  output logic                    dp_later,  // a later pass: dp_c is the previous pass's D
  input  logic [DW-1:0]           dp_d,
  output logic                    out_valid,
  input  logic                    out_ready,
  output logic [DW-1:0]           d
);
  localparam int PAW = KD * AW;          // one pass's A (or B)
  localparam int LW  = 2 * PAW + SW;     // one pass's lanes: {s, b, a}
  logic          accept, last, hold;
  logic [PW-1:0] pass;

  mma_handshake #(.PASSES(PASSES), .DW(DW)) u_hs (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .accept(accept),
    .final_pass(PW'(PASSES - 1)), .pass(pass), .last(last), .hold(hold), .d_in(dp_d), .out_valid(out_valid),
    .out_ready(out_ready), .d(d));
  logic unused_hold;  // no pipeline register (STAGES = 0): never high
  assign unused_hold = hold;

  logic [PASSES*LW-1:0] lanes;           // pass p's {s, b, a} at [p*LW +: LW]
  logic [LW-1:0]        dp_lanes;
  genvar p;
  generate
    for (p = 0; p < PASSES; p++) begin : g_pass
      assign lanes[p*LW +: LW] = {s[p*SW +: SW], b[p*PAW +: PAW], a[p*PAW +: PAW]};
    end
  endgenerate
  assign dp_a = dp_lanes[0 +: PAW];
  assign dp_b = dp_lanes[PAW +: PAW];
  assign dp_s = dp_lanes[2*PAW +: SW];

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
