// gdfs_group: one group of GDFS (docs/algorithms.md, GDFS Steps 2-4), the term that group hands to the
// fused sum (rtl/gdfs_sum.sv; gdfs_unit instantiates K / G of them).
//   Steps 2-3: G exact e2m1 products, summed exactly: sigma.
//   Step 4: gamma = |sigma| * m_sa * m_sb with exponent e_sa + e_sb alone (the scales' exponents; a zero
//     UE4M3 scale at ZERO_EXP), sigma's sign; x is gamma on the grid of F fractional bits below 2^e.
// nan: a scale of the two is NaN (Step 1 reads it).
module gdfs_group #(
  parameter int G  = mma_pkg::GDFS_GROUP,
  parameter int F  = 35,
  parameter int XW = mma_pkg::gdfs_term_width(G, F)
) (
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_s,      // FMT_UE8M0 or FMT_UE4M3
  input  logic [G*4-1:0]                a, b,       // e2m1 lanes
  input  logic [7:0]                    sa, sb,     // the group's block scales
  output logic                          nan,
  output logic                          neg,
  output logic [mma_pkg::EW-1:0]        e,
  output logic [XW-1:0]                 x
);
  localparam int SM  = (1 << mma_pkg::FMT_UE8M0) | (1 << mma_pkg::FMT_UE4M3);
  localparam int SF  = mma_pkg::max_man_bits(SM);          // fractional bits of a scale significand
  localparam int GF  = mma_pkg::GDFS_GAMMA_F;        // fractional bits of gamma: e2m1 product 2, two scales
  localparam int PW  = 8;                  // e2m1 product in units of 2^-2: at most 36 * 4 = 144
  localparam int GSW = PW + 1 + mma_pkg::clog2(G);   // signed group sum
  localparam int GMW = GSW - 1 + 2 * (SF + 1);       // gamma magnitude
  localparam int E2M1 = 1 << mma_pkg::FMT_E2M1;

  // ---- Steps 2-3: exact products, summed ----
  logic signed [PW:0] prod [G];
  genvar i;
  generate
    for (i = 0; i < G; i++) begin : g_lane
      mma_pkg::fp_t ua, ub;
      logic [1:0] ga, gb;
      logic [PW-1:0] p;
      logic [2:0] shift;
      mma_unpack #(.MASK(E2M1), .MW(1), .IW(4)) u_a (
        .raw(a[i*4 +: 4]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_E2M1)), .u(ua), .sig(ga));
      mma_unpack #(.MASK(E2M1), .MW(1), .IW(4)) u_b (
        .raw(b[i*4 +: 4]), .fmt(mma_pkg::FMT_BITS'(mma_pkg::FMT_E2M1)), .u(ub), .sig(gb));
      // e2m1 exponents are 0..2 above the minimum 0; a zero has sig 0 and no shift
      assign shift = (mma_pkg::fp_is_zero(ua) ? 3'd0 : 3'(mma_pkg::fp_exp(ua)))
                   + (mma_pkg::fp_is_zero(ub) ? 3'd0 : 3'(mma_pkg::fp_exp(ub)));
      assign p = PW'(ga * gb) << shift;
      assign prod[i] = (mma_pkg::fp_sign(ua) ^ mma_pkg::fp_sign(ub)) ? -((PW+1)'(p)) : (PW+1)'(p);
    end
  endgenerate
  logic signed [GSW-1:0] sigma;
  always @* begin
    sigma = '0;
    for (int k = 0; k < G; k++) sigma = sigma + GSW'(prod[k]);
  end

  // ---- Step 4: gamma = |sigma| * m_sa * m_sb, exponent e_sa + e_sb ----
  mma_pkg::fp_t usa, usb;
  logic [SF:0] ga, gb;
  logic [GSW-2:0] mag;
  mma_unpack #(.MASK(SM), .MW(SF), .IW(8)) u_sa (.raw(sa), .fmt(fmt_s), .u(usa), .sig(ga));
  mma_unpack #(.MASK(SM), .MW(SF), .IW(8)) u_sb (.raw(sb), .fmt(fmt_s), .u(usb), .sig(gb));
  assign nan = mma_pkg::fp_is_nan(usa) | mma_pkg::fp_is_nan(usb);
  assign neg = sigma[GSW-1];
  assign mag = (GSW-1)'(neg ? -sigma : sigma);
  assign x   = XW'(GMW'(mag) * GMW'(ga) * GMW'(gb)) << (F - GF);
  assign e   = mma_pkg::fp_exp(usa) + mma_pkg::fp_exp(usb);
endmodule
