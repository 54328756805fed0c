// SystemVerilog side of the DPI-C bridge to the mmaref golden model (dpi/mmaref_dpi.c,
// dpi/mmaref_tbgen.c; the model itself links in as the gcc-built build/libmmaref.a).
// Lanes of packed vectors are 32 bits each: lane i of `a` is a[32*i +: 32], raw bits in the low end.
package mmaref_dpi_pkg;
  localparam int MAX_K     = 64;
  localparam int MAX_SCALE = 8;

  // ---- wrappers over the public API (cmodel/include/mmaref.h) ----
  // Look an instruction up once: a handle >= 0, or -1 (the reason is printed).
  import "DPI-C" function int mmaref_dpi_lookup(input string arch, input string name);
  // One of the instruction's parameters: "k" "m" "n" "frac_bits" "passes" "block_size" "group" "a" "b"
  // "c" "d" "scale" (mmaref_format codes) "out" (mmaref_output) "algo" (mmaref_algo); -1 if unknown.
  import "DPI-C" function int mmaref_dpi_param(input int h, input string key);
  // "arch:name" of a handle.
  import "DPI-C" function string mmaref_dpi_label(input int h);
  // d = c + sum a[k] b[k] (scaled), from packed vectors; returns 0, or the mmaref_status.
  import "DPI-C" function int mmaref_dpi_dot(input int h, input int unsigned c,
      input bit [32*MAX_K-1:0] a, input bit [32*MAX_K-1:0] b,
      input bit [32*MAX_SCALE-1:0] sa, input bit [32*MAX_SCALE-1:0] sb, output int unsigned d);
  // The same from open arrays (sa/sb may be empty when the instruction has no scales).
  import "DPI-C" function int mmaref_dpi_dot_arr(input int h, input longint unsigned c,
      input longint unsigned a[], input longint unsigned b[],
      input longint unsigned sa[], input longint unsigned sb[], output longint unsigned d);

  // ---- testbench support: stimulus, mismatch reports, timing ----
  // Vector `idx` of the (handle, seed) stream: directed vectors first, then seeded random ones.
  // Returns the vector's class (for statistics); lanes beyond K and scale slots beyond K/block hold junk.
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
