// m3xu_spec: an independent specification of the M3XU's FP32 and FP32C modes (docs/m3xu.md, "Closed
// form" and "FP32C mode"; the M3XU paper, sections III-IV) for make verify and make prove
// (tests/prove/all.sh, docs/formal.md), sharing no arithmetic with rtl/: only the format table.
//   FP32 (PARTS = 1): the closed form -- the four exact products and C, each aligned to e_max and
//     truncated at 46 fractional bits, summed exactly, rounded once to nearest even in f32, a zero
//     operand at exponent -126 -- which is the FDA specification (tests/prove/fda_spec.sv) with K = 4,
//     F = 46, f32 A, B, C and an f32-rne D.
//   FP32C (PARTS = 2, lanes and C and D 64 bits: the real part low, the imaginary part high): the real
//     part one such dot of (ar0, -ai0, ar1, -ai1) . (br0, bi0, br1, bi1) with C's real part, the
//     imaginary part one of (ar0, ai0, ar1, ai1) . (bi0, br0, bi1, br1) with C's imaginary part, each
//     with its own specials, e_max, truncation and rounding; D = re | im << 32.
// Ports: make verify's port contract (docs/verify-your-design.md, section 4); the selects and scales
// are not used (every operand is f32 or f32c).  F and the zero's exponent are the instruction table's
// (cmodel/src/isa_m3xu.c, mmaref list m3xu); the FDA specification's own parameters say the rest.
// SPEC_MUTANT (the check that a proof against this spec can fail; 0 for the specification): 1 aligns
// with 45 fractional bits (the FDA specification's SPEC_MUTANT = 1).
// DECODE_CUT: passed to the FDA specification (its operands decoded by rtl/'s mma_unpack).
// PRODUCT_HALF (12, the M3XU's half; 0: one multiplication): each exact product written in the M3XU's two
// steps on 12-bit halves (docs/m3xu.md, FP32 mode, step 3), as the FDA specification's PRODUCT_HALF.
// MUL_CUT (make prove's cut point; 0 for the specification): 12 multiplies those halves with rtl/'s
// mma_mul, the M3XU's multiplier, so that CUT=mma_mul frees both sides' multipliers (docs/formal.md).
module m3xu_spec #(
  parameter int PARTS       = 1,
  parameter int F           = 46,
  parameter int SPEC_MUTANT = 0,
  parameter int DECODE_CUT  = 0,
  parameter int PRODUCT_HALF = 12,
  parameter int MUL_CUT     = 0,
  parameter int PW          = 32 * PARTS,                // a lane's, C's and D's width
  parameter int K           = 4 / PARTS                  // lanes: four f32 products either way
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  /* verilator lint_off UNUSEDSIGNAL */  // the port contract's selects and scales: every operand is f32 or f32c
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [7:0]                    sa, sb,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic [PW-1:0]                 c,
  input  logic [K*PW-1:0]               a, b,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [PW-1:0]                 d
);
  localparam int FB = mma_pkg::FMT_BITS;
  localparam logic [FB-1:0] F32 = FB'(mma_pkg::FMT_F32);
  localparam logic [31:0] SIGN = 32'h8000_0000;
  generate
    if (PARTS != 1 && PARTS != 2) begin : g_scope
      $error("m3xu_spec: PARTS is 1 (FP32) or 2 (FP32C)");
    end
  endgenerate

  // each part's dot: four f32 lanes of A and of B, and its C
  logic [PARTS*128-1:0] pa, pb;
  logic [PARTS*32-1:0]  pc, pd;
  logic [PARTS-1:0]     p_ready, p_valid;
  generate
    if (PARTS == 1) begin : g_fp32
      assign pa = a, pb = b, pc = c;
    end else begin : g_fp32c
      // lane k of A and B: the real part in bits [k*64 +: 32], the imaginary part above it
      logic [31:0] ar0, ai0, ar1, ai1, br0, bi0, br1, bi1;
      assign {ai0, ar0} = a[63:0], {ai1, ar1} = a[127:64], {bi0, br0} = b[63:0], {bi1, br1} = b[127:64];
      // the real part: ar br - ai bi (A's imaginary parts negated), C's real part
      assign pa[127:0]   = {ai1 ^ SIGN, ar1, ai0 ^ SIGN, ar0};
      assign pb[127:0]   = {bi1, br1, bi0, br0};
      assign pc[31:0]    = c[31:0];
      // the imaginary part: ar bi + ai br, C's imaginary part
      assign pa[255:128] = {ai1, ar1, ai0, ar0};
      assign pb[255:128] = {br1, bi1, br0, bi0};
      assign pc[63:32]   = c[63:32];
    end
  endgenerate
  genvar p;
  generate
    for (p = 0; p < PARTS; p++) begin : g_part
      fda_spec #(.K(4), .F(F), .AB_MASK(1 << mma_pkg::FMT_F32), .C_MASK(1 << mma_pkg::FMT_F32),
                 .OUT_MASK(1 << mma_pkg::OUT_F32_RNE), .ZERO_EXP(0), .SPEC_MUTANT(SPEC_MUTANT),
                 .DECODE_CUT(DECODE_CUT), .PRODUCT_HALF(PRODUCT_HALF), .MUL_CUT(MUL_CUT), .AW(32)) u_dot (
        .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(p_ready[p]), .fmt_a(F32), .fmt_b(F32),
        .fmt_c(F32), .out_kind(mma_pkg::OUT_BITS'(mma_pkg::OUT_F32_RNE)), .c(pc[p*32 +: 32]),
        .a(pa[p*128 +: 128]), .b(pb[p*128 +: 128]), .sa(8'd0), .sb(8'd0), .out_valid(p_valid[p]),
        .out_ready(out_ready), .d(pd[p*32 +: 32]));
    end
  endgenerate
  // the parts take the vector and answer in the same cycles (one specification, the same handshake)
  assign in_ready  = &p_ready;
  assign out_valid = &p_valid;
  assign d         = pd;
endmodule
