// mma_bench: the testbench of one unit instance (fda_unit or gdfs_unit, ALGO 0/1).  Only the instance
// the top selects gets a clock.  Every cycle it offers the next vector of the (instruction, seed) stream
// (mmaref_tb_gen), computes the expected D through the model (mmaref_dpi_dot), and checks every D the
// unit returns, in order, bit for bit.  Plusargs: +seed=N +count=N +first=N (first vector index)
// +bp (random backpressure and bubbles on the handshake) +replay=N (vector N alone, for a waveform).
module mma_bench #(
  // the unit (tb/gen_configs.py writes every value): ALGO 0 fda_unit, 1 gdfs_unit; its parameters
  parameter int ALGO, K, F, CHAIN, AB_MASK, C_MASK, OUT_MASK, BLOCK,
  parameter int UNIT,
  parameter int MUTANT   // 1: this instance deliberately differs from the instruction it runs
) (
  input logic clk
);
  import mmaref_dpi_pkg::*;
  import tb_support_pkg::*;
  localparam int AW  = ALGO == 1 ? 4 : mma_pkg::max_width(AB_MASK);
  localparam int NS  = ALGO == 1 ? K / 16 : (BLOCK > 0 ? K / BLOCK : 0);
  localparam int NSW = NS > 0 ? NS : 1;

  // ---- the unit ----
  logic rst_n = 1'b0;
  logic in_valid = 1'b0, out_ready = 1'b0;
  logic in_ready, out_valid;
  logic [mma_pkg::FMT_BITS-1:0] fmt_a, fmt_b, fmt_c, fmt_s;
  logic [mma_pkg::OUT_BITS-1:0] out_kind;
  logic block32;
  logic [31:0] c, d;
  logic [K*AW-1:0] a, b;
  logic [NSW*8-1:0] sa, sb;

  // the unit's ports connect by name (.*) to the signals above
  generate
    if (ALGO == 1) begin : g_gdfs
      gdfs_unit #(.K(K), .F(F)) dut (.*);
    end else begin : g_fda
      fda_unit #(.K(K), .F(F), .CHAIN(CHAIN), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK),
                 .BLOCK(BLOCK)) dut (.*);
    end
  endgenerate

  // ---- stimulus and checking ----
  int h = -1;
  bit started = 0, bp = 0, replay = 0;
  longint unsigned seed = 1, count = 100000, first = 0, sent = 0, checked = 0, mismatches = 0;
  real t0;
  longint unsigned exp_q[$], idx_q[$];
  bit [32*MAX_K-1:0] ga, gb;
  bit [32*MAX_SCALE-1:0] gsa, gsb;
  int unsigned gc, gd;

  function automatic void expect_param(string key, int want);
    int got = mmaref_dpi_param(h, key);
    if (got != want)
      $fatal(1, "config check: %s has %s = %0d, unit %0d is built for %0d", mmaref_dpi_label(h), key, got,
             UNIT, want);
  endfunction

  function automatic void expect_in_mask(string key, int mask);
    int got = mmaref_dpi_param(h, key);
    if (got < 0 || !mask[got])
      $fatal(1, "config check: %s has %s = %0d, outside unit %0d's mask 0x%0h", mmaref_dpi_label(h), key,
             got, UNIT, mask);
  endfunction

  task automatic start();
    h = mmaref_tb_selected();
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("count=%d", count)) count = 100000;
    if (!$value$plusargs("first=%d", first)) first = 0;
    bp = $test$plusargs("bp");
    if ($value$plusargs("replay=%d", first)) begin  // the waveform re-run of one vector
      replay = 1;
      count = 1;
    end
    // the unit must be the hardware the instruction describes (a mutant differs on purpose)
    expect_param("algo", ALGO == 1 ? mma_pkg::ALGO_GDFS : mma_pkg::ALGO_FDA);
    expect_param("align_products", mma_pkg::ROUND_RZ);  // the units truncate when aligning
    expect_param("align_c", mma_pkg::ROUND_RZ);
    expect_param("flush", 0);
    expect_param("scales", ALGO == 1 ? mma_pkg::SCALES_PER_GROUP
                           : BLOCK > 0 ? mma_pkg::SCALES_PER_PRODUCT : mma_pkg::SCALES_NONE);
    if (MUTANT == 0) begin
      expect_param("k", K);
      expect_param("frac_bits", F);
      expect_param("passes", CHAIN);
    end
    if (ALGO == 1) begin
      expect_param("group", 16);
      expect_param("a", mma_pkg::FMT_E2M1);
      expect_param("b", mma_pkg::FMT_E2M1);
      expect_param("out", mma_pkg::OUT_F32_RZ);
      expect_in_mask("scale", (1 << mma_pkg::FMT_UE8M0) | (1 << mma_pkg::FMT_UE4M3));
      fmt_s   = mma_pkg::FMT_BITS'(mmaref_dpi_param(h, "scale"));
      block32 = mmaref_dpi_param(h, "block_size") == 32;
    end else begin
      expect_param("block_size", BLOCK);
      expect_in_mask("a", AB_MASK);
      expect_in_mask("b", AB_MASK);
      expect_in_mask("c", C_MASK);
      expect_in_mask("out", OUT_MASK);
      if (BLOCK > 0) expect_param("scale", mma_pkg::FMT_UE8M0);
      fmt_a    = mma_pkg::FMT_BITS'(mmaref_dpi_param(h, "a"));
      fmt_b    = mma_pkg::FMT_BITS'(mmaref_dpi_param(h, "b"));
      fmt_c    = mma_pkg::FMT_BITS'(mmaref_dpi_param(h, "c"));
      out_kind = mma_pkg::OUT_BITS'(mmaref_dpi_param(h, "out"));
    end
    check_open_array_entry();
    t0 = mmaref_tb_seconds();
  endtask

  // The open-array entry point must agree with the packed one (on the first vector of the run).
  function automatic void check_open_array_entry();
    longint unsigned xa[K], xb[K], xsa[NSW], xsb[NSW], d1;
    int unsigned d2;
    int s1, s2;
    void'(mmaref_tb_gen(h, seed, first, gc, ga, gb, gsa, gsb));
    for (int i = 0; i < K; i++) begin
      xa[i] = 64'(ga[i*32 +: 32]);
      xb[i] = 64'(gb[i*32 +: 32]);
    end
    for (int j = 0; j < NSW; j++) begin
      xsa[j] = 64'(gsa[j*32 +: 32]);
      xsb[j] = 64'(gsb[j*32 +: 32]);
    end
    s1 = mmaref_dpi_dot_arr(h, 64'(gc), xa, xb, xsa, xsb, d1);
    s2 = mmaref_dpi_dot(h, gc, ga, gb, gsa, gsb, d2);
    if (s1 != 0 || s2 != 0 || d1 != 64'(d2))
      $fatal(1, "DPI entry points disagree: open arrays %0d/0x%0h, packed %0d/0x%0h", s1, d1, s2, d2);
  endfunction

  task automatic finish();
    real dt = mmaref_tb_seconds() - t0;
    if (!replay)
      $display("RESULT %s unit=%0d%s vectors=%0d mismatches=%0d directed=%0d seconds=%.3f rate=%.0f",
               mmaref_dpi_label(h), UNIT, MUTANT != 0 ? " mutant" : "", checked, mismatches,
               mmaref_tb_directed_count(h), dt, dt > 0 ? checked / dt : 0.0);
    $finish;
  endtask

  always @(posedge clk) begin
    if (!started) begin
      start();
      started <= 1'b1;
    end else begin
      rst_n <= 1'b1;
      // monitor: results come back in order
      if (out_valid && out_ready) begin
        longint unsigned want = exp_q.pop_front(), idx = idx_q.pop_front();
        if (64'(d) != want) begin
          mismatches++;
          mmaref_tb_report(h, $sformatf("%0d%s", UNIT, MUTANT != 0 ? " (mutant)" : ""), seed, idx, d);
          mmaref_tb_fail(idx);
        end
        checked++;
        if (checked == count) finish();
      end
      // driver: offer the next vector once the current one is taken
      if (rst_n && (!in_valid || in_ready)) begin
        if (sent < count && !(bp && $urandom % 5 == 0)) begin
          longint unsigned idx = first + sent;
          int st;
          void'(mmaref_tb_gen(h, seed, idx, gc, ga, gb, gsa, gsb));
          st = mmaref_dpi_dot(h, gc, ga, gb, gsa, gsb, gd);
          if (st != 0) $fatal(1, "mmaref_dpi_dot failed (status %0d) at index %0d", st, idx);
          exp_q.push_back(64'(gd));
          idx_q.push_back(idx);
          c <= gc;
          for (int i = 0; i < K; i++) begin
            a[i*AW +: AW] <= ga[i*32 +: AW];
            b[i*AW +: AW] <= gb[i*32 +: AW];
          end
          for (int j = 0; j < NSW; j++) begin
            sa[j*8 +: 8] <= gsa[j*32 +: 8];
            sb[j*8 +: 8] <= gsb[j*32 +: 8];
          end
          in_valid <= 1'b1;
          sent++;
        end else begin
          in_valid <= 1'b0;
        end
      end
      out_ready <= !bp || $urandom % 4 != 0;
      if (count == 0) finish();
    end
  end
endmodule
