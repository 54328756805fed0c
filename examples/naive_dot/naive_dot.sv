// naive_dot: an FP16 dot-product unit as a naive design would build it, written for this example
// independently of rtl/ (it imports nothing from the project).  D = C + sum A[i]*B[i] is computed as a
// sequential chain of IEEE binary32 fused multiply-adds, one lane a cycle:
//   acc = C;  for i = 0 .. K-1:  acc = fma(A[i], B[i], acc)   (each FMA exact, then rounded once, RNE)
// A and B are binary16, C and D binary32.  A vector takes K + 1 cycles (the handshake, then K FMAs).
// It meets make verify's port contract (docs/verify-your-design.md): valid/ready in, valid/ready out,
// the format selects and scales are accepted and ignored (the unit only does f16 x f16 + f32).
// Hopper's HMMA does not round after every product: `make verify` shows where the two differ, and
// `mmaref probe` explains how.
module naive_dot #(
  parameter int K = 16
) (
  input  logic          clk,
  input  logic          rst_n,
  input  logic          in_valid,
  output logic          in_ready,
  input  logic [3:0]    fmt_a, fmt_b, fmt_c,  // format selects: this unit knows only f16 x f16 + f32
  input  logic [2:0]    out_kind,
  input  logic [31:0]   c,
  input  logic [K*16-1:0] a, b,
  input  logic [7:0]    sa, sb,               // no block scales
  output logic          out_valid,
  input  logic          out_ready,
  output logic [31:0]   d
);
  // The exact sum of one FMA as an integer in units of 2^-149 (binary32's smallest subnormal): a binary32
  // value reaches bit 277, an f16 x f16 product (22-bit significand, lsb >= 2^-48) stays below bit 181.
  localparam int W = 280;
  localparam logic [31:0] QNAN = 32'h7fc0_0000;  // the default NaN of IEEE 754 hardware

  // binary32 fma(x, y, z) for binary16 x, y: exact product plus z, rounded to nearest even
  function automatic logic [31:0] fma16(input logic [15:0] x, input logic [15:0] y, input logic [31:0] z);
    logic          xs, ys, zs, ps, rs;
    logic [4:0]    xe, ye;
    logic [7:0]    ze;
    logic [10:0]   xm, ym;
    logic [23:0]   zm;
    logic [21:0]   pm;
    logic          xnan, ynan, znan, xinf, yinf, zinf, xzero, yzero;
    logic [W-1:0]  pmag, zmag, mag, rest;
    logic [23:0]   mant;
    int            p, sh;
    logic          guard, sticky;
    logic [24:0]   rm;
    xs = x[15];  xe = x[14:10];  ys = y[15];  ye = y[14:10];  zs = z[31];  ze = z[30:23];
    xnan = xe == 5'h1f && x[9:0] != 0;  xinf = xe == 5'h1f && x[9:0] == 0;  xzero = x[14:0] == 0;
    ynan = ye == 5'h1f && y[9:0] != 0;  yinf = ye == 5'h1f && y[9:0] == 0;  yzero = y[14:0] == 0;
    znan = ze == 8'hff && z[22:0] != 0; zinf = ze == 8'hff && z[22:0] == 0;
    ps = xs ^ ys;
    // specials: NaN in, inf * 0, inf - inf
    fma16 = QNAN;
    if (xnan || ynan || znan || (xinf && yzero) || (yinf && xzero)) fma16 = QNAN;
    else if (xinf || yinf) fma16 = (zinf && zs != ps) ? QNAN : {ps, 8'hff, 23'd0};
    else if (zinf) fma16 = z;
    else begin
      // significands with the hidden bit (a subnormal: none, exponent 1)
      xm = {xe != 0, x[9:0]};  ym = {ye != 0, y[9:0]};  zm = {ze != 0, z[22:0]};
      if (xe == 0) xe = 5'd1;
      if (ye == 0) ye = 5'd1;
      if (ze == 0) ze = 8'd1;
      pm = xm * ym;
      // x*y = pm * 2^(xe + ye - 30 - 20) = pm * 2^-149 * 2^(xe + ye + 99);  z = zm * 2^-149 * 2^(ze - 1)
      pmag = W'(pm) << (9'(xe) + 9'(ye) + 9'd99);
      zmag = W'(zm) << (9'(ze) - 9'd1);
      // the exact signed sum, sign and magnitude
      if (ps == zs) begin
        mag = pmag + zmag;  rs = ps;
      end else if (pmag >= zmag) begin
        mag = pmag - zmag;  rs = ps;
      end else begin
        mag = zmag - pmag;  rs = zs;
      end
      if (mag == 0) fma16 = {(ps == zs) ? ps : 1'b0, 31'd0};  // x - x = +0 in round-to-nearest
      // below 2^24 units the value is exact in binary32 and its bits are the integer itself
      else if (mag < W'(1) << 24) fma16 = {rs, 7'd0, mag[23:0]};
      else begin
        p = 0;
        for (int i = 0; i < W; i++) if (mag[i]) p = i;
        sh = p - 23;                                        // keep 24 significant bits
        mant = 24'(mag >> sh);
        rest = mag & ((W'(1) << sh) - W'(1));
        guard = rest[sh-1];
        sticky = (rest & ((W'(1) << (sh - 1)) - W'(1))) != 0;
        rm = {1'b0, mant} + 25'(guard && (sticky || mant[0]));
        if (rm[24]) begin                                   // rounded up to the next binade
          rm = rm >> 1;
          sh = sh + 1;
        end
        if (sh + 1 >= 255) fma16 = {rs, 8'hff, 23'd0};      // overflow: RNE gives inf
        else fma16 = {rs, 8'(sh + 1), rm[22:0]};
      end
    end
  endfunction

  localparam int IW = K > 1 ? $clog2(K) : 1;
  logic [K*16-1:0] a_q, b_q;
  logic [31:0]     acc;
  logic [IW-1:0]   lane;
  logic            busy;

  assign in_ready = !busy && !out_valid;
  assign d = acc;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      busy <= 1'b0;
      out_valid <= 1'b0;
      lane <= '0;
      acc <= '0;
      a_q <= '0;
      b_q <= '0;
    end else begin
      if (out_valid && out_ready) out_valid <= 1'b0;
      if (in_valid && in_ready) begin
        a_q <= a;
        b_q <= b;
        acc <= c;
        lane <= '0;
        busy <= 1'b1;
      end else if (busy) begin
        acc <= fma16(a_q[lane*16 +: 16], b_q[lane*16 +: 16], acc);
        lane <= lane + IW'(1);
        if (lane == IW'(K - 1)) begin
          busy <= 1'b0;
          out_valid <= 1'b1;
        end
      end
    end
  end

  logic unused;
  assign unused = ^{fmt_a, fmt_b, fmt_c, out_kind, sa, sb};
endmodule
