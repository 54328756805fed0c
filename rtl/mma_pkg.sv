// mma_pkg: number-format parameters shared by every unit (in the manner of cvfpu's fpnew_pkg).
// Format codes are the mmaref_format enum of cmodel/include/mmaref.h, output codes mmaref_output, so a
// testbench can pass the model's values straight to the ports.  docs/algorithms.md has the encodings.
package mma_pkg;
  // ---- format codes (mmaref_format) ----
  localparam int FMT_F32   = 1;
  localparam int FMT_TF32  = 2;
  localparam int FMT_F16   = 3;
  localparam int FMT_BF16  = 4;
  localparam int FMT_E4M3  = 5;
  localparam int FMT_E5M2  = 6;
  localparam int FMT_E3M2  = 7;
  localparam int FMT_E2M3  = 8;
  localparam int FMT_E2M1  = 9;
  localparam int FMT_UE8M0 = 10;
  localparam int FMT_UE4M3 = 11;
  localparam int NUM_FMTS  = 12;

  // ---- output kinds (mmaref_output): how the fixed-point sum becomes D ----
  localparam int OUT_F32_RZ    = 0;  // f32, round toward zero, |x| >= 2^128 -> inf
  localparam int OUT_F32_E8M13 = 1;  // f32 bits, RZ keeping 13 fractional bits
  localparam int OUT_F16_RNE   = 2;  // f16, round to nearest even, overflow -> inf

  // ---- special-value encodings ----
  localparam int SPEC_IEEE = 0;  // all-ones exponent: inf (mantissa 0) or NaN
  localparam int SPEC_FN   = 1;  // no inf; all-ones exponent and mantissa is NaN (e4m3, ue4m3)
  localparam int SPEC_NONE = 2;  // every pattern finite (e3m2, e2m3, e2m1)
  localparam int SPEC_E8M0 = 3;  // powers of two 2^-127..2^127; 0xFF NaN; no zero

  // Exponent of a zero operand whatever its format (MMA-Sim convention, algorithms.md).
  localparam int ZERO_EXP = -126;
  // Signed exponent width used inside the units: products of scaled operands reach +-1016.
  localparam int EW = 12;

  // Storage width in bits.  TF32 arrives in 32 bits; its low 13 are dropped by the unpacker (Step 0).
  function automatic int fmt_width(input int f);
    case (f)
      FMT_F32, FMT_TF32: fmt_width = 32;
      FMT_F16, FMT_BF16: fmt_width = 16;
      FMT_E4M3, FMT_E5M2, FMT_UE8M0, FMT_UE4M3: fmt_width = 8;
      FMT_E3M2, FMT_E2M3: fmt_width = 6;
      default: fmt_width = 4;  // e2m1
    endcase
  endfunction

  function automatic int fmt_exp_bits(input int f);
    case (f)
      FMT_F32, FMT_TF32, FMT_BF16, FMT_UE8M0: fmt_exp_bits = 8;
      FMT_F16, FMT_E5M2: fmt_exp_bits = 5;
      FMT_E4M3, FMT_UE4M3: fmt_exp_bits = 4;
      FMT_E3M2: fmt_exp_bits = 3;
      default: fmt_exp_bits = 2;  // e2m3, e2m1
    endcase
  endfunction

  // Mantissa bits the datapath keeps (TF32: the 10 that survive Step 0).
  function automatic int fmt_man_bits(input int f);
    case (f)
      FMT_F32: fmt_man_bits = 23;
      FMT_TF32, FMT_F16: fmt_man_bits = 10;
      FMT_BF16: fmt_man_bits = 7;
      FMT_E4M3, FMT_E2M3, FMT_UE4M3: fmt_man_bits = 3;
      FMT_E5M2, FMT_E3M2: fmt_man_bits = 2;
      FMT_E2M1: fmt_man_bits = 1;
      default: fmt_man_bits = 0;  // ue8m0
    endcase
  endfunction

  function automatic int fmt_bias(input int f);
    case (f)
      FMT_F32, FMT_TF32, FMT_BF16, FMT_UE8M0: fmt_bias = 127;
      FMT_F16, FMT_E5M2: fmt_bias = 15;
      FMT_E4M3, FMT_UE4M3: fmt_bias = 7;
      FMT_E3M2: fmt_bias = 3;
      default: fmt_bias = 1;  // e2m3, e2m1
    endcase
  endfunction

  function automatic int fmt_specials(input int f);
    case (f)
      FMT_E4M3, FMT_UE4M3: fmt_specials = SPEC_FN;
      FMT_E3M2, FMT_E2M3, FMT_E2M1: fmt_specials = SPEC_NONE;
      FMT_UE8M0: fmt_specials = SPEC_E8M0;
      default: fmt_specials = SPEC_IEEE;
    endcase
  endfunction

  function automatic int fmt_signed(input int f);
    fmt_signed = (f == FMT_UE8M0 || f == FMT_UE4M3) ? 0 : 1;
  endfunction

  // Largest kept mantissa / storage width over a mask of formats (bit f set = format f served).
  function automatic int max_man_bits(input int mask);
    max_man_bits = 0;
    for (int f = 0; f < NUM_FMTS; f++)
      if (mask[f] && fmt_man_bits(f) > max_man_bits) max_man_bits = fmt_man_bits(f);
  endfunction

  function automatic int max_width(input int mask);
    max_width = 1;
    for (int f = 0; f < NUM_FMTS; f++)
      if (mask[f] && fmt_width(f) > max_width) max_width = fmt_width(f);
  endfunction

  function automatic int clog2(input int x);
    clog2 = 0;
    while ((1 << clog2) < x) clog2 = clog2 + 1;
  endfunction

  function automatic int imax(input int a, input int b);
    imax = a > b ? a : b;
  endfunction
endpackage
