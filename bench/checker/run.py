#!/usr/bin/env python3
"""Times tensorplace against clang-tidy with the tensorplace plugin, on the same files.

    bench/checker/run.py --build build [--units 8] [--blocks 4]

Takes the examples' LibTorch translation units (their commands from the build's
compile_commands.json) and generated units of realistic size compiled with the same
flags, then, side by side in one run:

  * clang++ -fsyntax-only on each file (the cost of parsing it, the floor of a full parse),
  * clang-tidy --load tensorplace-tidy.so --checks='-*,torch-*' on each file,
  * tensorplace on each file alone (no shared PCH: header bodies skipped),
  * tensorplace -j 1 on all files in one run (a PCH of the shared includes, when enough
    files share them, built once and counted in the total).

It checks that clang-tidy and tensorplace report exactly the same findings
(file:line:col:rule) and prints wall times, their ratios and peak memory. The exit
status is 1 when the findings differ.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WARNING = re.compile(r"^(/[^:]+):(\d+):(\d+): warning: .* \[(torch-[a-z-]+)\]$")
EXPECT = re.compile(r"// expect: (.*)$")


def run(command, cwd=None):
    """Runs a command; returns (seconds, max RSS in MiB, exit status, stdout, stderr)."""
    start = time.monotonic()
    proc = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # wait4 gives this child's own peak memory (and that of children it waited for).
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.monotonic() - start
    return seconds, usage.ru_maxrss / 1024.0, proc.returncode, out.decode(), err.decode()


def findings(output):
    found = set()
    for line in output.splitlines():
        m = WARNING.match(line)
        if m:
            found.add((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
    return found


def expected(path):
    lines = set()
    with open(path) as f:
        for number, line in enumerate(f, 1):
            m = EXPECT.search(line)
            if m:
                for rule in re.findall(r"torch-[a-z-]+", m.group(1)):
                    lines.add((path, number, rule))
    return lines


def syntax_only_command(entry, clangxx):
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = [clangxx]
    skip = False
    for arg in args[1:]:
        if skip:
            skip = False
            continue
        if arg == "-o":
            skip = True
            continue
        if arg == "-c" or arg == entry["file"]:
            continue
        out.append(arg)
    return out + ["-fsyntax-only", "-w", entry["file"]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build", help="build directory (default: build)")
    parser.add_argument("--units", type=int, default=8, help="generated units (default: 8)")
    parser.add_argument("--blocks", type=int, default=4,
                        help="modules per generated unit (default: 4)")
    parser.add_argument("--clang-tidy", default="clang-tidy-14")
    parser.add_argument("--clangxx", default="clang++-14")
    parser.add_argument("--work", help="scratch directory (default: <build>/bench-checker)")
    args = parser.parse_args()

    build = os.path.abspath(args.build)
    tensorplace = os.path.join(build, "bin", "tensorplace")
    plugin = os.path.join(build, "lib", "tensorplace-tidy.so")
    for path in (tensorplace, plugin, os.path.join(build, "compile_commands.json")):
        if not os.path.exists(path):
            sys.exit("run.py: error: '%s' is missing; build tensorplace_cli and "
                     "tensorplace_tidy in '%s' first" % (path, build))
    for tool in (args.clang_tidy, args.clangxx):
        if not shutil.which(tool):
            sys.exit("run.py: error: '%s' is not on PATH" % tool)

    with open(os.path.join(build, "compile_commands.json")) as f:
        database = json.load(f)
    examples = [e for e in database
                if os.path.relpath(e["file"], ROOT).startswith("examples" + os.sep)]
    if not examples:
        sys.exit("run.py: error: no examples/ file in the build's compile_commands.json")
    base = next((e for e in examples if "placement_bugs" in e["file"]), examples[0])

    work = os.path.abspath(args.work or os.path.join(build, "bench-checker"))
    shutil.rmtree(work, ignore_errors=True)
    units = generate.generate(os.path.join(work, "units"), args.units, args.blocks)
    entries = [dict(e) for e in examples]
    base_args = shlex.split(base["command"]) if "command" in base else list(base["arguments"])
    for path in units:
        unit_args = [a if a != base["file"] else path for a in base_args]
        unit_args = [a if not a.endswith(".o") else path + ".o" for a in unit_args]
        entries.append({"directory": base["directory"], "file": path,
                        "command": " ".join(shlex.quote(a) for a in unit_args)})
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    files = [e["file"] for e in entries]

    help_text = run([tensorplace, "--help"])[3]
    jobs = ["-j", "1"] if re.search(r"^\s+-j\b", help_text, re.M) else []

    print("files: %d (%d examples, %d generated units of %d modules)" %
          (len(files), len(examples), len(units), args.blocks))
    print("load average at start: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    header = "%-44s %9s %9s %9s %8s %8s" % ("file", "clang++", "tidy", "tp-alone",
                                            "tidy/tp", "tp/c++")
    print(header)
    rows = []
    tidy_found, alone_found = set(), set()
    peak = {"clang++": 0.0, "tidy": 0.0, "tp-alone": 0.0}
    failed = False
    for entry in entries:
        path = entry["file"]
        t_cxx, m_cxx, rc_cxx, _, err_cxx = run(syntax_only_command(entry, args.clangxx),
                                               cwd=entry["directory"])
        t_tidy, m_tidy, rc_tidy, out_tidy, err_tidy = run(
            [args.clang_tidy, "--quiet", "--load", plugin, "--checks=-*,torch-*", "-p", work,
             path])
        t_tp, m_tp, rc_tp, out_tp, err_tp = run(
            [tensorplace, "--quiet", "-p", work] + jobs + [path])
        for name, rc, err in (("clang++", rc_cxx, err_cxx), ("clang-tidy", rc_tidy, err_tidy),
                              ("tensorplace", rc_tp if rc_tp != 1 else 0, err_tp)):
            if rc != 0:
                print("run.py: error: %s failed on %s:\n%s" % (name, path, err))
                failed = True
        peak["clang++"] = max(peak["clang++"], m_cxx)
        peak["tidy"] = max(peak["tidy"], m_tidy)
        peak["tp-alone"] = max(peak["tp-alone"], m_tp)
        tidy_found |= findings(out_tidy)
        alone_found |= findings(out_tp)
        rows.append((path, t_cxx, t_tidy, t_tp))
        print("%-44s %8.2fs %8.2fs %8.2fs %7.1fx %7.2fx" % (
            os.path.relpath(path, ROOT)[-44:], t_cxx, t_tidy, t_tp, t_tidy / t_tp, t_tp / t_cxx))
        sys.stdout.flush()

    t_all, m_all, rc_all, out_all, err_all = run(
        [tensorplace, "--quiet", "-p", work] + jobs + files)
    if rc_all not in (0, 1):
        print("run.py: error: tensorplace failed on the whole run:\n%s" % err_all)
        failed = True
    all_found = findings(out_all)

    n = len(rows)
    s_cxx = sum(r[1] for r in rows)
    s_tidy = sum(r[2] for r in rows)
    s_tp = sum(r[3] for r in rows)
    print("%-44s %8.2fs %8.2fs %8.2fs %7.1fx %7.2fx" % ("total, one process per file", s_cxx,
                                                      s_tidy, s_tp, s_tidy / s_tp, s_tp / s_cxx))
    print("%-44s %8.2fs %8.2fs %8.2fs" % ("mean per file", s_cxx / n, s_tidy / n, s_tp / n))
    print()
    print("tensorplace %s on all %d files in one run: %.2fs (%.2fs a file, PCH build included)"
          % (" ".join(jobs), n, t_all, t_all / n))
    print("  clang-tidy / tensorplace one run: %.1fx   tensorplace one run / clang++ "
          "-fsyntax-only: %.2fx" % (s_tidy / t_all, t_all / s_cxx))
    print("peak memory (max RSS): clang++ %.0f MiB, clang-tidy %.0f MiB, tensorplace alone "
          "%.0f MiB, tensorplace one run %.0f MiB" % (peak["clang++"], peak["tidy"],
                                                     peak["tp-alone"], m_all))
    print("load average at end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))

    planted = set()
    for path in files:
        planted |= expected(path)
    found_lines = {(f, line, rule) for f, line, _, rule in tidy_found}
    print()
    print("findings: clang-tidy %d, tensorplace alone %d, tensorplace one run %d, planted %d"
          % (len(tidy_found), len(alone_found), len(all_found), len(planted)))
    same = tidy_found == alone_found == all_found
    for label, other in (("tensorplace alone", alone_found), ("tensorplace one run", all_found)):
        for f in sorted(tidy_found - other):
            print("  only clang-tidy (not %s): %s:%d:%d [%s]" % ((label,) + f))
        for f in sorted(other - tidy_found):
            print("  only %s: %s:%d:%d [%s]" % ((label,) + f))
    for f in sorted(planted - found_lines):
        print("  planted, not found: %s:%d [%s]" % f)
    for f in sorted(found_lines - planted):
        print("  found, not planted: %s:%d [%s]" % f)
    print("identical findings: %s" % ("yes" if same else "NO"))
    return 1 if failed or not same else 0


if __name__ == "__main__":
    sys.exit(main())
