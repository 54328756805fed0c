// fda_mutants: test fixture of tests/t_rtl_verify_mutants.sh -- the project's fda_unit with bugs planted
// on purpose, one chosen at run time by +mutant=N (make verify ... PLUSARGS=+mutant=N), so that a single
// build per instruction serves every mutant of that instruction.  +mutant=0 (or none) is the unit as it
// is, which must pass; each mutant must fail make verify with a decoded mismatch.
// A bug at the ports is applied around the correct instance; a bug inside the datapath is a further
// fda_unit instance built with it (F, CHAIN or fda_datapath's MUTANT), present when bit N of INTERNAL is
// set.  Every vector goes to the one instance chosen; the others stay idle.
//    N  the bug                                                                      where
//    1  F one bit short: alignment keeps F - 1 fractional bits                       instance, F - 1
//    2  wrong output rounding: D rounded as out_kind ROUND_OUT (RNE for an RZ
//       instruction, RZ for an RNE one), the unit's OUT_MASK widened to serve it     ports (out_kind)
//    3  input flush: a subnormal A, B or C taken as a zero of its sign                ports (a, b, c)
//    4  output flush: a subnormal D returned as a zero of its sign                    port d
//    5  sign of an exact zero, IEEE's rule: C = -0 and every product -0 give -0
//       (NVIDIA and the model: +0)                                                     port d
//    6  NaN payload: a NaN C passed through with its quiet bit set, not the
//       canonical NaN                                                                 port d
//    7  e_max: the last product left out of the max-exponent tree                     instance, MUTANT 1
//    8  block scale: the UE8M0 scales' exponent one short (bias 255 for the two)      instance, MUTANT 3
//    9  sticky bit dropped: the round decision sees the guard bit alone               instance, MUTANT 2
//   10  a CoFDA schedule in one pass: the intermediate rounding skipped               instance, CHAIN 1
//   11  inf - inf: +inf and -inf together give -inf (mma_special without the rule
//       that makes them NaN) where no operand is NaN                                  port d
//   12  the largest UE8M0 scale, 0xFE (2^127), taken as NaN (0xFF)                    ports (sa, sb)
// A mutant this build lacks (bit N of INTERNAL clear, ROUND_OUT < 0 for 2) stops the run with $fatal.
// Under Yosys's -formal (make prove) there are no plusargs: the parameter SELECT chooses the mutant.
module fda_mutants #(
  parameter int K         = 16,
  parameter int F         = 25,
  parameter int CHAIN     = 1,
  parameter int AB_MASK   = 1 << mma_pkg::FMT_F16,
  parameter int C_MASK    = 1 << mma_pkg::FMT_F32,
  parameter int OUT_MASK  = 1 << mma_pkg::OUT_F32_RZ,
  parameter int BLOCK     = 0,
  parameter int ZERO_EXP  = 0,    // fda_unit's (Hopper: -133)
  parameter int INTERNAL  = 0,    // bit N: build mutant N's instance (N = 1, 7, 8, 9, 10)
  parameter int ROUND_OUT = -1,   // mutant 2's output kind (-1: none)
  parameter int SELECT    = 0,    // the mutant when no +mutant=N is given (make prove: formal has no plusargs)
  parameter int AW        = mma_pkg::max_width(AB_MASK),
  parameter int NSW       = BLOCK > 0 ? K / BLOCK : 1
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*AW-1:0]               a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  localparam int OUT0 = ROUND_OUT >= 0 ? OUT_MASK | (1 << ROUND_OUT) : OUT_MASK;  // the correct instance's
  localparam int NI   = 6;  // instances: the correct one, then mutants 1, 7, 8, 9, 10
  function automatic int mutant_of(input int s);
    case (s)
      1: mutant_of = 1;
      2: mutant_of = 7;
      3: mutant_of = 8;
      4: mutant_of = 9;
      5: mutant_of = 10;
      default: mutant_of = 0;
    endcase
  endfunction

  function automatic int slot_of(input int m);
    slot_of = 0;
    for (int s = 1; s < NI; s++) if (mutant_of(s) == m) slot_of = s;
  endfunction
`ifdef FORMAL
  localparam int mutant = SELECT;
  localparam int slot = slot_of(SELECT);
`else
  int mutant = 0, slot = 0;
  initial begin
    if (!$value$plusargs("mutant=%d", mutant)) mutant = SELECT;
    slot = slot_of(mutant);
    if (mutant < 0 || mutant > 12 || (slot != 0 && !INTERNAL[mutant]) || (mutant == 2 && ROUND_OUT < 0))
      $fatal(1, "fda_mutants: mutant %0d is not in this build (INTERNAL=%0d, ROUND_OUT=%0d)", mutant, INTERNAL,
             ROUND_OUT);
  end
`endif

  // ---- the ports of the correct instance, with the port mutants ----
  mma_pkg::fp_t uc, ud;
  mma_pkg::fp_t ua [K], ub [K];
  logic [K*AW-1:0] a0, b0;
  logic [31:0] c0;
  logic [NSW*8-1:0] sa0, sb0;
  logic [mma_pkg::OUT_BITS-1:0] kind0;
  logic [mma_pkg::FMT_BITS-1:0] fmt_d;

  // a zero of the sign of raw, in format f
  function automatic logic [63:0] zero_of(input logic [63:0] raw, input logic [mma_pkg::FMT_BITS-1:0] f);
    zero_of = '0;
    for (int i = 0; i < mma_pkg::NUM_FMTS; i++)
      if (f == mma_pkg::FMT_BITS'(i) && mma_pkg::fmt_signed(i) != 0) zero_of = raw & (64'd1 << (mma_pkg::fmt_width(i) - 1));
  endfunction

  mma_unpack #(.MASK(C_MASK), .IW(32)) u_uc (.raw(c), .fmt(fmt_c), .u(uc), .sig());
  genvar i;
  generate
    for (i = 0; i < K; i++) begin : g_lane
      mma_unpack #(.MASK(AB_MASK), .IW(AW)) u_ua (.raw(a[i*AW +: AW]), .fmt(fmt_a), .u(ua[i]), .sig());
      mma_unpack #(.MASK(AB_MASK), .IW(AW)) u_ub (.raw(b[i*AW +: AW]), .fmt(fmt_b), .u(ub[i]), .sig());
      assign a0[i*AW +: AW] = mutant == 3 && mma_pkg::fp_is_sub(ua[i]) ? AW'(zero_of(64'(a[i*AW +: AW]), fmt_a)) : a[i*AW +: AW];
      assign b0[i*AW +: AW] = mutant == 3 && mma_pkg::fp_is_sub(ub[i]) ? AW'(zero_of(64'(b[i*AW +: AW]), fmt_b)) : b[i*AW +: AW];
    end
    for (i = 0; i < NSW; i++) begin : g_scale
      assign sa0[i*8 +: 8] = mutant == 12 && BLOCK > 0 && sa[i*8 +: 8] == 8'hFE ? 8'hFF : sa[i*8 +: 8];
      assign sb0[i*8 +: 8] = mutant == 12 && BLOCK > 0 && sb[i*8 +: 8] == 8'hFE ? 8'hFF : sb[i*8 +: 8];
    end
  endgenerate
  assign c0    = mutant == 3 && mma_pkg::fp_is_sub(uc) ? 32'(zero_of(64'(c), fmt_c)) : c;
  assign kind0 = mutant == 2 ? mma_pkg::OUT_BITS'(ROUND_OUT) : out_kind;

  // what the port mutants of D need to know of each vector, from its operands: C = -0 and every product
  // -0 (5); C is NaN (6); no NaN operand, scale or 0 * inf product (11)
  logic zs, nan_in;
  always @* begin
    zs = mma_pkg::fp_is_zero(uc) && mma_pkg::fp_sign(uc);
    nan_in = mma_pkg::fp_is_nan(uc);
    for (int l = 0; l < K; l++) begin
      zs = zs && (mma_pkg::fp_is_zero(ua[l]) || mma_pkg::fp_is_zero(ub[l])) && (mma_pkg::fp_sign(ua[l]) ^ mma_pkg::fp_sign(ub[l]));
      nan_in = nan_in || mma_pkg::fp_prod_nan(ua[l], ub[l]);
    end
    for (int s = 0; s < NSW; s++)
      nan_in = nan_in || (BLOCK > 0 && (sa0[s*8 +: 8] == 8'hFF || sb0[s*8 +: 8] == 8'hFF));
  end
  // ... kept in order until the vector's D leaves (any latency)
  localparam int QD = 8;
  logic [34:0] q [QD];  // {zs, C NaN, no NaN in, C}
  logic [3:0] wp, rp;
  logic [34:0] head;
  assign head = q[rp[2:0]];

  // ---- the instances ----
  logic [NI-1:0] u_in_ready, u_out_valid;
  logic [31:0] u_d [NI];
  generate
    for (i = 0; i < NI; i++) begin : g_u
      if (i == 0 || INTERNAL[mutant_of(i)]) begin : g_on
        fda_unit #(.K(K), .F(i == 1 ? F - 1 : F), .CHAIN(i == 5 ? 1 : CHAIN), .AB_MASK(AB_MASK), .C_MASK(C_MASK),
                   .OUT_MASK(i == 0 ? OUT0 : OUT_MASK), .BLOCK(BLOCK), .ZERO_EXP(ZERO_EXP),
                   .MUTANT(i == 2 ? 1 : i == 3 ? 3 : i == 4 ? 2 : 0)) u (
          .clk(clk), .rst_n(rst_n), .in_valid(in_valid && slot == i), .in_ready(u_in_ready[i]),
          .fmt_a(fmt_a), .fmt_b(fmt_b), .fmt_c(fmt_c), .out_kind(i == 0 ? kind0 : out_kind),
          .c(i == 0 ? c0 : c), .a(i == 0 ? a0 : a), .b(i == 0 ? b0 : b), .sa(i == 0 ? sa0 : sa),
          .sb(i == 0 ? sb0 : sb), .out_valid(u_out_valid[i]), .out_ready(out_ready && slot == i), .d(u_d[i]));
      end else begin : g_off
        assign u_in_ready[i] = 1'b0;
        assign u_out_valid[i] = 1'b0;
        assign u_d[i] = '0;
      end
    end
  endgenerate
  assign in_ready  = u_in_ready[slot];
  assign out_valid = u_out_valid[slot];

  // ---- D, with the port mutants ----
  logic [31:0] d0;
  assign d0 = u_d[0];
  assign fmt_d = mma_pkg::out_fmt_of(OUT0, kind0);
  mma_unpack #(.MASK(mma_pkg::out_formats(OUT0)), .IW(32)) u_ud (.raw(d0), .fmt(fmt_d), .u(ud), .sig());
  always @* begin
    logic [63:0] sign_bit, quiet;
    sign_bit = '0; quiet = '0;
    for (int f = 0; f < mma_pkg::NUM_FMTS; f++)
      if (fmt_d == mma_pkg::FMT_BITS'(f)) begin
        sign_bit = 64'd1 << (mma_pkg::fmt_width(f) - 1);
        quiet    = 64'd1 << (mma_pkg::fmt_man_bits(f) - 1);
      end
    d = slot != 0 ? u_d[slot] : d0;
    if (slot == 0) begin
      if (mutant == 4 && mma_pkg::fp_is_sub(ud)) d = 32'(zero_of(64'(d0), fmt_d));
      if (mutant == 5 && head[34] && d0 == '0) d = 32'(sign_bit);
      if (mutant == 6 && head[33] && mma_pkg::fp_is_nan(ud) && fmt_c == fmt_d) d = head[31:0] | 32'(quiet);
      if (mutant == 11 && !head[32] && mma_pkg::fp_is_nan(ud)) d = 32'(mma_pkg::fmt_inf(32'(fmt_d)) | sign_bit);
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      wp <= '0;  rp <= '0;
    end else begin
      if (in_valid && in_ready && slot == 0) begin
        q[wp[2:0]] <= {zs, mma_pkg::fp_is_nan(uc), nan_in, c};
        wp <= wp + 1'b1;
      end
      if (out_valid && out_ready && slot == 0) rp <= rp + 1'b1;
`ifndef FORMAL
      if (wp - rp > 4'(QD)) $fatal(1, "fda_mutants: more than %0d vectors inside the unit", QD);
`endif
    end
  end
endmodule
