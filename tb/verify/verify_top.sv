// verify_top: the generic bench of `make verify` (mk/verify.mk, docs/verify-your-design.md).  It drives
// any unit that meets the port contract (fda_unit's ports: valid/ready handshake, run-time format
// selects, C, K lanes of A and B, scale factors, D) with the stream of one instruction -- the library's
// directed vectors, then seeded random ones, through tb/tb_support.c as the project's own bench does --
// and checks every D the unit returns, in order, bit for bit against the model's (mmaref_dot_batch).  The
// unit may take any number of cycles per vector and any pipeline depth; results must come back in the
// order the vectors went in.  Every driven vector is counted in the coverage bins (tb/tb_coverage.c).
// build/verify/<unit>/verify_dut.svh (tb/verify/gen_verify.py) names the unit and the instruction and
// sets the port widths from the instruction.  The loop -- plusargs (+seed +count +first +bp +replay +show
// +pipe), driver, monitor, stall watchdog, RESULT line -- is tb/bench_loop.svh, shared with the project's
// own bench (tb/mma_bench.sv); here: the instance, the run-time selects and the operands' packing.
module verify_top (
  input logic clk
);
  import mmaref_dpi_pkg::*;
  import tb_support_pkg::*;
`include "mma_formats.svh"
  // ARCH, INSTR, UNIT; K, AW (bits of an A/B lane), DAW (bits of the unit's lane), NSW (scale slots, 1 when none), CW, DW (C and D bits),
  // NS (the instruction's scales); `VERIFY_DUT (the unit's module and parameters)
`include "verify_dut.svh"

  // ---- the unit (the port contract) ----
  logic rst_n = 1'b0;
  logic in_valid = 1'b0, out_ready = 1'b0;
  logic in_ready, out_valid;
  logic [FMT_BITS-1:0] fmt_a, fmt_b, fmt_c;
  logic [OUT_BITS-1:0] out_kind;
  logic [CW-1:0] c;
  logic [K*AW-1:0] a, b;
  logic [NSW*8-1:0] sa, sb;
  logic [DW-1:0] d;
  // the unit's lanes: each AW-bit operand zero-extended into a DAW-bit lane (DAW = AW but for a unit
  // whose lanes are wider than the instruction's operands)
  logic [K*DAW-1:0] dut_a, dut_b;
  always_comb
    for (int i = 0; i < K; i++) begin
      dut_a[i*DAW +: DAW] = DAW'(a[i*AW +: AW]);
      dut_b[i*DAW +: DAW] = DAW'(b[i*AW +: AW]);
    end

  `VERIFY_DUT dut (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready),
    .fmt_a(fmt_a), .fmt_b(fmt_b), .fmt_c(fmt_c), .out_kind(out_kind),
    .c(c), .a(dut_a), .b(dut_b), .sa(sa), .sb(sb),
    .out_valid(out_valid), .out_ready(out_ready), .d(d));

  // ---- the bench loop (tb/bench_loop.svh): start, driver, monitor, watchdog, RESULT ----
  localparam string UNIT_NAME = UNIT, RESULT_UNIT = UNIT, SHOW_LABEL = "unit";  // the unit's module
`include "bench_loop.svh"

  // The start of a run: the instruction, and its run-time selects (its formats and output kind, model
  // codes, rtl/mma_formats.svh) onto the ports.
  task automatic bench_start();
    h = mmaref_dpi_lookup(ARCH, INSTR);
    if (h < 0) $fatal(1, "verify: %s:%s is not in the model's table", ARCH, INSTR);
    mmaref_tb_select(h);
    fmt_a    = FMT_BITS'(mmaref_dpi_param(h, "a"));
    fmt_b    = FMT_BITS'(mmaref_dpi_param(h, "b"));
    fmt_c    = FMT_BITS'(mmaref_dpi_param(h, "c"));
    out_kind = OUT_BITS'(mmaref_dpi_param(h, "out"));
  endtask

  // The next vector's operands onto the ports (false: none left).  Without scales the operand word comes
  // packed at AW bits a lane with the model's D (mmaref_tb_gen_packed); with scales as 32-bit lanes.
  function automatic bit next_vector(longint unsigned idx);
    if (!fetch_vector(idx, NS == 0, NS > 0 ? 32 : AW)) return 0;
    c <= CW'(gc);
    if (NS == 0) begin
      a <= ga[K*AW-1:0];
      b <= gb[K*AW-1:0];
    end else begin
      for (int i = 0; i < K; i++) begin
        a[i*AW +: AW] <= ga[i*32 +: AW];
        b[i*AW +: AW] <= gb[i*32 +: AW];
      end
    end
    for (int j = 0; j < NSW; j++) begin
      sa[j*8 +: 8] <= NS > 0 ? gsa[j*32 +: 8] : 8'd0;
      sb[j*8 +: 8] <= NS > 0 ? gsb[j*32 +: 8] : 8'd0;
    end
    return 1;
  endfunction
endmodule
