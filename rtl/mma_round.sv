// mma_round: FDA Step 5, normalize-and-round.  The exact sum S * 2^lsb_exp becomes D:
//   OUT_F32_RZ     f32, round toward zero on f32's grid (subnormals included); |x| >= 2^128 -> inf
//   OUT_F32_E8M13  the same keeping 13 fractional bits; the low 10 mantissa bits of D are zero
//   OUT_F16_RNE    f16, one round-to-nearest-even (subnormals included); overflow -> inf
// A sum that is zero, or that rounds to zero, is +0 (the Tensor Core never returns -0 from a fused sum).  Special values (nan/inf)
// from mma_special override the number; NaN is canonical (0x7FFFFFFF f32, 0x7FFF f16).  D is returned in
// 32 bits, an f16 in the low half.
module mma_round #(
  parameter int SW       = 34,  // width of the signed sum
  parameter int LW       = mma_pkg::EW + 2,  // width of the signed lsb exponent
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ
) (
  input  logic signed [SW-1:0] sum,
  input  logic signed [LW-1:0] lsb_exp,  // weight of the sum's last bit: e_max - F
  input  logic [1:0]           out_kind,
  input  logic                 nan,
  input  logic                 inf,
  input  logic                 inf_neg,
  output logic [31:0]          d
);
  localparam int XE = LW + 2;                 // exponent arithmetic width
  localparam int CW = mma_pkg::clog2(SW + 1);
  localparam int KW = SW + 25;                // kept significand (left shifts reach 23 bits)
  localparam int KI = mma_pkg::clog2(KW);

  logic          neg;
  logic [SW-1:0] mag;
  logic [CW-1:0] lz;
  assign neg = sum[SW-1];
  assign mag = neg ? SW'(-sum) : SW'(sum);

  mma_lzc #(.W(SW)) u_lzc (.x(mag), .count(lz));

  always @* begin
    logic signed [XE-1:0] mb, emin, bias, maxb;
    logic rne;
    logic signed [XE-1:0] e_lead, q, sh, biased;
    logic [KW-1:0] kept, wide;
    logic [SW:0] ext;
    logic guard, sticky, up, sgn;
    // parameters of the selected output kind
    if (OUT_MASK[mma_pkg::OUT_F16_RNE] && out_kind == 2'(mma_pkg::OUT_F16_RNE)) begin
      mb = XE'(10); emin = -(XE'(14)); bias = XE'(15); maxb = XE'(30); rne = 1'b1;
    end else if (OUT_MASK[mma_pkg::OUT_F32_E8M13] && out_kind == 2'(mma_pkg::OUT_F32_E8M13)) begin
      mb = XE'(13); emin = -(XE'(126)); bias = XE'(127); maxb = XE'(254); rne = 1'b0;
    end else begin
      mb = XE'(23); emin = -(XE'(126)); bias = XE'(127); maxb = XE'(254); rne = 1'b0;
    end
    // exponent of the leading one, then the weight q of the last kept bit
    e_lead = XE'(SW - 1) - XE'(lz) + XE'(lsb_exp);
    q  = (e_lead < emin ? emin : e_lead) - mb;
    sh = q - XE'(lsb_exp);
    guard = 1'b0; sticky = 1'b0; wide = '0; ext = '0;
    if (sh <= 0) begin
      wide = KW'(mag) << (-sh);
      kept = wide;
    end else if (sh > XE'(SW)) begin
      kept = '0;
    end else begin
      ext    = {mag, 1'b0} >> sh;
      kept   = KW'(ext[SW:1]);
      guard  = ext[0];
      sticky = (mag & ~({SW{1'b1}} << (sh - 1))) != '0;
    end
    // round to nearest even (f16 only); a carry out moves the leading one up
    up = rne && guard && (sticky || kept[0]);
    kept = kept + KW'(up);
    if (kept[KI'(mb + XE'(1))]) begin
      kept = kept >> 1;
      q = q + 1;
    end
    biased = kept[KI'(mb)] ? q + mb + bias : '0;
    sgn = neg && kept != '0;        // a result that rounds to zero is +0
    if (mb == XE'(10)) begin
      if (nan)                    d = 32'h0000_7FFF;
      else if (inf || biased > maxb) d = {16'h0, (inf ? inf_neg : neg), 5'h1F, 10'h0};
      else                        d = {16'h0, sgn, biased[4:0], kept[9:0]};
    end else begin
      if (nan)                    d = 32'h7FFF_FFFF;
      else if (inf || biased > maxb) d = {(inf ? inf_neg : neg), 8'hFF, 23'h0};
      else if (mb == XE'(13))          d = {sgn, biased[7:0], kept[12:0], 10'h0};
      else                        d = {sgn, biased[7:0], kept[22:0]};
    end
  end
endmodule
