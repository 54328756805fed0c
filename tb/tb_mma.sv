// tb_mma: co-simulation top.  One bench per hardware unit (generated from the instruction table into
// build/rtl/gen/tb_units.svh by tb/gen_configs.py); +cfg=N picks configuration N of
// build/rtl/gen/configs.txt, looks its instruction up through DPI (with another K where the
// configuration says so: a schedule built at run time), and clocks only the unit that serves
// it (the others are never evaluated, so one Verilated model holds every configuration at full speed).
module tb_mma (
  input logic clk
);
  import mmaref_dpi_pkg::*;
  import tb_support_pkg::*;
  int unit_sel = -1;

`include "tb_units.svh"

  initial begin
    int cfg, unit, mutant, h, k;
    string arch, name;
    if (!$value$plusargs("cfg=%d", cfg)) cfg = 0;
    if (cfg < 0 || cfg >= NUM_CFG) $fatal(1, "+cfg=%0d: there are %0d configurations", cfg, NUM_CFG);
    cfg_entry(cfg, arch, name, unit, mutant, k);
    h = mmaref_dpi_lookup(arch, name);
    if (h < 0) $fatal(1, "configuration %0d: %s %s is not in the model's table", cfg, arch, name);
    if (k != 0) h = mmaref_dpi_with_k(h, k);  // a design the table does not list (M3XU's naive unit)
    if (h < 0) $fatal(1, "configuration %0d: %s %s with k = %0d is not a schedule the model runs", cfg, arch,
                      name, k);
    mmaref_tb_select(h);
    unit_sel = unit;
  end
endmodule
