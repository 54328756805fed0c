// The scoreboard at work (docs/verify-your-design.md): transactions of Hopper HMMA.1688.F32
// (mma.m16n8k8.f32.f16.f16.f32, K = 8, F = 25) as two designs would answer them.  The expected values are
// the MMA-Sim paper's facts (the demo's first case), derived here:
//   c = 1.0, four products 2^-12 * 2^-13 = 2^-25 (f16 2^-12 = 0x0c00, 2^-13 = 0x0800), the other lanes 0.
//   Exact: 1 + 4 * 2^-25 = 1 + 2^-23 = 0x3f800001.  Hopper aligns every product to e_max = 0 keeping
//   F = 25 fractional bits: each 2^-25 survives -> 0x3f800001.  A design that keeps F = 24 (Turing's)
//   truncates each 2^-25 to 0 -> 0x3f800000.
//   c = -2.0 (0xc0000000), a = 1.5 (0x3e00) times b = 2.0 (0x4000) on lane 0: -2 + 3 = 1.0 = 0x3f800000
//   for both.
// The "design F=25" answers are right; the "design F=24" one is caught once.  Exits 0 when the
// scoreboard's counts are these.
module tb_scoreboard;
  import mma_scoreboard_pkg::*;

  initial begin
    mma_scoreboard sb;
    operands_t a, b;
    scales_t none;
    sb = new("hopper", "mma.m16n8k8.f32.f16.f16.f32");
    foreach (none[i]) none[i] = 0;

    // transaction 0 and 1: the precision case, answered by an F = 25 design and by an F = 24 design
    foreach (a[i]) begin a[i] = i < 4 ? 64'h0c00 : 0; b[i] = i < 4 ? 64'h0800 : 0; end  // lanes >= k unused
    void'(sb.check(64'h3f800000, a, b, none, none, 64'h3f800001));  // design F=25: right
    void'(sb.check(64'h3f800000, a, b, none, none, 64'h3f800000));  // design F=24: caught
    // transaction 2: -2 + 1.5 * 2 = 1, the same for both
    foreach (a[i]) begin a[i] = 0; b[i] = 0; end
    a[0] = 64'h3e00;
    b[0] = 64'h4000;
    void'(sb.check(64'hc0000000, a, b, none, none, 64'h3f800000));
    sb.report();
    if (sb.checked != 3 || sb.mismatches != 1) $fatal(1, "tb_scoreboard: expected 3 checked, 1 mismatch");
    $finish;
  end
endmodule
