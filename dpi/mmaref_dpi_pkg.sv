// SystemVerilog side of the DPI-C bridge to the mmaref golden model (dpi/mmaref_dpi.c; the model itself
// links in as the gcc-built build/libmmaref.a).  The testbench's own imports (stimulus, reports) are in
// tb/tb_support_pkg.sv.
// Lanes of packed vectors are 32 bits each: lane i of `a` is a[32*i +: 32], raw bits in the low end.
package mmaref_dpi_pkg;
  localparam int MAX_K     = 64;
  localparam int MAX_SCALE = 8;

  // ---- wrappers over the public API (cmodel/include/mmaref.h) ----
  // Look an instruction up once: a handle >= 0, or -1 (the reason is printed).
  import "DPI-C" function int mmaref_dpi_lookup(input string arch, input string name);
  // The same one-pass instruction with k products (its pass takes all k): a schedule built at run time,
  // for a design the table does not list (M3XU's naive FP32 unit: the f32 mode with K = 8).  A handle
  // named "NAME[k=K]", or -1 (the reason is printed).
  import "DPI-C" function int mmaref_dpi_with_k(input int h, input int k);
  // One of the instruction's parameters: "k" "m" "n" "frac_bits" "passes" "block_size" "group" "a" "b"
  // "c" "d" "scale" (mmaref_format codes) "out" (mmaref_output) "algo" (mmaref_algo), the first pass's
  // "k_run" "k_stride" "ab_f16" "zero_term_exp", "c_last"; -1 if unknown (zero_term_exp may be -133).
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
endpackage
