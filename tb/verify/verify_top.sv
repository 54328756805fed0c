// verify_top: the generic bench of `make verify` (mk/verify.mk, docs/verify-your-design.md).  It drives
// any unit that meets the port contract (fda_unit's ports: valid/ready handshake, run-time format
// selects, C, K lanes of A and B, scale factors, D) with the stream of one instruction -- the library's
// directed vectors, then seeded random ones, through tb/tb_support.c as the project's own bench does --
// and checks every D the unit returns, in order, bit for bit against the model's (mmaref_dot_batch).  The
// unit may take any number of cycles per vector and any pipeline depth; results must come back in the
// order the vectors went in.  Every driven vector is counted in the coverage bins (tb/tb_coverage.c).
// build/verify/<unit>/verify_dut.svh (tb/verify/gen_verify.py) names the unit and the instruction and
// sets the port widths from the instruction.
// Plusargs: +seed=N +count=N +first=N +bp (random backpressure and bubbles) +replay=N (vector N alone,
// for the waveform) +show (every D, the unit's and the model's) +pipe (stdin lines in, D lines out: no
// check, tb/tb_pipe.c).
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

  // ---- stimulus and checking ----
  int h = -1;
  bit started = 0, bp = 0, replay = 0, show = 0, pipe = 0, eof = 0;
  longint unsigned seed = 1, count = 100000, first = 0, sent = 0, checked = 0, mismatches = 0;
  real t0;
  longint unsigned exp_q[$], idx_q[$];
  bit [32*MAX_K-1:0] ga, gb;
  bit [32*MAX_SCALE-1:0] gsa, gsb;
  int unsigned gc32;
  longint unsigned gc, gd;
  longint unsigned cycle = 0, accepts = 0, first_accept = 0, last_accept = 0, first_result = 0;
  // a unit that loses or withholds a result must not hang the run: this many cycles without one fail it
  localparam int STALL_CYCLES = 10000;
  longint unsigned last_progress = 0;
  localparam int STDERR = 32'h8000_0002;

  task automatic start();
    h = mmaref_dpi_lookup(ARCH, INSTR);
    if (h < 0) $fatal(1, "verify: %s:%s is not in the model's table", ARCH, INSTR);
    mmaref_tb_select(h);
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("count=%d", count)) count = 100000;
    if (!$value$plusargs("first=%d", first)) first = 0;
    bp = $test$plusargs("bp");
    show = $test$plusargs("show");
    pipe = $test$plusargs("pipe");
    if ($value$plusargs("replay=%d", first)) begin  // the waveform re-run of one vector
      replay = 1;
      count = 1;
    end
    if (pipe) count = '1;  // until stdin ends
    // the run-time selects: the instruction's formats and output kind (model codes, rtl/mma_formats.svh)
    fmt_a    = FMT_BITS'(mmaref_dpi_param(h, "a"));
    fmt_b    = FMT_BITS'(mmaref_dpi_param(h, "b"));
    fmt_c    = FMT_BITS'(mmaref_dpi_param(h, "c"));
    out_kind = OUT_BITS'(mmaref_dpi_param(h, "out"));
    t0 = mmaref_tb_seconds();
  endtask

  task automatic finish();
    real dt = mmaref_tb_seconds() - t0;
    if (pipe) mmaref_tb_pipe_end();
    else if (!replay)
      $display("RESULT %s unit=%s vectors=%0d mismatches=%0d directed=%0d seconds=%.3f rate=%.0f cycles/op=%.3f latency=%0d",
               mmaref_dpi_label(h), UNIT, checked, mismatches, mmaref_tb_directed_count(h), dt,
               dt > 0 ? checked / dt : 0.0,
               accepts > 1 ? real'(last_accept - first_accept) / real'(accepts - 1) : 0.0,
               first_result - first_accept);
    $finish;
  endtask

  // The next vector's operands onto the ports (false: none left).  Without scales the operand word comes
  // packed at AW bits a lane with the model's D (mmaref_tb_gen_packed); with scales as 32-bit lanes.
  function automatic bit next_vector(longint unsigned idx);
    if (pipe) begin
      if (mmaref_tb_pipe_read(h, NS > 0 ? 32 : AW, gc, ga, gb, gsa, gsb) == 0) return 0;
      gd = 0;
    end else if (NS == 0) begin
      if (mmaref_tb_gen_packed(h, seed, idx, gc, ga, gb, gd) < 0)
        $fatal(1, "mmaref_tb_gen_packed failed at index %0d", idx);
    end else begin
      if (mmaref_tb_gen(h, seed, idx, gc32, ga, gb, gsa, gsb, gd) < 0)
        $fatal(1, "mmaref_tb_gen failed at index %0d", idx);
      gc = 64'(gc32);
    end
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

  always @(posedge clk) begin
    if (!started) begin
      start();
      started <= 1'b1;
    end else begin
      rst_n <= 1'b1;
      cycle++;
      if (in_valid && in_ready) begin
        if (accepts == 0) first_accept = cycle;
        last_accept = cycle;
        accepts++;
      end
      if (out_valid && out_ready && checked == 0) first_result = cycle;
      if (out_valid && out_ready || exp_q.size() == 0) last_progress = cycle;
      else if (cycle - last_progress > 64'(STALL_CYCLES)) begin
        $fdisplay(STDERR, "STALL %s unit %s: no result for %0d cycles, %0d vectors outstanding from index %0d",
                  mmaref_dpi_label(h), UNIT, STALL_CYCLES, exp_q.size(), idx_q[0]);
        mismatches++;
        mmaref_tb_fail(idx_q[0]);
        finish();
      end
      // monitor: results come back in order, one per vector
      if (out_valid && out_ready) begin
        if (exp_q.size() == 0) begin
          $fdisplay(STDERR, "EXTRA %s unit %s: a result 0x%0h with no vector outstanding (after %0d results)",
                    mmaref_dpi_label(h), UNIT, d, checked);
          mismatches++;
          mmaref_tb_fail(first + checked);
          finish();
        end else begin
          longint unsigned want = exp_q.pop_front(), idx = idx_q.pop_front();
          if (pipe) mmaref_tb_pipe_write(h, 64'(d));
          else begin
            if (show) $display("D %s index=%0d unit=0x%0h model=0x%0h", mmaref_dpi_label(h), idx, d, want);
            if (64'(d) != want) begin
              mismatches++;
              mmaref_tb_class_mismatch(h, seed, idx);
              mmaref_tb_report(h, UNIT, seed, idx, 64'(d));
              mmaref_tb_fail(idx);
            end
          end
          checked++;
          if (checked == count || eof && exp_q.size() == 0) finish();
        end
      end
      // driver: offer the next vector once the current one is taken
      if (rst_n && (!in_valid || in_ready)) begin
        if (sent < count && !eof && !(bp && $urandom % 5 == 0)) begin
          longint unsigned idx = first + sent;
          if (next_vector(idx)) begin
            exp_q.push_back(gd);
            idx_q.push_back(idx);
            in_valid <= 1'b1;
            sent++;
          end else begin
            eof = 1;
            in_valid <= 1'b0;
            if (exp_q.size() == 0) finish();
          end
        end else begin
          in_valid <= 1'b0;
        end
      end
      out_ready <= !bp || $urandom % 4 != 0;
      if (count == 0) finish();
    end
  end
endmodule
