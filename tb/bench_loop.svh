// bench_loop.svh: the bench loop of tb/mma_bench.sv (the project's units) and tb/verify/verify_top.sv
// (make verify's bench for any unit meeting the port contract), included in each after the unit's instance.
// The start of a run (its plusargs), the driver (the next vector offered once the current one is taken,
// random bubbles with +bp), the monitor (every D in order against the queue of expected D's, bit for bit;
// a result with no vector outstanding fails the run with EXTRA, the +show and +pipe lines), the stall
// watchdog (STALL_CYCLES without a result fails the run: a unit that drops one would otherwise hang), the
// counters of the RESULT line (cycles between handshakes, from a handshake to its result) and the finish.
// Plusargs: +seed=N +count=N +first=N (first vector index) +bp (random backpressure and bubbles on the
// handshake) +replay=N (vector N alone, for a waveform) +show (print every D, the unit's and the model's;
// with +first=N > 0 a replay, whose coverage holes are not judged: tb/tb_main.cpp)
// +pipe (the vectors are stdin's lines in `mmaref batch`'s format, the unit's D's go to stdout, unchecked:
// tb/tb_pipe.c).
//
// The including module (which imports mmaref_dpi_pkg and tb_support_pkg) declares before it the unit's
// handshake and D: rst_n, in_valid and out_ready (driven here), in_ready, out_valid and d; and
//   localparam string UNIT_NAME    the unit as the STALL, EXTRA and mismatch lines name it
//   localparam string RESULT_UNIT  ... and the RESULT line's unit=
//   localparam string SHOW_LABEL   the unit's side of a +show D line
// and it defines
//   task bench_start()             h, the instruction's handle, and the bench's own checks and run-time
//                                  selects (called once the plusargs are read)
//   function bit next_vector(idx)  vector idx (or, +pipe, the next stdin line) onto the unit's ports
//                                  (nonblocking) with the model's D in gd; 0: stdin has ended (it
//                                  gets the vector from fetch_vector, below, as the unit packs it)
  int h = -1;
  bit started = 0, bp = 0, replay = 0, show = 0, pipe = 0, eof = 0;
  longint unsigned seed = 1, count = 100000, first = 0, sent = 0, checked = 0, mismatches = 0;
  real t0;
  longint unsigned exp_q[$], idx_q[$];
  // the generator's and the pipe's outputs, for next_vector: 32-bit lanes or packed words, C, the model's D
  bit [32*MAX_K-1:0] ga, gb;
  bit [32*MAX_SCALE-1:0] gsa, gsb;
  int unsigned gc32;
  longint unsigned gc, gd;
  // cycles: the clock count, the first and last handshake, the first result taken
  longint unsigned cycle = 0, accepts = 0, first_accept = 0, last_accept = 0, first_result = 0;
  // a unit that loses or withholds a result must not hang the run: this many cycles without one fail it
  localparam int STALL_CYCLES = 10000;
  longint unsigned last_progress = 0;
  localparam int STDERR = 32'h8000_0002;

  task automatic start();
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
    bench_start();
    t0 = mmaref_tb_seconds();
  endtask

  task automatic finish();
    real dt = mmaref_tb_seconds() - t0;
    if (pipe) mmaref_tb_pipe_end();
    else if (!replay)
      // cycles/op is the handshakes' spacing: "-" where fewer than two were taken (a replay of one vector)
      $display("RESULT %s unit=%s vectors=%0d mismatches=%0d directed=%0d seconds=%.3f rate=%.0f cycles/op=%s latency=%0d",
               mmaref_dpi_label(h), RESULT_UNIT, checked, mismatches, mmaref_tb_directed_count(h), dt,
               dt > 0 ? checked / dt : 0.0,
               accepts > 1 ? $sformatf("%.3f", real'(last_accept - first_accept) / real'(accepts - 1)) : "-",
               first_result - first_accept);
    $finish;
  endtask

  // The next vector for next_vector: vector idx of the stream with the model's D in gd, as operand words
  // packed at the format's width (words: mmaref_tb_gen_packed, instructions without scales) or as 32-bit
  // lanes with scales (mmaref_tb_gen); +pipe: the next stdin line, lane_w bits a value (0: none left).
  function automatic bit fetch_vector(longint unsigned idx, bit words, int lane_w);
    if (pipe) begin
      if (mmaref_tb_pipe_read(h, lane_w, gc, ga, gb, gsa, gsb) == 0) return 0;
      gd = 0;
    end else if (words) begin
      if (mmaref_tb_gen_packed(h, lane_w, seed, idx, gc, ga, gb, gd) < 0)
        $fatal(1, "mmaref_tb_gen_packed failed at index %0d", idx);
    end else begin
      if (mmaref_tb_gen(h, seed, idx, gc32, ga, gb, gsa, gsb, gd) < 0)
        $fatal(1, "mmaref_tb_gen failed at index %0d", idx);
      gc = 64'(gc32);
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
                  mmaref_dpi_label(h), UNIT_NAME, STALL_CYCLES, exp_q.size(), idx_q[0]);
        mismatches++;
        mmaref_tb_fail(idx_q[0]);
        finish();
      end
      // monitor: results come back in order, one per vector
      if (out_valid && out_ready) begin
        if (exp_q.size() == 0) begin
          $fdisplay(STDERR, "EXTRA %s unit %s: a result 0x%0h with no vector outstanding (after %0d results)",
                    mmaref_dpi_label(h), UNIT_NAME, d, checked);
          mismatches++;
          mmaref_tb_fail(first + checked);
          finish();
        end else begin
          longint unsigned want = exp_q.pop_front(), idx = idx_q.pop_front();
          if (pipe) mmaref_tb_pipe_write(h, 64'(d));
          else begin
            if (show) $display("D %s index=%0d %s=0x%0h model=0x%0h", mmaref_dpi_label(h), idx, SHOW_LABEL, d, want);
            if (64'(d) != want) begin
              mismatches++;
              mmaref_tb_class_mismatch(h, seed, idx);
              mmaref_tb_report(h, UNIT_NAME, seed, idx, 64'(d));
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
