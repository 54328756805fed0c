// mma_to_f16: one operand of a narrow format (chosen at run time by `fmt` among MASK: e4m3, e5m2)
// converted exactly to f16's bits.  Hopper has no FP8 mma.sync datapath: ptxas unpacks every FP8 byte to
// f16 (F2FP.F16.E4M3.UNPACK_B) and runs f16 HMMA passes, so an FP8 operand enters e_max as the f16 it
// becomes (docs/algorithms.md, "mma.sync FP8 on Hopper and Blackwell"): an e4m3 subnormal is an f16
// normal (the exponent of its leading one, below e4m3's -6), an e5m2 subnormal an f16 subnormal (e5m2 is
// f16's upper byte).  NaN becomes f16's canonical NaN, inf and zero keep their sign.  Every format of
// MASK must fit f16 exactly: precision at most 10 bits, normal exponents within -14..15, subnormals no
// finer than 2^-24 (the model's to_f16 in cmodel/src/schedule.c assumes the same).
module mma_to_f16 #(
  parameter int MASK = (1 << mma_pkg::FMT_E4M3) | (1 << mma_pkg::FMT_E5M2),
  parameter int IW   = mma_pkg::max_width(MASK)       // raw input width
) (
  input  logic [IW-1:0]                 raw,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt,
  output logic [15:0]                   h
);
  localparam int EW   = mma_pkg::EW;
  localparam int MW   = mma_pkg::max_man_bits(MASK);     // fractional bits of the unpacked significand
  localparam int HM   = mma_pkg::fmt_man_bits(mma_pkg::FMT_F16);
  localparam int HB   = mma_pkg::fmt_bias(mma_pkg::FMT_F16);
  localparam int HE   = mma_pkg::fmt_exp_bits(mma_pkg::FMT_F16);
  localparam int EMIN = 1 - HB;                          // f16's smallest normal exponent
  localparam int CW   = mma_pkg::clog2(MW + 2);

  mma_pkg::fp_t u;
  logic [MW:0] sig, m;
  logic [CW-1:0] lz;
  mma_unpack #(.MASK(MASK), .MW(MW), .IW(IW)) u_unpack (.raw(raw), .fmt(fmt), .u(u), .sig(sig));
  mma_lzc #(.W(MW + 1)) u_lzc (.x(sig), .count(lz));

  always @* begin
    logic signed [EW-1:0] e, room, sh;
    logic [HE-1:0] biased;
    e      = mma_pkg::fp_exp(u);                         // weight of sig's hidden position
    room   = e - EW'(EMIN);                              // how far the leading one may move up
    sh     = EW'(lz) < room ? EW'(lz) : room;            // normalize, but not below f16's EMIN
    m      = sig << sh;
    biased = m[MW] ? HE'(e - sh + EW'(HB)) : '0;         // no hidden bit: an f16 subnormal
    h = {mma_pkg::fp_sign(u), biased, HM'(m[MW-1:0]) << (HM - MW)};
    if (mma_pkg::fp_is_nan(u))       h = 16'(mma_pkg::fmt_canonical_nan(mma_pkg::FMT_F16));
    else if (mma_pkg::fp_is_inf(u))  h = 16'(mma_pkg::fmt_inf(mma_pkg::FMT_F16)) | {mma_pkg::fp_sign(u), 15'd0};
    else if (mma_pkg::fp_is_zero(u)) h = {mma_pkg::fp_sign(u), 15'd0};
  end
endmodule
