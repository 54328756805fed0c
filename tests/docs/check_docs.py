#!/usr/bin/env python3
"""The docs state what is: checks of README.md and docs/*.md against the tree and the CLI.

1. Transcripts: every `$ mmaref ...` / `$ build/mmaref ...` line of a code block is run (continuation
   lines ending in a backslash joined) and the lines shown under it must be what the command prints, in
   order.  A transcript is written as it runs in a build tree, `$ build/mmaref` (a bare `mmaref` is not
   on PATH there), and a block showing a trace of `mmaref explain` (its `Step N` lines) shows the command
   that printed it.  A shown block holding a line `...` (or a command marked `# excerpt`) is an excerpt: each shown
   line must appear in the output, in order; a shown line ending in `...` is a prefix.  The exit status
   must be 0 (`mmaref diff`: 0 or 1, its "some differ").  A transcript whose input is a file the reader
   makes first (`< results.txt`) or a Verilated unit (build/verify/) is reported and not run.
2. Commands: every other `mmaref ...` / `build/mmaref ...` line of a code block that takes no file and
   elides nothing (no `<`, `>`, `|`, `.npy`, `...`, `[`, no placeholder in capitals such as ARCH) runs
   with exit status 0.
3. The file table of an algorithms.md given (docs/algorithms.md, "Where things are"): every path it names
   exists, every `t_*` suite is a tests/t_*.sh file, every `trace_*` function is defined in
   cmodel/src/explain.c; and against the model's schema (`mmaref list --schema --json`): every summation
   kind has exactly one row (its Co- forms beside it) and the table names no other, and a row's RTL unit
   (the first rtl/ file of its column) is the module of the schema's unit kind that runs its kinds.

usage: check_docs.py MMAREF FILE.md...   Prints "ok - ..." / "not ok - ..." lines (tests/lib.sh)."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def transcripts(path):
    """(command, shown lines) for every `$ mmaref` line of every code block of PATH."""
    for block in re.findall(r"```[a-z]*\n(.*?)```", open(path).read(), re.S):
        lines, i = block.splitlines(), 0
        while i < len(lines):
            m = re.match(r"^\$ ((?:build/)?mmaref\s.*)$", lines[i])
            i += 1
            if not m:
                continue
            cmd = m.group(1)
            while cmd.endswith("\\") and i < len(lines):
                cmd, i = cmd[:-1] + " " + lines[i].strip(), i + 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i].rstrip())
                i += 1
            while shown and not shown[-1]:
                shown.pop()
            yield cmd, shown


def matches(shown, out, excerpt):
    """None when the output shows what the doc shows, else the first shown line that it does not."""
    out = [o.rstrip() for o in out]
    if not excerpt:
        for k, s in enumerate(shown):
            o = out[k] if k < len(out) else None
            if o is None or not (o == s or (s.endswith("...") and o.startswith(s[:-3].rstrip()))):
                return s
        return None
    pos = 0
    for s in shown:
        if s.strip() in ("...", "…", ""):
            continue
        want = s[:-3].rstrip() if s.endswith("...") else s
        while pos < len(out) and not (out[pos] == want or (s.endswith("...") and out[pos].startswith(want))):
            pos += 1
        if pos == len(out):
            return s
        pos += 1
    return None


def check_trace_commands(path):
    """Every block holding an explain trace (lines '   Step N') holds the `$ ` command that printed it."""
    rel = os.path.relpath(path, ROOT)
    for block in re.findall(r"```[a-z]*\n(.*?)```", open(path).read(), re.S):
        if re.search(r"^\s+Step \d", block, re.M) and not re.search(r"^\$ ", block, re.M):
            print(f"not ok - docs: {rel}: a trace shown without its command "
                  f"(its first line: '{block.splitlines()[0][:80]}'); show it as `$ build/mmaref explain ...`")


def check_transcripts(mmaref, path):
    rel = os.path.relpath(path, ROOT)
    check_trace_commands(path)
    for cmd, shown in transcripts(path):
        short = cmd if len(cmd) < 90 else cmd[:87] + "..."
        if not cmd.startswith("build/mmaref"):
            print(f"not ok - docs: {rel}: `{short}`: a bare mmaref is not on PATH in a build tree; "
                  "write the transcript as `$ build/mmaref ...`")
            continue
        needs = re.search(r"<\s*(\S+)", cmd)
        if (needs and not os.path.exists(os.path.join(ROOT, needs.group(1)))) or "build/verify/" in cmd:
            print(f"# {rel}: not run (needs {needs.group(1) if needs else 'a make verify build'}): {short}")
            continue
        run = re.sub(r"^(build/)?mmaref", mmaref.replace("\\", "\\\\"), cmd)
        p = subprocess.run(["bash", "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=120)
        excerpt = "# excerpt" in cmd or any(s.strip() in ("...", "…") for s in shown)
        first_bad = matches(shown, p.stdout.splitlines(), excerpt)
        allowed = (0, 1) if re.match(r"^\S+\s+diff\s", cmd) else (0,)
        if p.returncode in allowed and first_bad is None:
            print(f"ok - docs: {rel}: `{short}` prints what the doc shows ({len(shown)} lines)")
        else:
            why = f"exit {p.returncode}: {p.stderr.strip()[:200]}" if p.returncode not in allowed else \
                f"the doc shows '{first_bad}', the command prints something else"
            print(f"not ok - docs: {rel}: `{short}`: {why}")


def check_commands(mmaref, path):
    rel = os.path.relpath(path, ROOT)
    for block in re.findall(r"```[a-z]*\n(.*?)```", open(path).read(), re.S):
        for line in block.splitlines():
            cmd = line.strip()
            if not re.match(r"^(build/)?mmaref\s", cmd) or re.search(r"[<>|\[]|\.npy|\.\.\.|…|\\$|\b[A-Z]{3,}\b", cmd.split("#")[0]):
                continue
            run = re.sub(r"^(build/)?mmaref", mmaref.replace("\\", "\\\\"), cmd)
            p = subprocess.run(["bash", "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=120)
            short = cmd if len(cmd) < 90 else cmd[:87] + "..."
            if p.returncode == 0:
                print(f"ok - docs: {rel}: `{short}` runs")
            else:
                print(f"not ok - docs: {rel}: `{short}`: exit {p.returncode}: {p.stderr.strip()[:200]}")


def check_algorithms_table(path, mmaref):
    text = open(path).read()
    table = text.split("## Where things are", 1)[1].split("\n\n", 2)[1]
    explain = open(os.path.join(ROOT, "cmodel", "src", "explain.c")).read()
    missing = []
    for row in table.splitlines()[2:]:
        cells = row.split("|")[2:]
        for name in re.findall(r"`([^`]+)`", "|".join(cells)):
            if name.startswith("t_"):
                ok = os.path.exists(os.path.join(ROOT, "tests", name + ".sh"))
            elif name.startswith("trace_"):
                ok = re.search(r"\b" + name + r"\s*\(", explain) is not None
            elif "/" in name:  # a path from the root, from its row's directory, or under tests/
                ok = os.path.exists(os.path.join(ROOT, name)) or os.path.exists(os.path.join(ROOT, "tests", name))
            else:              # a file beside the row's first path (`fda_datapath.sv` after `rtl/fda_unit.sv`)
                ok = any(os.path.exists(os.path.join(ROOT, d, name)) for d in ("cmodel/src", "rtl"))
            if not ok:
                missing.append(name)
    if missing:
        print(f"not ok - docs: {os.path.relpath(path, ROOT)}'s file table names what does not exist: {', '.join(missing)}")
    else:
        print(f"ok - docs: every file, suite and trace function of {os.path.relpath(path, ROOT)}'s table exists")
    check_table_kinds(path, table, mmaref)


def check_table_kinds(path, table, mmaref):
    """The table's rows against the schema: one row per summation kind, each row's RTL unit the module of
    the first unit kind of the schema's catalogue that runs the row's kinds."""
    rel = os.path.relpath(path, ROOT)
    p = subprocess.run([mmaref, "list", "--schema", "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        print(f"not ok - docs: {rel}'s table: mmaref list --schema --json failed: {p.stderr.strip()[:200]}")
        return
    schema = json.loads(p.stdout)
    algos = [a["name"] for a in schema["algos"]]
    module_of = {}
    for u in schema["units"]:
        for a in u["algos"]:
            module_of.setdefault(a, u["module"])
    rows_of, bad = {}, []
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.split("|")[1:-1]]
        # "FDA, CoFDA" and "M3XU (FP32, FP32C; ...)": the kinds before any parenthesis, Co- forms folded
        kinds = {re.sub(r"^Co", "", k.strip()) for k in re.sub(r"\(.*", "", cells[0]).split(",") if k.strip()}
        units = re.findall(r"`rtl/(\w+)\.sv`", cells[5]) if len(cells) > 5 else []
        for k in sorted(kinds):
            rows_of.setdefault(k, []).append(cells[0])
            if k not in algos:
                bad.append(f"row '{cells[0]}' names '{k}', not a summation kind of the schema ({', '.join(algos)})")
            elif k in module_of and (not units or units[0] != module_of[k]):
                bad.append(f"row '{cells[0]}': its RTL unit is {('rtl/' + units[0] + '.sv') if units else 'none'}, "
                           f"the schema's unit catalogue runs {k} on {module_of[k]}")
    for a in algos:
        if len(rows_of.get(a, [])) != 1:
            bad.append(f"summation kind {a} has {len(rows_of.get(a, []))} rows, not one")
    if bad:
        print(f"not ok - docs: {rel}'s table against the schema: " + "; ".join(bad))
    else:
        print(f"ok - docs: {rel}'s table has one row per summation kind of the schema ({len(algos)}), "
              "each with the RTL unit of the schema's unit catalogue")


def main():
    mmaref, files = sys.argv[1], sys.argv[2:]
    for path in files:
        check_transcripts(mmaref, path)
        check_commands(mmaref, path)
        if os.path.basename(path) == "algorithms.md":
            check_algorithms_table(path, mmaref)


if __name__ == "__main__":
    main()
