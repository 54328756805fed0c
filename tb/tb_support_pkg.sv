// SystemVerilog side of the testbench support (tb/tb_support.c, compiled into the DPI library with the
// bridge of dpi/): stimulus from the model's generator, mismatch reports, timing.
// Lanes of packed vectors are 32 bits each, as in mmaref_dpi_pkg: lane i of `a` is a[32*i +: 32].
package tb_support_pkg;
  import mmaref_dpi_pkg::MAX_K;
  import mmaref_dpi_pkg::MAX_SCALE;

  // Vector `idx` of the (handle, seed) stream: the directed vectors first, then seeded random ones
  // (mmaref_gen_vector's mixed stream), with the model's D.  The D's come a window of 256 vectors at a
  // time, [idx, idx + 256) from an index outside the handle's window, through one mmaref_dot_batch call;
  // any index, in any order, gives the same vector and D.  Returns the vector's kind (mmaref_gen_kind:
  // 0 raw, 1 cluster, 2 cancel, 3 special, 4 extreme, 5 directed), or -1 (a batch error, printed);
  // lanes beyond K and scale slots beyond K/block hold junk.
  import "DPI-C" function int mmaref_tb_gen(input int h, input longint unsigned seed,
      input longint unsigned idx, output int unsigned c,
      output bit [32*MAX_K-1:0] a, output bit [32*MAX_K-1:0] b,
      output bit [32*MAX_SCALE-1:0] sa, output bit [32*MAX_SCALE-1:0] sb, output longint unsigned d);
  // The same vector packed as a unit's operand word holds it (value i of A at a[i*w +: w], w = lane_w, at
  // least each operand format's width: an M3XU word of 8 f16, 4 f32 or 2 f32c; make verify's lanes of
  // the widest operand), with the model's D from the same window.  Returns the kind, or -1 (a lane
  // narrower than an operand, an instruction with scales, wider than the vectors, or a batch error).
  import "DPI-C" function int mmaref_tb_gen_packed(input int h, input int lane_w, input longint unsigned seed,
      input longint unsigned idx, output longint unsigned c,
      output bit [32*MAX_K-1:0] a, output bit [32*MAX_K-1:0] b, output longint unsigned d);
  // The directed vectors at the head of the stream (the library's mmaref_gen_directed_count).
  import "DPI-C" function int mmaref_tb_directed_count(input int h);
  // Print a mismatch: configuration, operands decoded, both results, seed and index.
  import "DPI-C" function void mmaref_tb_report(input int h, input string unit,
      input longint unsigned seed, input longint unsigned idx, input longint unsigned got);
  // Remember the first failing index (the C++ main re-runs it with an FST waveform).
  import "DPI-C" function void mmaref_tb_fail(input longint unsigned idx);
  import "DPI-C" function real mmaref_tb_seconds();
  // Pipe mode (tb/tb_pipe.c, +pipe): the next stdin line in `mmaref batch`'s format, A and B packed at
  // lane_w bits a value (32: mmaref_tb_gen's lanes), scales in 32-bit slots.  1, or 0 at the end of stdin
  // (a bad line exits with a one-line error).  Write D as batch does; flush at the end.
  import "DPI-C" function int mmaref_tb_pipe_read(input int h, input int lane_w, output longint unsigned c,
      output bit [32*MAX_K-1:0] a, output bit [32*MAX_K-1:0] b,
      output bit [32*MAX_SCALE-1:0] sa, output bit [32*MAX_SCALE-1:0] sb);
  import "DPI-C" function void mmaref_tb_pipe_write(input int h, input longint unsigned d);
  import "DPI-C" function void mmaref_tb_pipe_end();
  // Every vector offered is counted in the coverage bins (tb/tb_coverage.c, printed at the end); a vector
  // the unit got wrong is counted again in the bins' mismatches.
  import "DPI-C" function void mmaref_tb_class_mismatch(input int h, input longint unsigned seed,
      input longint unsigned idx);
  // Reachable coverage bins no vector hit (after the report), -1 before it or when none was classified.
  import "DPI-C" function int mmaref_tb_coverage_holes();
  // The configuration the top selected (arch:name), and its handle, for the bench instances.
  import "DPI-C" function void mmaref_tb_select(input int h);
  // a bad plusarg: the message on stderr, one line, and exit status 2
  import "DPI-C" function void mmaref_tb_arg_error(input string msg);
  import "DPI-C" function int mmaref_tb_selected();
endpackage
