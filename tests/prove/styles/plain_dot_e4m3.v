// plain_dot_e4m3: an independently written dot-product unit in plain Verilog-2005 for
// ada:mma.m16n8k16.f32.e4m3.e4m3.f32 (Ada QMMA FP8, the FDA algorithm with F = 13 and the f32 e8m13
// output, docs/algorithms.md), a fixture for make prove / make verify.  It shares nothing with rtl/ and
// is built differently from rtl/fda_unit.sv:
//   - multiplier: an explicit shift-and-add of the 4-bit significands' partial products (no `*`);
//   - adder tree: lane k is paired with lane K-1-k, the pair sums again outermost with innermost, and so
//     on up to one sum; C is added last;
//   - normalizer: a leading-one search from the LSB upward that keeps the last one it finds.
// Exponents are carried unsigned with an offset of 256 (u = e + 256), so no signed arithmetic is needed;
// the terms and sums are two's complement vectors of SW bits.
// The selects (fmt_*, out_kind) and the scales (sa, sb) are ignored: one instruction only.
// One result per vector: D is registered when a vector is taken and held until it is taken.
// MUTANT = 1 plants one bug: the adder tree's first level keeps only 16 bits of each pair sum (the carry
// out of two large same-signed terms is dropped), so D is wrong when a paired k, K-1-k sum reaches 2^15.
module plain_dot_e4m3 #(
  parameter K      = 16,
  parameter MUTANT = 0
) (
  input              clk,
  input              rst_n,
  input              in_valid,
  output             in_ready,
  /* verilator lint_off UNUSEDSIGNAL */
  input  [3:0]       fmt_a,
  input  [3:0]       fmt_b,
  input  [3:0]       fmt_c,
  input  [2:0]       out_kind,
  input  [7:0]       sa,
  input  [7:0]       sb,
  /* verilator lint_on UNUSEDSIGNAL */
  input  [31:0]      c,
  input  [K*8-1:0]   a,
  input  [K*8-1:0]   b,
  output reg         out_valid,
  input              out_ready,
  output reg [31:0]  d
);
  // an aligned product is below 2^15 on the grid of 13 fractional bits, C below 2^14: the sum's
  // magnitude fits MW bits, the signed sum SW
  localparam MW = 16 + $clog2(K);
  localparam SW = MW + 1;
  localparam integer TOP = MW - 1;    // the leading one's highest place

  // e4m3 decode: {nan, u = e + 128 (8 bits), integer significand with 3 fractional bits (4 bits)};
  // a zero counts as exponent -126 (u = 2), a subnormal as -6 (u = 122)
  function [12:0] dec_e4m3;
    input [6:0] x;                    // the magnitude bits (the sign is the product's)
    begin
      if (x == 7'h7f)
        dec_e4m3 = {1'b1, 12'd0};
      else if (x[6:3] == 4'd0)
        dec_e4m3 = {1'b0, (x[2:0] == 3'd0) ? 8'd2 : 8'd122, 1'b0, x[2:0]};
      else
        dec_e4m3 = {1'b0, {4'd0, x[6:3]} + 8'd121, 1'b1, x[2:0]};
    end
  endfunction

  // 4 x 4 bit multiplier: the partial products x << i for each set bit i of y, added one by one
  function [7:0] mul4;
    input [3:0] x;
    input [3:0] y;
    integer i;
    begin
      mul4 = 8'd0;
      for (i = 0; i < 4; i = i + 1)
        if (y[i]) mul4 = mul4 + ({4'd0, x} << i);
    end
  endfunction

  reg [K*10-1:0]  pe;                 // product k's exponent, e_a + e_b + 256
  reg [K*8-1:0]   pm;                 // product k's significand, 6 fractional bits
  reg [K-1:0]     ps;                 // product k's sign
  reg [K*SW-1:0]  t;                  // aligned terms, then the tree's partial sums
  reg [12:0]      da, db;
  reg             any_nan, c_nan, c_inf;
  reg [9:0]       uc, umax, sh;
  reg [23:0]      mc;
  reg [14:0]      al;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [23:0]      cal;                // C aligned: below 2^14, its high bits are zero
  /* verilator lint_on UNUSEDSIGNAL */
  reg [SW-1:0]    x, tc, sum, mag;
  reg [4:0]       p;
  reg [9:0]       pu;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [MW-1:0]    nrm;                // the sum with its leading one at the top (it and the low bits dropped)
  reg [MW+22:0]   sub;                // a subnormal D's fraction (below 2^23)
  /* verilator lint_on UNUSEDSIGNAL */
  reg             sgn;
  reg [31:0]      result;
  integer         k, j, w;

  always @* begin
    // ---- Step 2: exact products (and Step 1's NaN operands) ----
    any_nan = 1'b0;
    pe = {(K*10){1'b0}};
    pm = {(K*8){1'b0}};
    ps = {K{1'b0}};
    for (k = 0; k < K; k = k + 1) begin
      da = dec_e4m3(a[k*8 +: 7]);
      db = dec_e4m3(b[k*8 +: 7]);
      any_nan = any_nan | da[12] | db[12];
      ps[k] = a[k*8+7] ^ b[k*8+7];
      pe[k*10 +: 10] = {2'd0, da[11:4]} + {2'd0, db[11:4]};
      pm[k*8 +: 8] = mul4(da[3:0], db[3:0]);
    end
    // C (f32): u = E + 129 for a normal, 130 (-126) for a subnormal or zero
    c_nan = (c[30:23] == 8'hff) && (c[22:0] != 23'd0);
    c_inf = (c[30:23] == 8'hff) && (c[22:0] == 23'd0);
    uc = (c[30:23] == 8'd0) ? 10'd130 : {2'd0, c[30:23]} + 10'd129;
    mc = {c[30:23] != 8'd0, c[22:0]};

    // ---- Step 3: e_max, then every term truncated to 13 fractional bits below 2^e_max ----
    umax = uc;
    for (k = K - 1; k >= 0; k = k - 1)
      if (pe[k*10 +: 10] > umax) umax = pe[k*10 +: 10];
    for (k = 0; k < K; k = k + 1) begin
      sh = umax - pe[k*10 +: 10];
      al = {pm[k*8 +: 8], 7'd0} >> sh;                 // 6 -> 13 fractional bits, then align
      x = {{(SW-15){1'b0}}, al};
      t[k*SW +: SW] = ps[k] ? (~x + 1'b1) : x;
    end
    sh = umax - uc + 10'd10;                            // 23 -> 13 fractional bits, then align
    cal = mc >> sh;
    x = {{(SW-14){1'b0}}, cal[13:0]};
    tc = c[31] ? (~x + 1'b1) : x;

    // ---- Step 4: exact sum; lane j with lane 2w-1-j at each level, C last ----
    for (w = K / 2; w >= 1; w = w / 2)
      for (j = 0; j < w; j = j + 1) begin
        x = t[j*SW +: SW] + t[(2*w-1-j)*SW +: SW];
        if (MUTANT == 1 && w == K / 2) x = {{(SW-16){x[15]}}, x[15:0]};   // the planted bug
        t[j*SW +: SW] = x;
      end
    sum = t[SW-1:0] + tc;

    // ---- Step 5: normalize, round toward zero to 13 fractional bits (e8m13) ----
    sgn = sum[SW-1];
    mag = sgn ? (~sum + 1'b1) : sum;
    p = 5'd0;
    for (k = 0; k < MW; k = k + 1)
      if (mag[k]) p = k[4:0];                           // the last one found from the LSB is the leading one
    pu = {5'd0, p} + umax;                              // D's biased exponent is pu - 142
    nrm = mag[MW-1:0] << (TOP - {27'd0, p});
    sub = {23'd0, mag[MW-1:0]} << (umax - 10'd120);     // a subnormal D: the sum on f32's 2^-149 grid
    if (c_nan || any_nan)
      result = 32'h7fffffff;
    else if (c_inf)
      result = c;
    else if (mag == {SW{1'b0}})
      result = 32'd0;                                   // +0, never -0
    else if (pu >= 10'd397)
      result = {sgn, 8'hff, 23'd0};                     // |x| >= 2^128
    else if (pu >= 10'd143)
      result = {sgn, pu[7:0] - 8'd142, nrm[MW-2:MW-14], 10'd0};
    else
      result = {sgn, 8'd0, sub[22:0]};
  end

  // ---- handshake: D registered on acceptance, held until taken ----
  assign in_ready = !out_valid || out_ready;
  always @(posedge clk) begin
    if (!rst_n) begin
      out_valid <= 1'b0;
    end else if (in_ready) begin
      out_valid <= in_valid;
      if (in_valid) d <= result;
    end
  end
endmodule
