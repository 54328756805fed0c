// tb_mma: co-simulation top.  One bench per hardware unit (generated from the instruction table into
// build/rtl/gen/tb_units.svh by tb/gen_configs.py); +cfg=N picks configuration N of
// build/rtl/gen/configs.txt, or +instr=ARCH:INSTRUCTION the configuration whose unit serves that
// instruction (build/rtl/gen/instrs.txt), run with that instruction.  It looks its instruction up through
// DPI (with another K where the configuration says so: a schedule built at run time), and clocks only the
// unit that serves it (the others are never evaluated, so one Verilated model holds every configuration at
// full speed).  A bad +cfg or +instr: one line on stderr, exit 2 (mmaref_tb_arg_error).
module tb_mma (
  input logic clk
);
  import mmaref_dpi_pkg::*;
  import tb_support_pkg::*;
  int unit_sel = -1;

`include "tb_units.svh"

  initial begin
    int cfg, unit, mutant, h, k;
    string arch, name, instr;
    bit by_instr, by_cfg;
    by_instr = $value$plusargs("instr=%s", instr) != 0;
    by_cfg = $value$plusargs("cfg=%d", cfg) != 0;
    if (by_instr && by_cfg) mmaref_tb_arg_error("give +cfg=N or +instr=ARCH:INSTRUCTION, not both");
    if (by_instr) begin
      cfg = cfg_of_instr(instr);
      if (cfg < 0)
        mmaref_tb_arg_error($sformatf("+instr=%s: no unit serves that instruction (build/rtl/gen/instrs.txt lists ARCH NAME pairs; give ARCH:NAME)", instr));
    end else if (!by_cfg) cfg = 0;
    if (cfg < 0 || cfg >= NUM_CFG)
      mmaref_tb_arg_error($sformatf("+cfg=%0d: there are %0d configurations, 0 to %0d (build/rtl/gen/configs.txt)", cfg, NUM_CFG, NUM_CFG - 1));
    cfg_entry(cfg, arch, name, unit, mutant, k);
    if (by_instr) begin  // the instruction asked for, which may share its configuration with others
      int colon = 0;
      while (instr[colon] != ":") colon++;
      arch = instr.substr(0, colon - 1);
      name = instr.substr(colon + 1, instr.len() - 1);
    end
    h = mmaref_dpi_lookup(arch, name);
    if (h < 0) $fatal(1, "configuration %0d: %s %s is not in the model's table", cfg, arch, name);
    if (k != 0) h = mmaref_dpi_with_k(h, k);  // a design the table does not list (M3XU's naive unit)
    if (h < 0) $fatal(1, "configuration %0d: %s %s with k = %0d is not a schedule the model runs", cfg, arch,
                      name, k);
    mmaref_tb_select(h);
    unit_sel = unit;
  end
endmodule
