// gdfs_lanes: fixture of make prove's lane-permutation property for GDFS (tests/prove/all.sh,
// docs/formal.md) -- the project's gdfs_unit behind make verify's port contract, with lanes I and J of A
// and B swapped in front of it.  GDFS sums each group of G products exactly at one e_max, then scales
// and adds the groups (mma-sim, GDFS Steps 1-6), so two lanes of one group (and one scale block) may
// trade places without changing D; lanes of different groups meet different scales and may not (the
// row swapping lanes 0 and G must be refuted).  FMT_S and BLOCK32 are the instruction's scale format
// and block size (the contract carries no scale-format select).
module gdfs_lanes #(
  parameter int K       = 64,
  parameter int G       = 16,
  parameter int F       = 35,
  parameter int FMT_S   = mma_pkg::FMT_UE8M0,
  parameter int BLOCK32 = 0,
  parameter int I       = 0,     // the two lanes swapped
  parameter int J       = 1,
  parameter int NSW     = K / (BLOCK32 != 0 ? 32 : 16)
) (
  input  logic                          clk,
  input  logic                          rst_n,
  input  logic                          in_valid,
  output logic                          in_ready,
  input  logic [mma_pkg::FMT_BITS-1:0]  fmt_a, fmt_b, fmt_c,
  input  logic [mma_pkg::OUT_BITS-1:0]  out_kind,
  input  logic [31:0]                   c,
  input  logic [K*4-1:0]                a, b,
  input  logic [NSW*8-1:0]              sa, sb,
  output logic                          out_valid,
  input  logic                          out_ready,
  output logic [31:0]                   d
);
  logic [K*4-1:0] a_p, b_p;
  always @* begin
    a_p = a;
    b_p = b;
    a_p[I*4 +: 4] = a[J*4 +: 4];
    a_p[J*4 +: 4] = a[I*4 +: 4];
    b_p[I*4 +: 4] = b[J*4 +: 4];
    b_p[J*4 +: 4] = b[I*4 +: 4];
  end
  gdfs_unit #(.K(K), .G(G), .F(F)) u (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid), .in_ready(in_ready),
    .fmt_s(mma_pkg::FMT_BITS'(FMT_S)), .block32(BLOCK32 != 0), .c(c), .a(a_p), .b(b_p),
    .sa({(K/G*8)'(sa)}), .sb({(K/G*8)'(sb)}), .out_valid(out_valid), .out_ready(out_ready), .d(d));
  // the contract's format and output-kind selects: the unit serves e2m1 and f32 alone
  wire unused = &{1'b0, fmt_a, fmt_b, fmt_c, out_kind};
endmodule
