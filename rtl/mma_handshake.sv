// mma_handshake: the valid/ready handshake and output register of a unit whose datapath takes PASSES
// cycles per vector (1: every cycle; 2: CoFDA, two chained passes through one half-width datapath).
// On the handshake (accept) pass 0 runs from the unit's ports; passes 1..PASSES-1 follow, one a cycle,
// from registers the unit loads on accept; the last pass's result is registered as D (last = 1 in the
// cycle it is computed) and offered with out_valid until out_ready takes it.  in_ready is low while
// later passes run and while an untaken result is held, so one vector is accepted every PASSES cycles
// when the output is drained.  rst_n is synchronous.
module mma_handshake #(
  parameter int PASSES = 1,
  parameter int DW     = 32,
  parameter int PW     = PASSES > 1 ? mma_pkg::clog2(PASSES) : 1
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          in_valid,
  output logic          in_ready,
  output logic          accept,   // the vector on the ports is taken: pass 0 runs from them
  output logic [PW-1:0] pass,     // the pass the datapath runs this cycle (0 when idle or accepting)
  output logic          last,     // the datapath computes D this cycle
  input  logic [DW-1:0] d_in,     // the datapath's result
  output logic          out_valid,
  input  logic          out_ready,
  output logic [DW-1:0] d
);
  assign in_ready = pass == '0 && (!out_valid || out_ready);
  assign accept   = in_valid && in_ready;

  generate
    if (PASSES == 1) begin : g_one
      assign pass = '0;
      assign last = accept;
    end else begin : g_multi
      assign last = pass == PW'(PASSES - 1);
      always @(posedge clk) begin
        if (!rst_n) pass <= '0;
        else if (accept) pass <= PW'(1);
        else if (pass != '0) pass <= last ? '0 : pass + PW'(1);
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (!rst_n) out_valid <= 1'b0;
    else if (last) out_valid <= 1'b1;
    else if (accept) out_valid <= 1'b0;  // PASSES > 1: the previous result, if any, leaves on this edge
    else if (out_ready) out_valid <= 1'b0;
    if (last) d <= d_in;
  end
endmodule
