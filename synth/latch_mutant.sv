// latch_mutant: a unit with a latch (an incomplete combinational assignment), for tests/t_rtl_lint.sh only:
// the synthesis flow (synth/synth_unit.sh) must reject it.
module latch_mutant #(
  parameter int W = 4
) (
  input  logic         en,
  input  logic [W-1:0] d,
  output logic [W-1:0] q
);
  // `always @*`, not always_comb: Yosys rejects a latch in always_comb while reading, and the flow's own
  // latch check (on the synthesized netlist) is what this mutant is for
  always @* if (en) q = d;  // q keeps its value when en is low: a latch
endmodule
