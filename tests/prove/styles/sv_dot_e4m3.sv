// sv_dot_e4m3: a dot-product unit bit-exact to ada:mma.m16n8k16.f32.e4m3.e4m3.f32 (Ada QMMA FP8,
// D = C + sum_{k<K} A[k] * B[k], e4m3 lanes, C and D binary32), written independently of rtl/ in heavy,
// modern SystemVerilog: a package of typedefs and automatic functions, packed structs with int members,
// casts, unique case, a generate loop over the lanes.  It is a fixture for make prove's front end (a
// design that an older Yosys cannot read), not a unit of the project.
// The algorithm is FDA (fused dot-add, docs/algorithms.md) with F = 13 and the f32 e8m13 output rule:
//   Step 1  NaN in A, B or C -> canonical NaN; else an infinite C is D.
//   Step 2  exact, unnormalized products: exponent e_a + e_b, significand sig_a * sig_b (6 fraction bits);
//           a zero operand counts as 2^-126 (MMA-Sim convention).
//   Step 3  e_max over C and the products; each term truncated (sign-magnitude) to F bits below 2^e_max.
//   Step 4  the exact signed sum.
//   Step 5  normalize, round toward zero keeping 13 fraction bits, f32 range; a zero D is +0.
// MUTANT = 1 plants one bug: Step 5 keeps 14 fraction bits instead of 13 (an off-by-one RZ mask).
// Ports: the contract of make verify (docs/verify-your-design.md, section 4); one-cycle latency.

/* verilator lint_off DECLFILENAME */  // the unit's package, kept in its one file
package sv_dot_pkg;
  localparam int F      = 13;    // fraction bits kept below 2^e_max (Ada QMMA)
  localparam int PF     = 6;     // fraction bits of an exact e4m3 x e4m3 product
  localparam int CF     = 23;    // fraction bits of C's significand
  localparam int BIAS8  = 7;     // e4m3's exponent bias
  localparam int ZERO_E = -126;  // the exponent of a zero operand
  localparam int TW     = 32;    // an aligned term (C below 2^14, a product below 2^15)
  localparam int SW     = 24;    // the signed sum: 1 + K terms below 2^15 each, K <= 16
  localparam logic [31:0] QNAN = 32'h7FFF_FFFF;

  // a decoded e4m3 operand: value = (-1)^sign * sig * 2^(exp - 3)
  typedef struct packed {
    logic       sign;
    logic       nan;
    int         exp;
    logic [3:0] sig;
  } fp8_t;

  // a decoded binary32 C: value = (-1)^sign * sig * 2^(exp - 23)
  typedef struct packed {
    logic        sign;
    logic        nan;
    logic        inf;
    int          exp;
    logic [23:0] sig;
  } f32_t;

  // an exact product: value = (-1)^sign * sig * 2^(exp - 6), sig below 4.0
  typedef struct packed {
    logic       sign;
    logic       nan;
    int         exp;
    logic [7:0] sig;
  } prod_t;

  typedef enum logic [1:0] {R_ZERO, R_SUB, R_NORM, R_OVF} res_class_e;

  function automatic fp8_t dec_e4m3(input logic [7:0] raw);
    fp8_t r;
    r = '{sign: raw[7], nan: 1'b0, exp: ZERO_E, sig: 4'd0};
    if (raw[6:0] == 7'h7F) begin          // S.1111.111 is e4m3's only NaN (no infinities)
      r.nan = 1'b1;
      return r;
    end
    if (raw[6:0] == 7'h00) return r;      // +-0: significand 0 at 2^-126
    r.exp = (raw[6:3] == 4'd0) ? 1 - BIAS8 : int'(raw[6:3]) - BIAS8;
    r.sig = {raw[6:3] != 4'd0, raw[2:0]};
    return r;
  endfunction

  function automatic f32_t dec_f32(input logic [31:0] raw);
    f32_t r;
    r = '{sign: raw[31], nan: 1'b0, inf: 1'b0, exp: ZERO_E, sig: {1'b0, raw[22:0]}};
    unique case (raw[30:23])
      8'h00:   ;                                           // zero or subnormal: 0.m x 2^-126
      8'hFF:   {r.nan, r.inf} = {raw[22:0] != '0, raw[22:0] == '0};
      default: begin
        r.exp     = int'(raw[30:23]) - 127;
        r.sig[23] = 1'b1;
      end
    endcase
    return r;
  endfunction

  // Step 2: the exact product, not normalized
  function automatic prod_t mul(input fp8_t x, input fp8_t y);
    return '{sign: x.sign ^ y.sign, nan: x.nan | y.nan, exp: x.exp + y.exp, sig: 8'(x.sig) * 8'(y.sig)};
  endfunction

  // Step 3: trunc(|term| * 2^(F - e_max)) of a significand with fb fraction bits, gap = e_max - exp >= 0
  function automatic logic [SW-1:0] align(input logic [23:0] sig, input int fb, input int gap);
    int sh;
    sh = gap + fb - F;                    // right shift; negative: left
    if (sh >= TW) return '0;
    if (sh < 0) return SW'(TW'(sig) << (-sh));
    return SW'(TW'(sig) >> sh);
  endfunction

  // the signed contribution of an aligned magnitude
  function automatic logic signed [SW-1:0] signed_term(input logic neg, input logic [SW-1:0] mag);
    logic signed [SW-1:0] v;
    v = signed'(mag);
    return neg ? -v : v;
  endfunction

  // Step 5: s * 2^lsb_exp to binary32, toward zero, keeping `keep` fraction bits; +0 for zero
  function automatic logic [31:0] pack_rz(input logic signed [SW-1:0] s, input int lsb_exp, input int keep);
    logic [SW-1:0] mag;
    logic [22:0]   frac, cut;
    res_class_e    cls;
    int            lead, e, sh;
    if (s == '0) return 32'h0000_0000;    // an exact zero is +0, never -0
    mag  = s[SW-1] ? SW'(-s) : SW'(s);
    lead = 0;
    for (int i = 0; i < SW; i++)
      if (mag[i]) lead = i;
    e   = lsb_exp + lead;                 // the exponent of the leading one
    cls = e > 127 ? R_OVF : e >= -126 ? R_NORM : R_SUB;
    cut = 23'((33'd1 << (23 - keep)) - 33'd1);
    frac = '0;
    unique case (cls)
      R_OVF:  return {s[SW-1], 8'hFF, 23'd0};                 // |x| >= 2^128 -> inf even under RZ
      R_NORM: frac = 23'(32'(mag) << (23 - lead)) & ~cut;      // drop the hidden bit and the cut bits
      R_SUB: begin                                             // on f32's grid of 2^-149
        sh = lsb_exp + 149;
        frac = sh >= 0 ? 23'(32'(mag) << sh) : 23'(32'(mag) >> (-sh));
      end
      R_ZERO: frac = '0;
    endcase
    return {s[SW-1], cls == R_NORM ? 8'(e + 127) : 8'd0, frac};
  endfunction
endpackage
/* verilator lint_on DECLFILENAME */

module sv_dot_e4m3
  import sv_dot_pkg::*;
#(
  parameter int K      = 16,
  parameter int MUTANT = 0
) (
  input  logic           clk,
  input  logic           rst_n,
  input  logic           in_valid,
  output logic           in_ready,
  /* verilator lint_off UNUSEDSIGNAL */   // one instruction: the selects and the scales are ignored
  input  logic [3:0]     fmt_a, fmt_b, fmt_c,
  input  logic [2:0]     out_kind,
  input  logic [7:0]     sa, sb,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [31:0]    c,
  input  logic [K*8-1:0] a, b,
  output logic           out_valid,
  input  logic           out_ready,
  output logic [31:0]    d
);
  localparam int KEEP = MUTANT == 1 ? F + 1 : F;   // fraction bits D keeps

  // ---- Step 2: one exact product per lane ----
  prod_t        prod [K];
  logic [K-1:0] lane_nan;
  for (genvar i = 0; i < K; i++) begin : g_lane
    fp8_t xa, xb;
    assign xa          = dec_e4m3(a[i*8 +: 8]);
    assign xb          = dec_e4m3(b[i*8 +: 8]);
    assign prod[i]     = mul(xa, xb);
    assign lane_nan[i] = prod[i].nan;
  end

  f32_t        cx;
  int          e_max;
  logic signed [SW-1:0] acc;
  logic [31:0] d_next;
  assign cx = dec_f32(c);

  always_comb begin
    // ---- Step 3: e_max over C and the products ----
    e_max = cx.exp;
    for (int k = 0; k < K; k++)
      if (prod[k].exp > e_max) e_max = prod[k].exp;
    // ---- Steps 3-4: align (truncate) every term and sum exactly ----
    acc = signed_term(cx.sign, align(cx.sig, CF, e_max - cx.exp));
    for (int k = 0; k < K; k++)
      acc += signed_term(prod[k].sign, align(24'(prod[k].sig), PF, e_max - prod[k].exp));
    // ---- Step 1 (specials) over Step 5 (normalize and round) ----
    if (cx.nan || |lane_nan) d_next = QNAN;
    else if (cx.inf)         d_next = {cx.sign, 8'hFF, 23'd0};
    else                     d_next = pack_rz(acc, e_max - F, KEEP);
  end

  // ---- the handshake: D registered on acceptance, held until taken ----
  assign in_ready = !out_valid || out_ready;
  always_ff @(posedge clk) begin
    if (!rst_n) begin
      out_valid <= 1'b0;
      d         <= '0;
    end else if (in_valid && in_ready) begin
      out_valid <= 1'b1;
      d         <= d_next;
    end else if (out_ready) begin
      out_valid <= 1'b0;
    end
  end
endmodule
