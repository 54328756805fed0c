// The RTL, in compilation order: the one list of its files, read by make (mk/rtl.mk RTL_SRC),
// verilator (-f rtl/rtl.f: lint, co-simulation) and synth/synth.sh (Yosys).  One file a line; comments
// start with //; +incdir+ names where `include files are found (rtl/mma_formats.svh, generated).
+incdir+rtl
rtl/mma_pkg.sv          // formats (rtl/mma_formats.svh), helpers, the unpacked-operand struct
rtl/mma_unpack.sv       // raw bits -> mma_pkg::fp_t + significand
rtl/mma_lzc.sv          // leading-zero count
rtl/mma_max_tree.sv     // e_max
rtl/mma_align.sv        // one term shifted to e_max, truncated
rtl/mma_align_sum.sv    // e_max, every term aligned, exact sum
rtl/mma_special.sv      // NaN / inf of the result
rtl/mma_normalize.sv    // Step 5: sign, magnitude shifted to D's grid, guard and sticky
rtl/mma_round.sv        // Step 5: round decision and increment
rtl/mma_pack.sv         // Step 5: D's bits, overflow, specials
rtl/mma_encode.sv       // Step 5: normalize -> round -> pack
rtl/mma_handshake.sv    // valid/ready, pass sequencing, output register
rtl/mma_chain.sv        // passes chained through one datapath (CoFDA, CoFDRDA, GPS groups, SFMA)
rtl/mma_mul.sv          // one lane's multiplier (a cut point of make prove)
rtl/mma_to_f16.sv       // an FP8 operand converted exactly to f16 (Hopper's FP8 mma.sync)
rtl/fda_term.sv         // FDA Step 2: one exact product
rtl/fda_sum.sv          // FDA Steps 1, 3-4: C, special values, e_max, alignment, exact sum
rtl/fda_datapath.sv     // one FDA pass: the products, fda_sum, Step 5
rtl/mma_fp_mul.sv       // IEEE product rounded once (GPS Step 2), optional flushing
rtl/mma_fp_add.sv       // IEEE sum rounded once (GPS Steps 3-4, C added last), optional flushing
rtl/mma_add_last.sv     // C added last: one IEEE addition in D's format (FP8 mma.sync)
rtl/fda_unit.sv         // FDA / CoFDA unit; FP8 mma.sync: pairs, f16 operands, C last
rtl/fdrda_dot.sv        // FDRDA / GFDRDA: the products' dot sum (Steps 0-5)
rtl/fdrda_add_c.sv      // FDRDA / GFDRDA: C added, D rounded (Steps 1, 3, 6-8)
rtl/fdrda_datapath.sv   // one FDRDA / GFDRDA pass: the two
rtl/fdrda_unit.sv       // FDRDA / GFDRDA unit, Co- forms as two passes
rtl/gps_datapath.sv     // one GPS group: products, pairwise tree, accumulation
rtl/gps_unit.sv         // GPS unit: one group a cycle
rtl/gdfs_group.sv       // GDFS Steps 2-4: one group's term
rtl/gdfs_sum.sv         // GDFS Steps 1, 5-6: C and the terms summed
rtl/gdfs_unit.sv        // GDFS unit
rtl/m3xu_assign.sv      // M3XU data-assignment stage
rtl/m3xu_sum.sv         // M3XU Steps 1, 4-6: specials, align, sum, round
rtl/m3xu_datapath.sv    // M3XU multipliers, product registers, one step
rtl/m3xu_unit.sv        // M3XU unit: handshake, step FSM, buffers, pipelined variant
rtl/naive_fp32_unit.sv  // comparison design: FP32 by 24x24 multipliers, K = 8 in one step
rtl/sfma_datapath.sv    // SFMA: one IEEE fused multiply-add (f64 / f32, RNE)
rtl/sfma_unit.sv        // SFMA unit: K chained FMAs through one datapath, one per cycle
