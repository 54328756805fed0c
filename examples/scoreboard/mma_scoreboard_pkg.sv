// mma_scoreboard: the mmaref golden model as the reference of a scoreboard, for any testbench that has DPI-C
// (docs/verify-your-design.md).  Construct it once per instruction (the lookup happens once); call check()
// for every transaction the design completes, with the operands as raw bits (one element per longint,
// low bits used: f16 in 16 bits, f32 in 32, f32c in 64) and the design's D.  A and B are the first k
// elements of fixed arrays of MAX_K, the scales the first n_scales of MAX_SCALE (Verilator 5.006 passes
// fixed-size arrays, not dynamic ones, to a DPI open array).  A mismatch prints the instruction, the
// transaction number, every operand and both D; report() prints the totals.
package mma_scoreboard_pkg;
  import mmaref_dpi_pkg::*;

  typedef longint unsigned operands_t[MAX_K];
  typedef longint unsigned scales_t[MAX_SCALE];

  /* verilator lint_off DECLFILENAME */
  class mma_scoreboard;
    int handle;                    // the model's handle of the instruction
    string label;                  // "arch:name"
    int k;                         // products per dot-add (elements of A's row and B's column)
    int n_scales;                  // block scale factors per row/column (0: none)
    longint unsigned checked, mismatches;

    function new(string arch, string instr);
      int block;
      handle = mmaref_dpi_lookup(arch, instr);
      if (handle < 0) $fatal(1, "mma_scoreboard: no instruction %s %s (mmaref list shows them)", arch, instr);
      label = mmaref_dpi_label(handle);
      k = mmaref_dpi_param(handle, "k");
      block = mmaref_dpi_param(handle, "block_size");
      n_scales = block > 0 ? k / block : 0;
      checked = 0;
      mismatches = 0;
    endfunction

    // One transaction: D = C + sum A[i] B[i] over i < k (scaled by sa, sb when the instruction has block
    // scales; their contents are ignored otherwise).  Returns 1 when the design's D is the model's, bit
    // for bit.
    function bit check(longint unsigned c, operands_t a, operands_t b, scales_t sa, scales_t sb,
                       longint unsigned d_dut);
      longint unsigned d_model;
      int status;
      status = mmaref_dpi_dot_arr(handle, c, a, b, sa, sb, d_model);
      if (status != 0) $fatal(1, "mma_scoreboard %s: the model refused transaction %0d (status %0d)", label, checked, status);
      checked++;
      if (d_model == d_dut) return 1;
      mismatches++;
      $display("MISMATCH %s transaction %0d: design d=%h model d=%h", label, checked - 1, d_dut, d_model);
      $display("  c=%h", c);
      for (int i = 0; i < k; i++) $display("  a[%0d]=%h b[%0d]=%h", i, a[i], i, b[i]);
      for (int i = 0; i < n_scales; i++) $display("  sa[%0d]=%h sb[%0d]=%h", i, sa[i], i, sb[i]);
      return 0;
    endfunction

    function void report();
      $display("SCOREBOARD %s: %0d checked, %0d mismatches", label, checked, mismatches);
    endfunction
  endclass
  /* verilator lint_on DECLFILENAME */
endpackage
