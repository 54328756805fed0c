#!/usr/bin/env python3
"""Every mmaref command that writes to stdout, run with stdout a pipe whose read end is closed before it
starts (what `mmaref list --json | head` becomes once head has exited): it must end as cat ends there, by
SIGPIPE (return code -13, 141 in a shell), with nothing on stderr.  Standard library only.

usage: closed_stdout.py MMAREF    Prints "ok - ..." / "not ok - ..." lines (tests/lib.sh)."""
import os
import signal
import subprocess
import sys
import tempfile

H16 = ["hopper", "mma.m16n8k16.f32.f16.f16.f32"]
CDNA3 = ["cdna3", "v_mfma_f32_32x32x8_f16"]
DOT = ["-a", "1,0x1p-12", "-b", "1,0x1p-13", "-c", "-1"]


def cases(tmp):
    """(arguments, stdin bytes or None): every command with output on stdout, and --help of each."""
    gen = subprocess.run([sys.argv[1], "gen", *H16, "--n", "50"], capture_output=True, check=True).stdout
    yield ["--help"], None
    yield ["--version"], None
    yield ["list"], None
    yield ["list", "--json"], None
    yield ["list", "hopper"], None
    yield ["list", "--schema", "--json"], None
    yield ["dot", *H16, *DOT], None
    yield ["batch", *H16], gen
    yield ["gen", *H16, "--n", "1000000"], None
    yield ["study", "rounding-bias", "--samples", "100", "--no-plot", "--out", tmp], None
    yield ["study", "m3xu", "--samples", "100", "--no-plot", "--out", tmp], None
    yield ["diff", *CDNA3, *H16, "--random", "100"], None
    yield ["explain", *H16, *DOT], None
    yield ["explain", *H16, *DOT, "--json"], None
    yield ["probe", *H16], None
    yield ["rules"], None
    yield ["rules", *H16], None
    for cmd in ("list", "dot", "batch", "gen", "mma", "gemm", "study", "diff", "explain", "probe", "rules"):
        yield [cmd, "--help"], None


def run_unread(args, stdin):
    """args with stdout a pipe nobody reads: (return code, stderr)."""
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.argv[1], *args], stdout=w, stderr=subprocess.PIPE, input=stdin,
                           stdin=None if stdin is not None else subprocess.DEVNULL, timeout=120)
    finally:
        os.close(w)
    return p.returncode, p.stderr.decode(errors="replace").strip()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for args, stdin in cases(tmp):
            rc, err = run_unread(args, stdin)
            what = "mmaref %s with stdout a pipe nobody reads" % " ".join(a if a != tmp else "DIR" for a in args)
            if rc == -signal.SIGPIPE and not err:
                print("ok - %s: ends by SIGPIPE, quietly" % what)
            else:
                print("not ok - %s: return code %d (want %d, SIGPIPE), stderr '%s'" %
                      (what, rc, -signal.SIGPIPE, err[:200].replace("\n", "\\n")))


if __name__ == "__main__":
    main()
