// m3xu_unit: one M3XU dot-product unit (docs/m3xu.md; the M3XU paper, sections III-IV, Fig. 3, Table
// III): L = 8 lanes of MUL_W-bit multipliers, one output element of the paper's 8 x 4 x 8 Tensor Core
// tile.  The mode is an input per operation, the operand format of A and B (mma_pkg codes):
//   f16, bf16: 1 step,  K = 8: Ampere's FDA (F_LO = 24, truncation, f32 RZ, +0)
//   f32:       2 steps, K = 4: exact products from 12-bit halves, F_HI = F_w = 46, f32 RNE
//   f32c:      4 steps, K = 2 complex: the real part (steps 0-1), then the imaginary part (steps 2-3)
// A and B are IW = L x 16 bits in every mode (the same register bandwidth: 8 f16, 4 f32 or 2 f32c
// values, element i at [i*width +: width]); C and D are 32 bits (64 with f32c: real part low).
// An FSM (mma_handshake's pass counter, the steps of the accepted mode) sequences the steps: step 0 runs
// from the ports on the handshake, which also loads the data-assignment buffers (A, B, C, mode) for the
// later steps; the product registers carry a wide product from its first step to its second; f32c's
// real part waits in a register for the imaginary part.  One operation every 1, 2 or 4 cycles.
// PIPE = 1 (the paper's pipelined M3XU, Table III): a register after the data-assignment stage, so the
// multiplexers of step s+1 work while the multipliers and the sum run step s; D comes one cycle later,
// at the same rate (mma_handshake STAGES = 1, which holds the stage while D is not taken).
// Comparison designs are parameter sets: AB_MASK without f32c (M3XU without FP32C), AB_MASK f16|bf16
// with MUL_W = 11 (the baseline FP16/BF16 unit), MUL_W = 12 alone (the cost of the 12th bit).
// busy: an operation is inside the unit (steps left to run or in the pipeline register).
module m3xu_unit #(
  parameter int L       = 8,
  parameter int MUL_W   = 12,    // 12 for FP32 (two 12-bit halves); 11 serves FP16/BF16 only
  parameter int AB_MASK = (1 << mma_pkg::FMT_F16) | (1 << mma_pkg::FMT_BF16) | mma_pkg::M3XU_WIDE_FMTS,
  parameter int F_LO    = 24,
  parameter int F_HI    = 46,
  parameter int OUT_LO  = mma_pkg::OUT_F32_RZ,
  parameter int OUT_HI  = mma_pkg::OUT_F32_RNE,
  parameter int PIPE    = 0,
  parameter int MUTANT  = 0,     // test only: 1 = a_L b_L dropped; 2 = no sign flip in FP32C's real part
  parameter int IW      = L * mma_pkg::max_width(AB_MASK & ~mma_pkg::M3XU_WIDE_FMTS),
  parameter int CW      = AB_MASK[mma_pkg::FMT_F32C] ? mma_pkg::fmt_width(mma_pkg::FMT_F32C) : mma_pkg::M3XU_PART_W
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt,     // the mode: FMT_F16, FMT_BF16, FMT_F32, FMT_F32C
  input  logic [CW-1:0]                 c,
  input  logic [IW-1:0]                 a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [CW-1:0]                 d,
  output logic                          busy
);
  localparam int FP_W  = mma_pkg::FP_W;
  localparam int WMW   = mma_pkg::M3XU_PART_MW;
  localparam int STEPS = mma_pkg::m3xu_max_steps(AB_MASK);
  localparam int PW    = STEPS > 1 ? mma_pkg::clog2(STEPS) : 1;
  localparam int PWD   = mma_pkg::M3XU_PART_W;   // one result part: 32 bits
  localparam bit CPLX  = AB_MASK[mma_pkg::FMT_F32C];

  // the last step of a mode: f32c 3, f32 1, f16/bf16 0
  function automatic logic [PW-1:0] final_step(input logic [mma_pkg::FMT_BITS-1:0] f);
    final_step = mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32C, f) ? PW'(3)
               : mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32, f) ? PW'(1) : PW'(0);
  endfunction
  function automatic logic is_wide(input logic [mma_pkg::FMT_BITS-1:0] f);
    is_wide = mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32, f) || mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32C, f);
  endfunction

  // ---- handshake and step sequencing ----
  logic accept, last, hold;
  logic [PW-1:0] pass;
  logic [CW-1:0] d_next;
  logic [mma_pkg::FMT_BITS-1:0] fmt_q;   // the mode of the operation whose later steps run
  mma_handshake #(.PASSES(STEPS), .DW(CW), .STAGES(PIPE)) u_hs (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready), .accept(accept),
    .final_pass(final_step(accept ? fmt : fmt_q)), .pass(pass), .last(last), .hold(hold), .d_in(d_next),
    .out_valid(out_valid), .out_ready(out_ready), .d(d));

  // ---- data-assignment buffers: step 0 from the ports, later steps from what the handshake loaded ----
  logic [mma_pkg::FMT_BITS-1:0] as_fmt;
  logic [IW-1:0] as_a, as_b;
  logic [CW-1:0] as_c;
  logic [1:0] as_step;
  logic as_run;   // a step is assigned this cycle
  assign as_run  = accept || pass != '0;
  assign as_step = 2'(pass);
  generate
    if (STEPS > 1) begin : g_buffers
      logic [IW-1:0] a_q, b_q;
      logic [CW-1:0] c_q;
      always @(posedge clk)
        if (accept) begin
          a_q <= a;  b_q <= b;  c_q <= c;  fmt_q <= fmt;
        end
      assign as_fmt = accept ? fmt : fmt_q;
      assign as_a   = accept ? a : a_q;
      assign as_b   = accept ? b : b_q;
      assign as_c   = accept ? c : c_q;
    end else begin : g_direct
      assign fmt_q  = fmt;
      assign as_fmt = fmt;  assign as_a = a;  assign as_b = b;  assign as_c = c;
    end
  endgenerate

  logic [L*FP_W-1:0]  as_ua, as_ub;
  logic [L*MUL_W-1:0] as_sa, as_sb;
  mma_pkg::fp_t       as_uc;
  logic [WMW:0]       as_c_sig;
  m3xu_assign #(.L(L), .MUL_W(MUL_W), .AB_MASK(AB_MASK), .MUTANT(MUTANT), .IW(IW), .CW(CW)) u_assign (
    .fmt(as_fmt), .step(as_step), .a(as_a), .b(as_b), .c(as_c),
    .ua(as_ua), .ub(as_ub), .sa(as_sa), .sb(as_sb), .uc(as_uc), .c_sig(as_c_sig));

  // ---- the step the arithmetic runs: straight from the assignment, or from the pipeline register ----
  logic [mma_pkg::FMT_BITS-1:0] dp_fmt;
  logic [1:0]         dp_step;
  logic               dp_run;
  logic [L*FP_W-1:0]  dp_ua, dp_ub;
  logic [L*MUL_W-1:0] dp_sa, dp_sb;
  mma_pkg::fp_t       dp_uc;
  logic [WMW:0]       dp_c_sig;
  generate
    if (PIPE == 0) begin : g_comb
      logic unused_hold;
      assign unused_hold = hold;  // STAGES = 0: never high
      assign dp_fmt = as_fmt;  assign dp_step = as_step;  assign dp_run = as_run;
      assign dp_ua = as_ua;  assign dp_ub = as_ub;  assign dp_sa = as_sa;  assign dp_sb = as_sb;
      assign dp_uc = as_uc;  assign dp_c_sig = as_c_sig;
      assign busy = pass != '0;
    end else begin : g_stage
      // the buffer entries of one step; held while its result waits for D (hold: a last step only)
      always @(posedge clk) begin
        if (!rst_n) dp_run <= 1'b0;
        else if (!hold) dp_run <= as_run;
        if (!hold) begin
          dp_fmt <= as_fmt;  dp_step <= as_step;
          dp_ua <= as_ua;  dp_ub <= as_ub;  dp_sa <= as_sa;  dp_sb <= as_sb;
          dp_uc <= as_uc;  dp_c_sig <= as_c_sig;
        end
      end
      assign busy = pass != '0 || dp_run;
    end
  endgenerate

  // ---- the arithmetic; f32c's real part is kept until the imaginary part is done ----
  logic dp_wide;
  logic [PWD-1:0] dp_d;
  assign dp_wide = is_wide(dp_fmt);
  m3xu_datapath #(.L(L), .MUL_W(MUL_W), .AB_MASK(AB_MASK), .F_LO(F_LO), .F_HI(F_HI), .OUT_LO(OUT_LO),
                  .OUT_HI(OUT_HI), .MUTANT(MUTANT)) u_dp (
    .clk(clk), .wide(dp_wide), .load(dp_run && dp_wide && !dp_step[0]),
    .ua(dp_ua), .ub(dp_ub), .sa(dp_sa), .sb(dp_sb), .uc(dp_uc), .c_sig(dp_c_sig), .d(dp_d));

  generate
    if (CPLX) begin : g_complex
      logic [PWD-1:0] d_re;
      always @(posedge clk)
        if (dp_run && dp_step == 2'd1) d_re <= dp_d;  // step 1: f32c's real part (f32: its D, unused)
      assign d_next = mma_pkg::fmt_is(AB_MASK, mma_pkg::FMT_F32C, dp_fmt) ? {dp_d, d_re} : CW'(dp_d);
    end else begin : g_real
      logic unused_part;
      assign unused_part = dp_step[1];  // f32c's imaginary part
      assign d_next = dp_d;
    end
  endgenerate
  logic unused_last;
  assign unused_last = last;  // the handshake writes D on it; the unit needs only the pass
endmodule
