// mma_bench: the testbench of one unit instance (fda_unit, gdfs_unit, m3xu_unit, naive_fp32_unit,
// fdrda_unit, gps_unit or sfma_unit: KIND, a unit kind of the model's schema, mma_pkg::UNIT_KIND_*).
// Only the instance the top selects gets a clock.  Every cycle it offers the next vector of
// the (instruction, seed) stream (mmaref_tb_gen; M3XU units: mmaref_tb_gen_packed, the operand word
// packed at the format's width; SFMA units too, one value a lane) with the model's D (computed 256
// vectors at a time by mmaref_dot_batch, tb/tb_support.c), and checks every D the unit returns, in
// order, bit for bit.  The loop -- plusargs, driver, monitor, stall watchdog, cycles/op and latency on
// the RESULT line (M3XU's 1, 2 or 4 steps) -- is tb/bench_loop.svh, shared with make verify's bench;
// here: the unit's instance, its checks against the instruction at the start, and its port packing.
// `build/rtl/obj/Vtb_mma +cfg=N +pipe` is a device for `mmaref probe` (bench_loop.svh: +pipe).
module mma_bench #(
  // the unit (tb/gen_configs.py writes every value): KIND, its kind (mma_pkg::UNIT_KIND_*, the schema's
  // unit catalogue); its parameters (M3XU: K = lanes, F = F_HI = F_w, CHAIN = the most steps)
  parameter int KIND, K, F, CHAIN, AB_MASK, C_MASK, OUT_MASK, BLOCK,
  parameter int MUL_W = 0, PIPE = 0, F_LO = 0, OUT_LO = 0, OUT_HI = 0,  // M3XU units only
  // AMD units: the table's pass kind (-1: FDA, GDFS or SFMA by KIND), GPS's group, flushing, Step 6 roundings
  parameter int PASS_ALGO = -1, GROUP = 0, FLUSH = 0,
  parameter int ZERO_EXP = 0,  // fda_unit's: a zero term's own exponent (Hopper)
  // fda_unit's FP8 mma.sync schedule: products in runs dealt to the passes, f16 operands, C added last
  parameter int K_RUN = 0, AB_F16 = 0, C_LAST = 0,
  parameter int ALIGN_P = mma_pkg::ROUND_RZ, ALIGN_C = mma_pkg::ROUND_RZ,
  parameter int UNIT,
  parameter int MUTANT   // non-zero: this instance deliberately differs from the instruction it runs
                         // (passed to m3xu_unit, whose MUTANT codes say how)
) (
  input logic clk
);
  import mmaref_dpi_pkg::*;
  import tb_support_pkg::*;
  localparam bit GDFS = KIND == mma_pkg::UNIT_KIND_GDFS;
  localparam int AW  = GDFS ? mma_pkg::fmt_width(mma_pkg::FMT_E2M1) : mma_pkg::max_width(AB_MASK);
  localparam int NS  = GDFS ? K / mma_pkg::GDFS_GROUP : (BLOCK > 0 ? K / BLOCK : 0);
  localparam int NSW = NS > 0 ? NS : 1;
  localparam bit M3XU = KIND == mma_pkg::UNIT_KIND_M3XU || KIND == mma_pkg::UNIT_KIND_NAIVE_FP32;
  localparam bit SFMA = KIND == mma_pkg::UNIT_KIND_SFMA;
  localparam int ALIGN_UNIT = mma_pkg::unit_kind_align(KIND);  // -1: the unit's parameters say
  localparam bit PACKED = M3XU || SFMA;  // operands, C and D through mmaref_tb_gen_packed (64-bit C, D)
  // operand words: M3XU's L x 16 bits, the naive unit's L x 32, else K lanes of AW; C and D 32 bits
  // (64 for an M3XU unit with f32c; an SFMA unit: AW, f32 in the low end)
  localparam int ABW = KIND == mma_pkg::UNIT_KIND_M3XU ? K * mma_pkg::max_width(AB_MASK & ~mma_pkg::M3XU_WIDE_FMTS)
                     : KIND == mma_pkg::UNIT_KIND_NAIVE_FP32 ? K * mma_pkg::M3XU_PART_W : K * AW;
  localparam int DW  = KIND == mma_pkg::UNIT_KIND_M3XU && AB_MASK[mma_pkg::FMT_F32C] ? mma_pkg::fmt_width(mma_pkg::FMT_F32C)
                     : SFMA ? AW : 32;

  // ---- the unit ----
  logic rst_n = 1'b0;
  logic in_valid = 1'b0, out_ready = 1'b0;
  logic in_ready, out_valid;
  logic [mma_pkg::FMT_BITS-1:0] fmt_a, fmt_b, fmt_c, fmt_s, fmt;
  logic [mma_pkg::OUT_BITS-1:0] out_kind;
  logic block32, busy;
  logic [DW-1:0] c, d;
  logic [ABW-1:0] a, b;
  logic [NSW*8-1:0] sa, sb;

  // the unit's ports connect by name (.*) to the signals above
  generate
    if (SFMA) begin : g_sfma
      sfma_unit #(.K(K), .OUT_MASK(OUT_MASK), .MUTANT(MUTANT)) dut (.*);
    end else if (KIND == mma_pkg::UNIT_KIND_GPS) begin : g_gps
      gps_unit #(.K(K), .G(GROUP), .FLUSH(FLUSH), .AB_MASK(AB_MASK), .OUT(mma_pkg::first_set(OUT_MASK))) dut (.*);
    end else if (KIND == mma_pkg::UNIT_KIND_FDRDA) begin : g_fdrda
      fdrda_unit #(.K(K), .F(F), .CHAIN(CHAIN), .ALGO(PASS_ALGO), .AB_MASK(AB_MASK), .ALIGN_DOT(ALIGN_P),
                   .ALIGN_C(ALIGN_C), .OUT(mma_pkg::first_set(OUT_MASK))) dut (.*);
    end else if (KIND == mma_pkg::UNIT_KIND_NAIVE_FP32) begin : g_naive
      naive_fp32_unit #(.L(K), .AB_MASK(AB_MASK), .F_LO(F_LO), .F_HI(F), .OUT_LO(OUT_LO), .OUT_HI(OUT_HI)) dut (.*);
    end else if (KIND == mma_pkg::UNIT_KIND_M3XU) begin : g_m3xu
      m3xu_unit #(.L(K), .MUL_W(MUL_W), .AB_MASK(AB_MASK), .F_LO(F_LO), .F_HI(F), .OUT_LO(OUT_LO),
                  .OUT_HI(OUT_HI), .PIPE(PIPE), .MUTANT(MUTANT)) dut (.*);
    end else if (GDFS) begin : g_gdfs
      gdfs_unit #(.K(K), .F(F)) dut (.*);
    end else begin : g_fda
      fda_unit #(.K(K), .F(F), .CHAIN(CHAIN), .AB_MASK(AB_MASK), .C_MASK(C_MASK), .OUT_MASK(OUT_MASK),
                 .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP), .K_RUN(K_RUN), .AB_F16(AB_F16), .C_LAST(C_LAST)) dut (.*);
    end
  endgenerate

  // ---- the bench loop (tb/bench_loop.svh): start, driver, monitor, watchdog, RESULT ----
  // the unit's number, a mutant marked: in the STALL, EXTRA and mismatch lines, and RESULT's unit=
  localparam string UNIT_NAME = $sformatf("%0d%s", UNIT, MUTANT != 0 ? " (mutant)" : "");
  localparam string RESULT_UNIT = $sformatf("%0d%s", UNIT, MUTANT != 0 ? " mutant" : "");
  localparam string SHOW_LABEL = "rtl";
`include "bench_loop.svh"
  // the width of a value of A as the generator and the pipe pack it: M3XU and SFMA units the instruction's
  // format's (mmaref_tb_gen_packed), the others 32 (mmaref_tb_gen's lanes)
  int lane_w = 32;

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

  // The start of a run: the instruction the top selected, which the unit must be the hardware of (a
  // mutant differs on purpose), and the DPI entry points held against each other on the first vector.
  task automatic bench_start();
    h = mmaref_tb_selected();
    // the unit kind's own alignment (the catalogue's: NVIDIA units truncate, IEEE operations round to
    // nearest even), or, for a unit whose parameters set it (FDRDA), the table's Step 6 roundings it was
    // built with (a mutant differs on purpose)
    if (MUTANT == 0) begin
      expect_param("align_products", ALIGN_UNIT >= 0 ? ALIGN_UNIT : ALIGN_P);
      expect_param("align_c", ALIGN_UNIT >= 0 ? ALIGN_UNIT : ALIGN_C);
      expect_param("flush", FLUSH);
    end
    if (PASS_ALGO >= 0) expect_param("group", GROUP);
    expect_param("scales", GDFS ? mma_pkg::SCALES_PER_GROUP
                           : BLOCK > 0 ? mma_pkg::SCALES_PER_PRODUCT : mma_pkg::SCALES_NONE);
    if (M3XU) start_m3xu();
    else expect_param("algo", PASS_ALGO >= 0 ? PASS_ALGO : GDFS ? mma_pkg::ALGO_GDFS
                              : SFMA ? mma_pkg::ALGO_SFMA : mma_pkg::ALGO_FDA);
    if (M3XU) begin
      // checked by start_m3xu
    end else if (MUTANT == 0) begin
      expect_param("k", K);
      expect_param("frac_bits", F);
      expect_param("passes", CHAIN);
      if (KIND == mma_pkg::UNIT_KIND_FDA) begin  // fda_unit: how the products are dealt, converted, and where C enters
        expect_param("k_run", K_RUN);
        expect_param("k_stride", K_RUN * CHAIN);
        expect_param("ab_f16", AB_F16);
        expect_param("c_last", C_LAST);
        expect_param("zero_term_exp", ZERO_EXP);
      end
    end
    if (M3XU) begin
      // the mode is the operand format
    end else if (GDFS) begin
      expect_param("group", mma_pkg::GDFS_GROUP);
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
      if (SFMA) begin  // A, B, C and D in the output kind's format, which the unit takes from out_kind
        expect_param("a", mma_pkg::out_format(int'(out_kind)));
        expect_param("b", mma_pkg::out_format(int'(out_kind)));
        expect_param("c", mma_pkg::out_format(int'(out_kind)));
        expect_param("d", mma_pkg::out_format(int'(out_kind)));
        lane_w = mma_pkg::fmt_width(mma_pkg::out_format(int'(out_kind)));
      end
    end
    if (pipe) begin
      // the vectors come from stdin
    end else if (PACKED) check_packed_entry();
    else check_open_array_entry();
  endtask

  // An M3XU unit runs the m3xu instructions (and the naive unit the f32 one with K = its lanes, a
  // schedule built at run time): one pass, FDA with F_LO and OUT_LO for f16/bf16, M3XU with F and
  // OUT_HI (f32c: the complex kind of OUT_HI's rounding) for the wide modes; K = L, L/2 or L/4.
  task automatic start_m3xu();
    int f, o;
    bit wide, cplx;
    expect_in_mask("a", AB_MASK);
    f = mmaref_dpi_param(h, "a");
    fmt = mma_pkg::FMT_BITS'(f);
    lane_w = mma_pkg::fmt_width(f);
    expect_param("b", f);
    wide = mma_pkg::M3XU_WIDE_FMTS[f];
    cplx = f == mma_pkg::FMT_F32C;
    expect_param("c", wide ? f : mma_pkg::FMT_F32);
    expect_param("d", wide ? f : mma_pkg::FMT_F32);
    expect_param("passes", 1);
    expect_param("block_size", 0);
    expect_param("algo", wide ? mma_pkg::ALGO_M3XU : mma_pkg::ALGO_FDA);
    expect_param("frac_bits", wide ? F : F_LO);
    expect_param("k", KIND == mma_pkg::UNIT_KIND_NAIVE_FP32 || !wide ? K : cplx ? K / 4 : K / 2);
    o = mmaref_dpi_param(h, "out");
    if (!wide) expect_param("out", OUT_LO);
    else if (!cplx) expect_param("out", OUT_HI);
    else if (o < 0 || mma_pkg::out_format(o) != f || mma_pkg::out_rounding(o) != mma_pkg::out_rounding(OUT_HI)
             || mma_pkg::out_man_bits(o) != mma_pkg::out_man_bits(OUT_HI)
             || mma_pkg::out_signed_zero(o) != mma_pkg::out_signed_zero(OUT_HI))
      $fatal(1, "config check: %s has out = %0d, not the complex kind of unit %0d's %0d", mmaref_dpi_label(h),
             o, UNIT, OUT_HI);
  endtask

  // The packed operand word must hold what the open-array entry point computes on (first vector).
  function automatic void check_packed_entry();
    int k = mmaref_dpi_param(h, "k"), w = lane_w;
    longint unsigned xa[MAX_K], xb[MAX_K], xs[1], d1;  // the model reads k of them
    int s1;
    if (mmaref_tb_gen_packed(h, lane_w, seed, first, gc, ga, gb, gd) < 0)
      $fatal(1, "mmaref_tb_gen_packed failed on %s", mmaref_dpi_label(h));
    xs[0] = 0;
    for (int i = 0; i < k; i++) begin
      xa[i] = 64'(ga >> (i * w)) & (w == 64 ? ~64'd0 : (64'd1 << w) - 64'd1);
      xb[i] = 64'(gb >> (i * w)) & (w == 64 ? ~64'd0 : (64'd1 << w) - 64'd1);
    end
    s1 = mmaref_dpi_dot_arr(h, gc, xa, xb, xs, xs, d1);
    if (s1 != 0 || d1 != gd)
      $fatal(1, "DPI entry points disagree: open arrays %0d/0x%0h, packed 0x%0h", s1, d1, gd);
  endfunction

  // The open-array entry point must agree with the packed one, and both with the window's D (mmaref_dot
  // against mmaref_dot_batch), on the first vector of the run.
  function automatic void check_open_array_entry();
    longint unsigned xa[K], xb[K], xsa[NSW], xsb[NSW], d1;
    int unsigned d2;
    int s1, s2;
    if (mmaref_tb_gen(h, seed, first, gc32, ga, gb, gsa, gsb, gd) < 0)
      $fatal(1, "mmaref_tb_gen failed on %s", mmaref_dpi_label(h));
    for (int i = 0; i < K; i++) begin
      xa[i] = 64'(ga[i*32 +: 32]);
      xb[i] = 64'(gb[i*32 +: 32]);
    end
    for (int j = 0; j < NSW; j++) begin
      xsa[j] = 64'(gsa[j*32 +: 32]);
      xsb[j] = 64'(gsb[j*32 +: 32]);
    end
    s1 = mmaref_dpi_dot_arr(h, 64'(gc32), xa, xb, xsa, xsb, d1);
    s2 = mmaref_dpi_dot(h, gc32, ga, gb, gsa, gsb, d2);
    if (s1 != 0 || s2 != 0 || d1 != 64'(d2) || d1 != gd)
      $fatal(1, "DPI entry points disagree: open arrays %0d/0x%0h, packed %0d/0x%0h, window 0x%0h", s1, d1, s2,
             d2, gd);
  endfunction

  // The next vector onto the ports: the operand words as the unit's ports hold them (M3XU: packed at the
  // format's width; SFMA: value i at lane_w bits to lane i, AW bits, the low end), else the 32-bit lanes
  // cut to AW bits (0: +pipe's stdin has ended).
  function automatic bit next_vector(longint unsigned idx);
    if (!fetch_vector(idx, PACKED, lane_w)) return 0;
    c <= DW'(gc);
    if (M3XU) begin
      a <= ga[ABW-1:0];
      b <= gb[ABW-1:0];
    end else if (SFMA) begin
      for (int i = 0; i < K; i++) begin
        a[i*AW +: AW] <= AW'(ga[i*lane_w +: 64] & (lane_w == 64 ? ~64'd0 : (64'd1 << lane_w) - 64'd1));
        b[i*AW +: AW] <= AW'(gb[i*lane_w +: 64] & (lane_w == 64 ? ~64'd0 : (64'd1 << lane_w) - 64'd1));
      end
    end else begin
      for (int i = 0; i < K; i++) begin
        a[i*AW +: AW] <= ga[i*32 +: AW];
        b[i*AW +: AW] <= gb[i*32 +: AW];
      end
    end
    for (int j = 0; j < NSW; j++) begin
      sa[j*8 +: 8] <= gsa[j*32 +: 8];
      sb[j*8 +: 8] <= gsb[j*32 +: 8];
    end
    return 1;
  endfunction
endmodule
