// SystemVerilog side of the testbench support (tb/tb_support.c, compiled into the DPI library with the
// bridge of dpi/): stimulus from the model's generator, mismatch reports, timing.
// Lanes of packed vectors are 32 bits each, as in mmaref_dpi_pkg: lane i of `a` is a[32*i +: 32].
package tb_support_pkg;
  import mmaref_dpi_pkg::MAX_K;
  import mmaref_dpi_pkg::MAX_SCALE;

  // Vector `idx` of the (handle, seed) stream: the directed vectors first, then seeded random ones
  // (mmaref_gen_vector's mixed stream).  Returns the vector's kind (mmaref_gen_kind: 0 raw, 1 cluster,
  // 2 cancel, 3 special, 4 extreme, 5 directed); lanes beyond K and scale slots beyond K/block hold junk.
  import "DPI-C" function int mmaref_tb_gen(input int h, input longint unsigned seed,
      input longint unsigned idx, output int unsigned c,
      output bit [32*MAX_K-1:0] a, output bit [32*MAX_K-1:0] b,
      output bit [32*MAX_SCALE-1:0] sa, output bit [32*MAX_SCALE-1:0] sb);
  import "DPI-C" function int mmaref_tb_directed_count(input int h);
  // Print a mismatch: configuration, operands decoded, both results, seed and index.
  import "DPI-C" function void mmaref_tb_report(input int h, input string unit,
      input longint unsigned seed, input longint unsigned idx, input int unsigned got);
  // Remember the first failing index (the C++ main re-runs it with an FST waveform).
  import "DPI-C" function void mmaref_tb_fail(input longint unsigned idx);
  import "DPI-C" function real mmaref_tb_seconds();
  // The configuration the top selected (arch:name), and its handle, for the bench instances.
  import "DPI-C" function void mmaref_tb_select(input int h);
  import "DPI-C" function int mmaref_tb_selected();
endpackage
