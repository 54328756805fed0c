// mma_handshake: the valid/ready handshake and output register of a unit whose datapath takes one or
// more passes per vector (1: every cycle; 2: CoFDA, two chained passes through one half-width datapath;
// 1, 2 or 4 by the mode of the vector: M3XU's steps).  On the handshake (accept) pass 0 runs from the
// unit's ports; passes 1..final_pass follow, one a cycle, from registers the unit loads on accept;
// final_pass is the vector's last pass, from the ports on accept and from the unit's registers after
// (a constant PASSES - 1 where every vector takes PASSES passes).  The last pass's result is registered
// as D (last = 1 in the cycle it is computed) and offered with out_valid until out_ready takes it.
// in_ready is low while later passes run and while an untaken result is held, so one vector is
// accepted every final_pass + 1 cycles when the output is drained.  rst_n is synchronous.
// STAGES = 1: the unit has one pipeline register between the pass sequencing and the arithmetic (M3XU's
// pipelined data-assignment stage), so D is the datapath's result one cycle after `last`; when that
// result finds D still held (out_valid, no out_ready), `hold` is high: the unit's pipeline register and
// state keep their contents, the sequencing waits, and the result is written once D is free.
// STAGES = 0: hold is always low.
module mma_handshake #(
  parameter int PASSES = 1,  // the most passes a vector takes
  parameter int DW     = 32,
  parameter int STAGES = 0,  // 0 or 1: pipeline registers between the pass sequencing and the result
  parameter int PW     = PASSES > 1 ? mma_pkg::clog2(PASSES) : 1
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          in_valid,
  output logic          in_ready,
  output logic          accept,      // the vector on the ports is taken: pass 0 runs from them
  input  logic [PW-1:0] final_pass,  // the last pass of the vector being run (on accept: on the ports)
  output logic [PW-1:0] pass,        // the pass the datapath runs this cycle (0 when idle or accepting)
  output logic          last,        // the datapath runs the vector's last pass this cycle
  output logic          hold,        // STAGES = 1: the pipeline register and the unit's state hold
  input  logic [DW-1:0] d_in,        // the datapath's result
  output logic          out_valid,
  input  logic          out_ready,
  output logic [DW-1:0] d
);
  logic write;  // D takes d_in this cycle

  generate
    if (STAGES == 0) begin : g_direct
      assign hold  = 1'b0;
      assign write = last;
      assign in_ready = pass == '0 && (!out_valid || out_ready);
    end else begin : g_stage
      logic last_q;  // the pipeline register holds a vector's last pass: its result is d_in
      always @(posedge clk) begin
        if (!rst_n) last_q <= 1'b0;
        else if (!hold) last_q <= last;
      end
      assign hold  = last_q && out_valid && !out_ready;
      assign write = last_q && !hold;
      assign in_ready = pass == '0 && !hold;
    end
  endgenerate
  assign accept = in_valid && in_ready;

  generate
    if (PASSES == 1) begin : g_one
      logic unused_final;
      assign unused_final = ^final_pass;
      assign pass = '0;
      assign last = accept;
    end else begin : g_multi
      assign last = accept ? final_pass == '0 : pass != '0 && pass == final_pass;
      always @(posedge clk) begin
        if (!rst_n) pass <= '0;
        else if (accept) pass <= final_pass == '0 ? '0 : PW'(1);
        else if (pass != '0) pass <= last ? '0 : pass + PW'(1);
      end
    end
  endgenerate

  // an accepted vector finds D free (in_ready), so clearing on out_ready alone also covers accept
  always @(posedge clk) begin
    if (!rst_n) out_valid <= 1'b0;
    else if (write) out_valid <= 1'b1;
    else if (out_ready) out_valid <= 1'b0;
    if (write) d <= d_in;
  end
endmodule
