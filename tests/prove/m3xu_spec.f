// the M3XU specification (tests/prove/m3xu_spec.sv) and the FDA specification it instantiates
tests/prove/fda_spec.sv
tests/prove/m3xu_spec.sv
