// mma_normalize: Step 5, first part.  The exact signed sum S * 2^lsb_exp is split into sign and
// magnitude; the magnitude is shifted so that its last kept bit has the weight q of D's last mantissa
// bit (D's output kind chosen by out_kind among OUT_MASK; subnormal results keep D's minimum exponent),
// and the bits shifted out give the guard bit and the sticky bit (any bit below the guard).
// MUTANT = 1 (the mutation check of make verify only, tests/verify/fda_mutants.sv): the sticky bit is
// dropped, so the round decision sees the guard bit alone.
module mma_normalize #(
  parameter int SW       = 34,                                        // width of the signed sum
  parameter int LW       = mma_pkg::EW + 2,                           // width of the signed lsb exponent
  parameter int OUT_MASK = 1 << mma_pkg::OUT_F32_RZ,
  parameter int XE       = LW + 2,                                    // exponent arithmetic width
  parameter int KW       = SW + mma_pkg::max_out_man(OUT_MASK) + 2,   // kept (left shifts reach D's mantissa)
  parameter int MUTANT   = 0
) (
  input  logic signed [SW-1:0]          sum,
  input  logic signed [LW-1:0]          lsb_exp,   // weight of the sum's last bit
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  output logic                          neg,
  output logic [KW-1:0]                 kept,      // |S| truncated at weight q
  output logic signed [XE-1:0]          q,         // weight of kept's last bit
  output logic                          guard,
  output logic                          sticky
);
  localparam int CW = mma_pkg::clog2(SW + 1);
  localparam int FIRST = mma_pkg::first_set(OUT_MASK);

  logic [SW-1:0] mag;
  logic [CW-1:0] lz;
  assign neg = sum[SW-1];
  assign mag = neg ? SW'(-sum) : SW'(sum);

  mma_lzc #(.W(SW)) u_lzc (.x(mag), .count(lz));

  always @* begin
    logic signed [XE-1:0] mb, emin, e_lead, sh;
    logic [SW:0] ext;
    // D's kept mantissa bits and minimum exponent
    mb = '0; emin = '0;
    for (int o = 0; o < mma_pkg::NUM_OUTS; o++)
      if (OUT_MASK[o] && (o == FIRST || out_kind == mma_pkg::OUT_BITS'(o))) begin
        mb   = XE'(mma_pkg::out_man_bits(o));
        emin = XE'(1 - mma_pkg::fmt_bias(mma_pkg::out_format(o)));
      end
    // exponent of the leading one, then the weight q of the last kept bit
    e_lead = XE'(SW - 1) - XE'(lz) + XE'(lsb_exp);
    q  = (e_lead < emin ? emin : e_lead) - mb;
    sh = q - XE'(lsb_exp);
    guard = 1'b0; sticky = 1'b0; ext = '0;
    if (sh <= 0) begin
      kept = KW'(mag) << (-sh);
    end else if (sh > XE'(SW)) begin
      kept = '0;
      sticky = mag != '0;
    end else begin
      ext    = {mag, 1'b0} >> sh;
      kept   = KW'(ext[SW:1]);
      guard  = ext[0];
      sticky = (mag & ~({SW{1'b1}} << (sh - 1))) != '0;
    end
    if (MUTANT == 1) sticky = 1'b0;
  end
endmodule
