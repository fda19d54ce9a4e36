#!/usr/bin/env python3
"""Times tensorplace against clang-tidy with the tensorplace plugin, on the same files.

    bench/checker/run.py --build build [--units 8] [--blocks 4] [--corpus SRC --corpus-units 4]

Takes the examples' LibTorch translation units (their commands from the build's
compile_commands.json), generated units of realistic size and, with --corpus, real
projects' units from ../shared/corpus (its tus.txt; SRC holds their sources), all
compiled with the examples' flags, then, side by side in one run:

  * clang++ -fsyntax-only on each file (the cost of parsing it, the floor of a full parse),
  * clang-tidy --load tensorplace-tidy.so --checks='-*,torch-*' on each file,
  * tensorplace --no-cache on each file alone (no PCH, no cache: header bodies skipped),
  * whole runs of tensorplace over all files with a cache of their own: cold (the PCH
    built, results stored), warm (nothing changed), one file edited, one edited file
    alone (the kept PCH), and -j 1 against -j 2 (with the kept PCH and no cached
    results, and with --no-cache from nothing).

It checks that clang-tidy and every tensorplace run report exactly the same findings
(file:line:col:rule) and prints wall times, the ratios against clang-tidy and the peak
memory of a worker. The exit status is 1 when findings differ.
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
    parser.add_argument("--corpus", metavar="SRC",
                        help="sources of ../shared/corpus (SRC/<owner+repo>/...): add real "
                        "projects' translation units")
    parser.add_argument("--corpus-units", type=int, default=4,
                        help="how many of the corpus's units, first in tus.txt (default: 4)")
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
    corpus_units = []
    if args.corpus:
        tus = os.path.join(ROOT, "..", "shared", "corpus", "tus.txt")
        with open(tus) as f:
            for line in f:
                repo, path, flags = (line.rstrip("\n").split("|") + ["", ""])[:3]
                root = os.path.join(os.path.abspath(args.corpus), repo)
                source = os.path.join(root, path)
                if len(corpus_units) == args.corpus_units or not os.path.exists(source):
                    continue
                unit_args = [a if a != base["file"] else source for a in base_args]
                unit_args = [a if not a.endswith(".o") else "/dev/null" for a in unit_args]
                extra = [a if not a.startswith("-I") or a.startswith("-I/")
                         else "-I" + os.path.join(root, a[2:]) for a in flags.split()]
                entries.append({"directory": root, "file": source,
                                "command": " ".join(shlex.quote(a) for a in
                                                    unit_args[:-1] + extra + unit_args[-1:])})
                corpus_units.append(source)
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    files = [e["file"] for e in entries]

    help_text = run([tensorplace, "--help"])[3]
    jobs = ["-j", "1"] if re.search(r"^\s+-j\b", help_text, re.M) else []

    print("files: %d (%d examples, %d generated units of %d modules, %d real projects' units)" %
          (len(files), len(examples), len(units), args.blocks, len(corpus_units)))
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
            [tensorplace, "--quiet", "--no-cache", "-p", work] + jobs + [path])
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

    n = len(rows)
    s_cxx = sum(r[1] for r in rows)
    s_tidy = sum(r[2] for r in rows)
    s_tp = sum(r[3] for r in rows)
    tidy_of = {r[0]: r[2] for r in rows}
    print("%-44s %8.2fs %8.2fs %8.2fs %7.1fx %7.2fx" % ("total, one process per file", s_cxx,
                                                      s_tidy, s_tp, s_tidy / s_tp, s_tp / s_cxx))
    print("%-44s %8.2fs %8.2fs %8.2fs" % ("mean per file", s_cxx / n, s_tidy / n, s_tp / n))
    print()

    # Whole runs over all files, with a cache of their own.
    cache = os.path.join(work, "cache")
    runs = {}

    def whole(label, options, paths, fresh_results=False):
        nonlocal failed
        if fresh_results:
            shutil.rmtree(os.path.join(cache, "results"), ignore_errors=True)
        t, _, rc, out, err = run([tensorplace, "-p", work] + options + paths)
        if rc not in (0, 1):
            print("run.py: error: tensorplace failed (%s):\n%s" % (label, err))
            failed = True
        memory = re.search(r"peak worker memory (\d+) MiB", err)
        cached = re.search(r"from the cache: (\d+) of", err)
        runs[label] = {"seconds": t, "found": findings(out),
                       "worker_mib": int(memory.group(1)) if memory else 0,
                       "cached": int(cached.group(1)) if cached else 0, "files": len(paths)}
        return runs[label]

    cache_opt = ["--cache-dir", cache]
    whole("cold", cache_opt + ["-j", "1"], files)
    whole("warm", cache_opt + ["-j", "1"], files)
    edited = units[0]
    with open(edited, "a") as f:
        f.write("// edited\n")
    whole("one file edited", cache_opt + ["-j", "1"], files)
    alone = units[1]
    with open(alone, "a") as f:
        f.write("// edited\n")
    whole("one edited file alone", cache_opt, [alone])
    whole("-j 1, kept PCH", cache_opt + ["-j", "1"], files, fresh_results=True)
    whole("-j 2, kept PCH", cache_opt + ["-j", "2"], files, fresh_results=True)
    whole("-j 1, --no-cache", ["--no-cache", "-j", "1"], files)
    whole("-j 2, --no-cache", ["--no-cache", "-j", "2"], files)

    print("%-24s %6s %9s %10s %14s %12s" % ("tensorplace run", "files", "cached", "wall",
                                           "tidy/run", "worker peak"))
    for label, r in runs.items():
        tidy = tidy_of[alone] if r["files"] == 1 else s_tidy
        print("%-24s %6d %9d %9.2fs %13.1fx %8d MiB" % (label, r["files"], r["cached"],
                                                      r["seconds"], tidy / r["seconds"],
                                                      r["worker_mib"]))
    print()

    def ratio(label, value, target):
        print("  %-58s %7.1fx  (target %.1fx: %s)" % (label, value, target,
                                                     "met" if value >= target else "NOT met"))
    print("ratios (clang-tidy with the plugin: one process per file, as run-clang-tidy runs it):")
    ratio("warm re-run, unchanged files: clang-tidy / tensorplace", s_tidy / runs["warm"]["seconds"],
          20)
    ratio("a file alone, kept PCH: clang-tidy / tensorplace",
          tidy_of[alone] / runs["one edited file alone"]["seconds"], 5)
    ratio("cold run of all files: clang-tidy / tensorplace", s_tidy / runs["cold"]["seconds"], 3)
    ratio("-j 2 against -j 1 (kept PCH)",
          runs["-j 1, kept PCH"]["seconds"] / runs["-j 2, kept PCH"]["seconds"], 1.8)
    ratio("-j 2 against -j 1 (--no-cache: PCH built first, alone)",
          runs["-j 1, --no-cache"]["seconds"] / runs["-j 2, --no-cache"]["seconds"], 1.0)
    print("  %-58s %7.2fx" % ("cold run / clang++ -fsyntax-only on every file",
                              runs["cold"]["seconds"] / s_cxx))
    worker_peak = max(r["worker_mib"] for r in runs.values())
    print("peak memory: clang++ %.0f MiB, clang-tidy %.0f MiB, tensorplace alone %.0f MiB, "
          "tensorplace worker %d MiB (limit 1024: %s)" % (
              peak["clang++"], peak["tidy"], peak["tp-alone"], worker_peak,
              "met" if worker_peak < 1024 else "NOT met"))
    print("load average at end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))

    planted = set()
    for path in files:
        planted |= expected(path)
    found_lines = {(f, line, rule) for f, line, _, rule in tidy_found}
    print()
    print("findings: clang-tidy %d, tensorplace alone %d, planted %d (the generated units')"
          % (len(tidy_found), len(alone_found), len(planted)))
    compared = [("tensorplace alone", alone_found)]
    for label, r in runs.items():
        if r["files"] == len(files):
            compared.append(("tensorplace " + label, r["found"]))
    same = all(other == tidy_found for _, other in compared)
    for label, other in compared:
        for f in sorted(tidy_found - other):
            print("  only clang-tidy (not %s): %s:%d:%d [%s]" % ((label,) + f))
        for f in sorted(other - tidy_found):
            print("  only %s: %s:%d:%d [%s]" % ((label,) + f))
    generated = set(units)
    for f in sorted(planted - found_lines):
        print("  planted, not found: %s:%d [%s]" % f)
    for f in sorted(x for x in found_lines - planted if x[0] in generated):
        print("  found, not planted: %s:%d [%s]" % f)
    print("identical findings: %s" % ("yes" if same else "NO"))
    return 1 if failed or not same else 0


if __name__ == "__main__":
    sys.exit(main())
