// fda_pipe_wrap: test fixture of tests/t_rtl_verify.sh -- the project's fda_unit (Hopper's f16 FDA:
// K = 16, F = 25, f32-rz) behind a wrapper with another timing, to show make verify's bench takes any
// latency in order: a vector is accepted every other cycle at most, and each result waits LAT cycles in a
// FIFO before it is offered.  +wrap_mutant=N breaks the wrapper on purpose (the bench must catch it):
// 1 hands out results in swapped pairs (1, 0, 3, 2, ...), 2 drops the 500th result.  Without the
// plusarg (and under Yosys's -formal, make prove, which has none) the parameter SELECT chooses.
module fda_pipe_wrap #(
  parameter int LAT    = 5,  // extra cycles a result waits in the FIFO
  parameter int DEPTH  = 8,  // FIFO entries (a power of two)
  parameter int SELECT = 0   // the wrapper mutant when no +wrap_mutant=N is given
) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        in_valid,
  output logic        in_ready,
  input  logic [3:0]  fmt_a, fmt_b, fmt_c,
  input  logic [2:0]  out_kind,
  input  logic [31:0] c,
  input  logic [255:0] a, b,
  input  logic [7:0]  sa, sb,
  output logic        out_valid,
  input  logic        out_ready,
  output logic [31:0] d
);
  localparam int PW = $clog2(DEPTH);
`ifdef FORMAL
  localparam int mutant = SELECT;
`else
  int mutant = 0;
  initial if (!$value$plusargs("wrap_mutant=%d", mutant)) mutant = SELECT;
`endif

  logic        u_in_ready, u_out_valid, u_out_ready, odd;
  logic [31:0] u_d;
  fda_unit #(.K(16), .F(25), .AB_MASK(1 << mma_pkg::FMT_F16), .C_MASK(1 << mma_pkg::FMT_F32),
             .OUT_MASK(1 << mma_pkg::OUT_F32_RZ), .ZERO_EXP(-133)) u (
    .clk(clk), .rst_n(rst_n), .in_valid(in_valid && !odd), .in_ready(u_in_ready), .fmt_a(fmt_a),
    .fmt_b(fmt_b), .fmt_c(fmt_c), .out_kind(out_kind), .c(c), .a(a), .b(b), .sa(sa), .sb(sb),
    .out_valid(u_out_valid), .out_ready(u_out_ready), .d(u_d));
  assign in_ready = u_in_ready && !odd;  // every other cycle

  // the FIFO: result and the cycle it arrived
  logic [31:0]   mem_d[DEPTH];
  longint        mem_t[DEPTH];
  logic [PW:0]   wp, rp;
  longint        now;
  logic [PW:0]   level, take;
  longint        popped;
  assign level = wp - rp;
  assign u_out_ready = level < (PW + 1)'(DEPTH);
  // mutant 1 reads the other entry of each pair (and waits until both are in)
  assign take = mutant == 1 ? rp ^ (PW + 1)'(1) : rp;
  assign out_valid = level != 0 && now - mem_t[rp[PW-1:0]] >= 64'(LAT) && !(mutant == 1 && !rp[0] && level < 2)
                     && !(mutant == 2 && popped == 499);
  assign d = mem_d[take[PW-1:0]];

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      wp <= '0;  rp <= '0;  now <= 0;  odd <= 1'b0;  popped <= 0;
    end else begin
      now <= now + 1;
      odd <= !odd;
      if (u_out_valid && u_out_ready) begin
        mem_d[wp[PW-1:0]] <= u_d;
        mem_t[wp[PW-1:0]] <= now;
        wp <= wp + 1'b1;
      end
      // mutant 2 drops one result: it leaves the FIFO without being offered
      if ((out_valid && out_ready) || (mutant == 2 && popped == 499 && level != 0)) begin  // (not offered)
        rp <= rp + 1'b1;
        popped <= popped + 1;
      end
    end
  end
endmodule
