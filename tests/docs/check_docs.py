#!/usr/bin/env python3
"""The README and docs/ work as written.

Every fenced C++, CMake and shell block of README.md and docs/ is checked, or marked with why it
cannot be: an HTML comment right before the fence, `<!-- doc-test: ... -->` (docs/doc-tests.md
lists the markers). This script reads the pages, installs the build tree into one temporary
prefix, and then, as a user would:

- builds each `project` (its CMakeLists.txt and sources from the page) against the installed
  package, and runs it;
- compiles each page's C++ fragments in one translation unit (parse only), with the page's own
  CMake lines and includes, against the installed package;
- runs the shell blocks marked `cli` in a small demo project and checks their exit status;
- runs each page's Python blocks marked `python`, in page order, as one script, with the
  interpreter whose torch matches the build's LibTorch and the installed package on PYTHONPATH;
- runs the checker over each rule page's `wrong` example (it must report the page's rule and
  nothing else) and `right` example (nothing), and finds the page's `output` lines in what it
  prints.

It prints how many blocks each page has checked and fails on a block that is neither checked nor
marked. Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

CHECKED_LANGUAGES = {
    "cpp": "cpp", "c++": "cpp", "cxx": "cpp",
    "cmake": "cmake",
    "sh": "sh", "bash": "sh", "shell": "sh", "console": "sh",
    "python": "python", "py": "python",
}
# Which markers apply to which blocks ("other": any other fence, such as text or yaml).
MARKER_LANGUAGES = {
    "project": {"cmake", "cpp"},
    "fragments-cmake": {"cmake"},
    "fragments-include": {"cpp"},
    "fragment": {"cpp"},
    "statements": {"cpp"},
    "wrong": {"cpp"},
    "right": {"cpp"},
    "output": {"other"},
    "cli": {"sh"},
    "pre-commit": {"other"},
    "python": {"python"},
    "skip": {"cpp", "cmake", "sh", "python", "other"},
}
MARKER = re.compile(r"^\s*<!--\s*doc-test:(.*?)-->\s*$")
FENCE = re.compile(r"^( *)(`{3,}|~{3,})\s*([^\s`]*)")
FINDING = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): warning: .*\[(?P<rule>torch-[a-z-]+)\]$")


class DocError(Exception):
    pass


class Block:
    def __init__(self, page, line, language, text, marker):
        self.page = page            # path relative to the source root
        self.line = line            # line of the opening fence
        self.language = language    # "cpp", "cmake", "sh" or "other"
        self.text = text
        self.kind = None
        self.args = []
        self.options = {}
        self.reason = None
        if marker is not None:
            self._parse_marker(marker)

    def where(self):
        return f"{self.page}:{self.line}"

    def _parse_marker(self, marker):
        body = marker.strip()
        if body.startswith("skip"):
            self.kind = "skip"
            self.reason = body[len("skip"):].lstrip().removeprefix(":").strip()
            if not self.reason:
                raise DocError(f"{self.where()}: 'skip' needs a reason: <!-- doc-test: skip: <why> -->")
            return
        given = None
        if " given:" in body:
            body, given = body.split(" given:", 1)
        words = shlex.split(body)
        if not words:
            raise DocError(f"{self.where()}: empty doc-test marker")
        self.kind, rest = words[0], words[1:]
        if self.kind not in MARKER_LANGUAGES:
            raise DocError(f"{self.where()}: unknown doc-test marker '{self.kind}' "
                           f"(known: {', '.join(sorted(MARKER_LANGUAGES))})")
        if self.language not in MARKER_LANGUAGES[self.kind]:
            raise DocError(f"{self.where()}: '{self.kind}' does not apply to a "
                           f"{self.language} block")
        for word in rest:
            if "=" in word:
                key, value = word.split("=", 1)
                self.options[key] = value
            else:
                self.args.append(word)
        if given is not None:
            self.options["given"] = given.strip()
        if self.kind == "project" and len(self.args) != 2:
            raise DocError(f"{self.where()}: 'project' takes a project name and a file name")
        if self.kind in ("wrong", "right") and len(self.args) != 1:
            raise DocError(f"{self.where()}: '{self.kind}' takes the file name the example is "
                           "analysed as")
        if self.kind == "python" and not re.fullmatch(r"(\d+\.\d+)?",
                                                      self.options.get("requires-torch", "")):
            raise DocError(f"{self.where()}: 'python' takes requires-torch=MAJOR.MINOR or nothing")
        if self.kind in ("cli", "pre-commit") and "exit" not in self.options:
            raise DocError(f"{self.where()}: '{self.kind}' needs the exit status: exit=N or "
                           "exit=N,M,...")


def read_pages(root, pages):
    """Every fenced block of each page, with its marker."""
    blocks = []
    for page in pages:
        lines = (root / page).read_text(encoding="utf-8").splitlines()
        fence = None
        for number, line in enumerate(lines, 1):
            match = FENCE.match(line)
            if fence is None:
                if match:
                    indent, ticks, info = match.groups()
                    language = CHECKED_LANGUAGES.get(info.lower(), "other")
                    previous = lines[number - 2] if number >= 2 else ""
                    marker = MARKER.match(previous)
                    fence = (number, len(indent), ticks, language,
                             marker.group(1) if marker else None, [])
                elif MARKER.match(line) and not (number < len(lines) and FENCE.match(lines[number])):
                    raise DocError(f"{page}:{number}: a doc-test marker must be the line right "
                                   "before a fence")
                continue
            start, indent, ticks, language, marker, body = fence
            if match and match.group(2).startswith(ticks) and not match.group(3):
                blocks.append(Block(page, start, language, "\n".join(body) + "\n", marker))
                fence = None
            else:
                body.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
        if fence is not None:
            raise DocError(f"{page}:{fence[0]}: fence never closed")
    return blocks


def inventory(blocks):
    """Per-page counts; errors for blocks neither checked nor marked."""
    errors = []
    pages = {}
    for block in blocks:
        counts = pages.setdefault(block.page, {})
        if block.kind is None:
            if block.language != "other":
                errors.append(f"{block.where()}: {block.language} block is neither checked nor "
                              "marked; add <!-- doc-test: <kind> --> or <!-- doc-test: skip: "
                              "<why> --> on the line before it (docs/doc-tests.md)")
            continue
        counts[block.kind] = counts.get(block.kind, 0) + 1
    return pages, errors


def describe(pages, all_pages):
    lines = []
    for page in all_pages:
        counts = pages.get(page, {})
        checked = sum(n for kind, n in counts.items() if kind != "skip")
        detail = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()) if kind != "skip")
        skipped = counts.get("skip", 0)
        lines.append(f"  {page}: {checked} checked" + (f" ({detail})" if detail else "")
                     + (f", {skipped} marked not checkable" if skipped else ""))
    return "\n".join(lines)


class Runner:
    def __init__(self, args):
        self.args = args
        self.root = pathlib.Path(args.source_dir).resolve()
        self.work = pathlib.Path(args.work_dir).resolve()
        self.prefix = self.work / "prefix"
        self.failures = []
        with open(args.torch_flags, encoding="utf-8") as f:
            self.torch_flags = [line for line in f.read().splitlines() if line]
        self.std_flag = f"-std=c++{args.cxx_standard}"

    def run(self, command, cwd, env=None, timeout=None):
        try:
            return subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as expired:
            output = expired.stdout or ""
            if isinstance(output, bytes):
                output = output.decode(errors="replace")
            return subprocess.CompletedProcess(command, 124, output
                                               + f"\n(killed after {timeout} s)")

    def fail(self, where, message, output=""):
        self.failures.append(f"{where}: {message}" + (f"\n{output.rstrip()}" if output else ""))

    # -- the installed package --------------------------------------------------------------

    def install(self):
        result = self.run(["cmake", "--install", self.args.build_dir, "--prefix", str(self.prefix)],
                          cwd=self.work)
        if result.returncode != 0:
            raise DocError(f"cmake --install failed:\n{result.stdout}")

    def configure(self, project_dir):
        """A consumer project, configured as a user would, against the installed package."""
        command = ["cmake", "-S", str(project_dir), "-B", str(project_dir / "build"),
                   "-G", self.args.generator,
                   f"-DCMAKE_BUILD_TYPE={self.args.build_type}",
                   f"-DCMAKE_CXX_COMPILER={self.args.cxx_compiler}",
                   f"-DCMAKE_PREFIX_PATH={self.prefix}",
                   f"-DTorch_DIR={self.args.torch_dir}",
                   "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
        return self.run(command, cwd=project_dir)

    # -- projects: CMakeLists.txt and sources from a page, built and run ----------------------

    def check_project(self, name, blocks):
        where = blocks[0].where()
        project_dir = self.work / "projects" / name
        shutil.rmtree(project_dir, ignore_errors=True)
        project_dir.mkdir(parents=True)
        files = {}
        for block in blocks:
            if block.args[1] in files:
                self.fail(block.where(), f"project {name} already has a {block.args[1]}")
                return
            files[block.args[1]] = block.text
            (project_dir / block.args[1]).write_text(block.text, encoding="utf-8")
        if "CMakeLists.txt" not in files:
            self.fail(where, f"project {name} has no CMakeLists.txt block")
            return
        result = self.configure(project_dir)
        if result.returncode != 0:
            self.fail(where, f"project {name} does not configure against the installed package",
                      result.stdout)
            return
        result = self.run(["cmake", "--build", str(project_dir / "build")], cwd=project_dir)
        if result.returncode != 0:
            self.fail(where, f"project {name} does not build", result.stdout)
            return
        if any(re.search(r"\bint\s+main\s*\(", text) for text in files.values()):
            result = self.run([str(project_dir / "build" / name)], cwd=project_dir, timeout=300)
            if result.returncode != 0:
                self.fail(where, f"project {name}'s program exits with status "
                                 f"{result.returncode}", result.stdout)
                return
        print(f"{where}: project {name} configured, built and run against the installed package",
              flush=True)

    # -- fragments: one parse-only translation unit per page -----------------------------------

    def fragments_unit(self, blocks):
        parts = ["// The C++ fragments of one page, each in its own namespace, in page order; a",
                 "// namespace sees the ones before it, as a reader does.", ""]
        previous = None
        for block in blocks:
            if block.kind == "fragments-include":
                parts += [f"#line {block.line + 1} \"{block.page}\"", block.text]
        for index, block in enumerate(blocks):
            if block.kind not in ("fragment", "statements"):
                continue
            if "global" in block.args:
                parts += [f"#line {block.line + 1} \"{block.page}\"", block.text]
                continue
            namespace = f"doc_block_{index}"
            parts.append(f"namespace {namespace} {{")
            if previous:
                parts.append(f"using namespace {previous};")
            given = block.options.get("given", "")
            if block.kind == "statements":
                parts.append(f"[[maybe_unused]] void block_at_line_{block.line}({given}) {{")
            elif given:
                parts.append(given + ";")
            parts += [f"#line {block.line + 1} \"{block.page}\"", block.text]
            if block.kind == "statements":
                parts.append("}")
            parts.append(f"}}  // namespace {namespace}")
            previous = namespace
        return "\n".join(parts) + "\n"

    def check_fragments(self, page, blocks):
        where = f"{page}"
        cmake_blocks = [b for b in blocks if b.kind == "fragments-cmake"]
        if not cmake_blocks:
            self.fail(where, "the page has C++ fragments but no `fragments-cmake` block saying "
                             "how a project builds them")
            return
        project_dir = self.work / "fragments" / page.replace("/", "_").removesuffix(".md")
        shutil.rmtree(project_dir, ignore_errors=True)
        project_dir.mkdir(parents=True)
        (project_dir / "fragments.cpp").write_text(self.fragments_unit(blocks), encoding="utf-8")
        (project_dir / "CMakeLists.txt").write_text(
            "cmake_minimum_required(VERSION 3.18)\n"
            "project(doc_fragments CXX)\n"
            "add_executable(app fragments.cpp)\n"
            + "".join(b.text for b in cmake_blocks), encoding="utf-8")
        result = self.configure(project_dir)
        if result.returncode != 0:
            self.fail(cmake_blocks[0].where(), "the page's CMake lines do not configure against "
                      "the installed package", result.stdout)
            return
        database = json.loads((project_dir / "build" / "compile_commands.json").read_text())
        entry = next(e for e in database if e["file"].endswith("fragments.cpp"))
        command = shlex.split(entry["command"])
        # Parse only: running the fragments would add nothing (most need their context or a GPU).
        parse = []
        skip_next = False
        for word in command:
            if skip_next:
                skip_next = False
            elif word in ("-o", "-MF", "-MT", "-MQ"):
                skip_next = True
            elif word not in ("-c", "-MD", "-MMD"):
                parse.append(word)
        parse.append("-fsyntax-only")
        result = self.run(parse, cwd=entry["directory"])
        if result.returncode != 0:
            self.fail(where, "the page's C++ fragments do not compile with the includes and CMake "
                             "lines the page gives", result.stdout)
            return
        count = sum(1 for b in blocks if b.kind in ("fragment", "statements", "fragments-include",
                                                   "fragments-cmake"))
        print(f"{where}: {count} blocks compiled as one translation unit against the installed "
              "package", flush=True)

    # -- the checker over the rule pages' examples ---------------------------------------------

    def check_rule_examples(self, blocks):
        examples = [b for b in blocks if b.kind in ("wrong", "right")]
        if not examples:
            return
        base = self.work / "rule-examples"
        shutil.rmtree(base, ignore_errors=True)
        paths = {}
        for block in examples:
            if not re.match(r"docs/checks/torch-[a-z-]+\.md$", block.page):
                self.fail(block.where(), f"'{block.kind}' is for the rule pages in docs/checks/")
                continue
            relative = f"{pathlib.PurePath(block.page).stem}/{block.kind}/{block.args[0]}"
            (base / relative).parent.mkdir(parents=True, exist_ok=True)
            (base / relative).write_text(block.text, encoding="utf-8")
            paths[relative] = block
        cuda_flags = ["-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
                      "--cuda-gpu-arch=sm_80", "-include", "cuda_runtime.h",
                      "-isystem", self.args.cuda_stand_in]
        outputs = {}
        for is_cuda in (False, True):
            files = sorted(p for p in paths if p.endswith(".cu") == is_cuda)
            if not files:
                continue
            flags = [self.std_flag] + self.torch_flags + (cuda_flags if is_cuda else [])
            command = [str(self.prefix / "bin" / "tensorplace"), "--quiet", "--fail-on-partial"
                       ] + files + ["--"] + flags
            result = self.run(command, cwd=base)
            if result.returncode not in (0, 1):
                self.fail("docs/checks", f"the checker could not analyse every example cleanly "
                          f"(exit status {result.returncode}; a compiler error makes a file "
                          f"partial)\n$ {shlex.join(command)}", result.stdout)
            current = None
            for line in result.stdout.splitlines():
                # Findings name the file by its absolute path; the pages show its name.
                line = line.replace(f"{base}/", "")
                match = re.match(r"^([^\s:][^:]*):\d+:\d+: ", line)
                if match and match.group(1) in paths:
                    current = match.group(1)
                if current:
                    outputs.setdefault(current, []).append(line)
        for relative, block in paths.items():
            rule = pathlib.PurePath(block.page).stem
            lines = outputs.get(relative, [])
            rules = [m.group("rule") for m in map(FINDING.match, lines) if m]
            if block.kind == "wrong":
                if rule not in rules or any(r != rule for r in rules):
                    self.fail(block.where(), f"the wrong example should be reported by {rule} "
                              f"and nothing else; the checker reported {rules or 'nothing'}",
                              "\n".join(lines))
                    continue
            elif rules:
                self.fail(block.where(), f"the right example should be clean; the checker "
                          f"reported {rules}", "\n".join(lines))
                continue
            print(f"{block.where()}: {block.kind} example: "
                  + (f"reported by {rule}" if rules else "nothing reported"), flush=True)
            block.checker_output = [line.replace(f"{pathlib.PurePath(relative).parent}/", "", 1)
                                    for line in lines]
        self.check_outputs(blocks)

    def check_outputs(self, blocks):
        """An `output` block shows what the checker prints for the page's wrong example: each of
        its lines must appear, in order, in what it prints."""
        wrong = {}
        for block in blocks:
            if block.kind == "wrong":
                wrong[block.page] = block
            if block.kind != "output":
                continue
            example = wrong.get(block.page)
            if example is None:
                self.fail(block.where(), "an `output` block follows a `wrong` example")
                continue
            actual = getattr(example, "checker_output", None)
            if actual is None:
                continue  # the example itself failed, and said so
            position = 0
            for expected in block.text.splitlines():
                while position < len(actual) and actual[position].rstrip() != expected.rstrip():
                    position += 1
                if position == len(actual):
                    self.fail(block.where(), f"the checker does not print this line (in this "
                              f"order) for the example at line {example.line}:\n  {expected}",
                              "it prints:\n" + "\n".join(actual))
                    break
                position += 1
            else:
                print(f"{block.where()}: output matches what the checker prints", flush=True)

    # -- shell blocks: the CLI in a demo project ----------------------------------------------

    def demo_project(self, directory):
        """A small project whose every file has findings, with a compilation database in build/
        and an empty baseline, under git (origin/main before the sources were added)."""
        bug = ("#include <torch/torch.h>\n\n"
               "struct {name}Impl : torch::nn::Module {{\n"
               "  torch::Tensor forward(torch::Tensor x, torch::Device device) {{\n"
               "    x.to(device);\n"
               "    return x * scale_;\n"
               "  }}\n"
               "  torch::Tensor scale_ = torch::ones({{1}});\n"
               "}};\n")
        sources = ["src/models/net.cpp", "src/train.cpp", "src/net.cpp", "net.cpp", "file.cpp"]
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        git = ["git", "-c", "user.name=docs", "-c", "user.email=docs@example.com"]
        self.run(["git", "init", "-q"], cwd=directory).check_returncode()
        (directory / ".gitignore").write_text("build/\n")
        (directory / ".tensorplace-baseline.json").write_text(
            '{"findings": [], "tool": "tensorplace", "version": 1}\n')
        self.run(git + ["add", "."], cwd=directory).check_returncode()
        self.run(git + ["commit", "-qm", "start"], cwd=directory).check_returncode()
        self.run(["git", "update-ref", "refs/remotes/origin/main", "HEAD"],
                 cwd=directory).check_returncode()
        database = []
        for index, source in enumerate(sources):
            (directory / source).parent.mkdir(parents=True, exist_ok=True)
            (directory / source).write_text(bug.format(name=f"Net{index}"))
            database.append({"directory": str(directory), "file": str(directory / source),
                             "arguments": [self.args.cxx_compiler, self.std_flag]
                             + self.torch_flags + ["-c", source, "-o", source + ".o"]})
        (directory / "build").mkdir()
        (directory / "build" / "compile_commands.json").write_text(json.dumps(database, indent=1))
        # For the recipes that configure and build the project with CMake.
        (directory / "CMakeLists.txt").write_text(
            "cmake_minimum_required(VERSION 3.18)\nproject(demo CXX)\n"
            # The Torch package states the standard its headers need on its own target only.
            f"set(CMAKE_CXX_STANDARD {self.args.cxx_standard})\n"
            "find_package(Torch REQUIRED)\n"
            "add_library(demo OBJECT net.cpp)\ntarget_link_libraries(demo PRIVATE torch)\n")
        self.run(git + ["add", "."], cwd=directory).check_returncode()
        self.run(git + ["commit", "-qm", "sources"], cwd=directory).check_returncode()

    def check_cli(self, page, blocks):
        directory = self.work / "cli" / page.replace("/", "_").removesuffix(".md")
        self.demo_project(directory)
        tools = self.work / "cli-tools"
        tools.mkdir(exist_ok=True)
        # `clang-tidy` and `clang-apply-replacements` in the docs are those of the LLVM version
        # the checker was built against: the clang-tidy its plugin loads into.
        run_clang_tidy = pathlib.Path(self.args.clang_tidy).with_name("run-clang-tidy")
        for name, target in (("clang-tidy", self.args.clang_tidy),
                             ("clang-apply-replacements", self.args.clang_apply_replacements),
                             ("run-clang-tidy", run_clang_tidy)):
            link = tools / name
            if not link.exists():
                link.symlink_to(target)
        env = dict(os.environ)
        env["PATH"] = f"{self.prefix / 'bin'}{os.pathsep}{tools}{os.pathsep}{env['PATH']}"
        # find_package(Torch) finds the LibTorch of the build, as a user's CMake would.
        env["Torch_DIR"] = self.args.torch_dir
        env["CMAKE_PREFIX_PATH"] = str(pathlib.Path(self.args.torch_dir).parents[2])
        env["CMAKE_GENERATOR"] = self.args.generator
        for block in blocks:
            commands = []
            pending = ""
            for line in block.text.splitlines():
                if pending:
                    line = pending + line
                    pending = ""
                if line.rstrip().endswith("\\"):
                    pending = line.rstrip()[:-1] + " "
                    continue
                if line.strip() and not line.lstrip().startswith("#"):
                    commands.append(line)
            statuses = [int(s) for s in block.options["exit"].split(",")]
            if len(statuses) == 1:
                statuses *= len(commands)
            if len(statuses) != len(commands):
                self.fail(block.where(), f"exit= gives {len(statuses)} statuses for "
                          f"{len(commands)} commands")
                continue
            ok = True
            for command, status in zip(commands, statuses):
                result = self.run(["bash", "-c", command], cwd=directory, env=env, timeout=300)
                if result.returncode != status:
                    self.fail(block.where(), f"`{command}` exits with status {result.returncode}, "
                              f"the page says {status}", result.stdout)
                    ok = False
                elif "was analysed partially" in result.stdout:
                    # Compiler errors do not change the exit status; they mean the command's
                    # flags are wrong for this LibTorch.
                    self.fail(block.where(), f"`{command}` analyses a file only partially",
                              result.stdout)
                    ok = False
                elif "prints" in block.options and block.options["prints"] not in result.stdout:
                    self.fail(block.where(), f"`{command}` does not print "
                              f"'{block.options['prints']}'", result.stdout)
                    ok = False
            if ok:
                print(f"{block.where()}: {len(commands)} commands exit as the page says", flush=True)

    # -- pre-commit configurations: Debian's pre-commit in the demo project --------------------

    def check_pre_commit(self, block, index):
        """The block is a .pre-commit-config.yaml: in a fresh demo project, with this checkout as
        the repository a remote hook names (its committed HEAD, which pre-commit clones as it
        clones a tag), and a bug added to a file and staged, `pre-commit run` must exit with the
        block's status, and with 1 print the new bug's finding."""
        pre_commit = shutil.which("pre-commit")
        if pre_commit is None:
            self.fail(block.where(), "pre-commit is not installed (.ci/install-deps installs it)")
            return
        directory = self.work / "pre-commit" / f"{block.page.replace('/', '_')}-{index}"
        self.demo_project(directory)
        head = self.run(["git", "rev-parse", "HEAD"], cwd=self.args.source_dir)
        head.check_returncode()
        staged = directory / "src" / "net.cpp"
        staged.write_text(staged.read_text() + "void planted(torch::Tensor y) { y.cpu(); }\n")
        self.run(["git", "add", "src/net.cpp"], cwd=directory).check_returncode()
        config = re.sub(r"(?m)^(\s*-?\s*repo:\s*)(?!local\b)\S+", rf"\g<1>{self.args.source_dir}",
                        block.text)
        config = re.sub(r"(?m)^(\s*rev:\s*)\S+", rf"\g<1>{head.stdout.strip()}", config)
        (directory / ".pre-commit-config.yaml").write_text(config)
        self.run(["git", "add", ".pre-commit-config.yaml"], cwd=directory).check_returncode()
        env = dict(os.environ)
        env["PATH"] = f"{self.prefix / 'bin'}{os.pathsep}{env['PATH']}"
        env["PRE_COMMIT_HOME"] = str(directory / ".pre-commit-home")
        result = self.run([pre_commit, "run"], cwd=directory, env=env, timeout=600)
        status = int(block.options["exit"])
        if result.returncode != status:
            self.fail(block.where(), f"pre-commit run exits with status {result.returncode}, "
                      f"the page says {status}", result.stdout)
        elif status == 1 and not re.search(r"src/net\.cpp:10:\d+: warning: .*\[torch-",
                                           result.stdout):
            self.fail(block.where(), "pre-commit did not report the staged bug", result.stdout)
        else:
            print(f"{block.where()}: pre-commit exits as the page says", flush=True)

    # -- Python blocks: one script per page, against the installed package --------------------

    def check_python(self, page, blocks):
        if not self.args.python:
            self.fail(blocks[0].where(), "Python blocks, but no Python with the build's torch was "
                      "found (Debian: python3-torch)")
            return
        version = self.run([self.args.python, "-c", "import torch; print(torch.__version__)"],
                           cwd=self.work)
        torch_version = tuple(int(n) for n in re.findall(r"\d+", version.stdout)[:2])
        runnable, skipped = [], []
        for block in blocks:
            required = block.options.get("requires-torch")
            if required and torch_version < tuple(int(n) for n in required.split(".")):
                skipped.append(f"{block.where()} (needs torch {required})")
            else:
                runnable.append(block)
        directory = self.work / "python" / page.replace("/", "_").removesuffix(".md")
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        script = "".join(f"# {block.where()}\n{block.text}" for block in runnable)
        (directory / "page.py").write_text(script, encoding="utf-8")
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.prefix / self.args.python_dir)
        result = self.run([self.args.python, "page.py"], cwd=directory, env=env, timeout=600)
        if result.returncode != 0:
            self.fail(blocks[0].where(), f"the page's Python blocks, run in order as "
                      f"{directory / 'page.py'}, exit with status {result.returncode}",
                      result.stdout)
            return
        print(f"{page}: {len(runnable)} Python blocks run against the installed package"
              + (f"; not run, as this torch is {version.stdout.strip()}: {', '.join(skipped)}"
                 if skipped else ""), flush=True)

    # -- everything -----------------------------------------------------------------------------

    def check(self, blocks):
        self.work.mkdir(parents=True, exist_ok=True)
        self.install()
        jobs = []
        projects = {}
        for block in blocks:
            if block.kind == "project":
                projects.setdefault(block.args[0], []).append(block)
        for name, project_blocks in sorted(projects.items()):
            jobs.append((self.check_project, name, project_blocks))
        by_page = {}
        for block in blocks:
            by_page.setdefault(block.page, []).append(block)
        for page, page_blocks in by_page.items():
            if any(b.kind in ("fragment", "statements") for b in page_blocks):
                jobs.append((self.check_fragments, page, page_blocks))
            elif any(b.kind in ("fragments-cmake", "fragments-include") for b in page_blocks):
                self.fail(page, "fragments-cmake/fragments-include without fragments")
            cli = [b for b in page_blocks if b.kind == "cli"]
            if cli:
                jobs.append((self.check_cli, page, cli))
            for index, block in enumerate(b for b in page_blocks if b.kind == "pre-commit"):
                jobs.append((self.check_pre_commit, block, index))
            python = [b for b in page_blocks if b.kind == "python"]
            if python:
                jobs.append((self.check_python, page, python))
        jobs.append((self.check_rule_examples, blocks))
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            for future in [pool.submit(job[0], *job[1:]) for job in jobs]:
                future.result()


def self_test():
    """The inventory fails on what it must fail on, and counts what it must count."""
    cases = [
        ("```cpp\nint x;\n```\n", "neither checked nor marked"),
        ("```sh\nls\n```\n", "neither checked nor marked"),
        ("```cmake\nproject(x)\n```\n", "neither checked nor marked"),
        ("  ```cpp\n  int x;\n  ```\n", "neither checked nor marked"),
        ("<!-- doc-test: skip -->\n```cpp\nint x;\n```\n", "needs a reason"),
        ("<!-- doc-test: skip: -->\n```cpp\nint x;\n```\n", "needs a reason"),
        ("<!-- doc-test: frgament -->\n```cpp\nint x;\n```\n", "unknown doc-test marker"),
        ("<!-- doc-test: cli exit=0 -->\n```cpp\nint x;\n```\n", "does not apply"),
        ("<!-- doc-test: cli -->\n```sh\nls\n```\n", "needs the exit status"),
        ("```python\nimport torch\n```\n", "neither checked nor marked"),
        ("<!-- doc-test: python -->\n```cpp\nint x;\n```\n", "does not apply"),
        ("<!-- doc-test: python requires-torch=2 -->\n```python\npass\n```\n",
         "requires-torch=MAJOR.MINOR"),
        ("<!-- doc-test: fragment -->\n\n```cpp\nint x;\n```\n", "right before a fence"),
        ("```cpp\nint x;\n", "never closed"),
    ]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for text, expected in cases:
            (root / "page.md").write_text(text)
            try:
                _, errors = inventory(read_pages(root, ["page.md"]))
                message = "\n".join(errors)
            except DocError as error:
                message = str(error)
            if expected not in message:
                failures += 1
                print(f"self-test: {text!r} should fail with '{expected}', got {message!r}")
        (root / "page.md").write_text(
            "<!-- doc-test: skip: needs a GPU -->\n```cpp\nint x;\n```\n"
            "  <!-- doc-test: statements given: int y -->\n  ```cpp\n  y++;\n  ```\n"
            "```text\nplain\n```\n```yaml\na: 1\n```\n"
            "<!-- doc-test: python requires-torch=2.4 -->\n```python\nimport torch\n```\n")
        blocks = read_pages(root, ["page.md"])
        pages, errors = inventory(blocks)
        if errors or pages != {"page.md": {"skip": 1, "statements": 1, "python": 1}} \
                or blocks[1].options.get("given") != "int y" or blocks[1].text != "y++;\n" \
                or blocks[4].options.get("requires-torch") != "2.4":
            failures += 1
            print(f"self-test: marked blocks miscounted: {pages} {errors}")
    print(f"self-test: {len(cases) + 1 - failures} of {len(cases) + 1} cases pass")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--source-dir")
    parser.add_argument("--build-dir")
    parser.add_argument("--work-dir")
    parser.add_argument("--generator", default="Ninja")
    parser.add_argument("--build-type", default="Release")
    parser.add_argument("--cxx-compiler")
    parser.add_argument("--cxx-standard")
    parser.add_argument("--torch-dir")
    parser.add_argument("--torch-flags", help="file of LibTorch's include flags, one a line")
    parser.add_argument("--cuda-stand-in", help="tensorplace's CUDA headers (checker/cuda-headers)")
    parser.add_argument("--clang-tidy")
    parser.add_argument("--clang-apply-replacements")
    parser.add_argument("--python", help="the Python whose torch is the build's LibTorch")
    parser.add_argument("--python-dir", help="where the Python package is installed, relative "
                        "to the prefix")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--inventory-only", action="store_true",
                        help="only list the blocks per page and check that each is marked")
    args = parser.parse_args()
    if args.self_test:
        return self_test()

    root = pathlib.Path(args.source_dir).resolve()
    pages = ["README.md"] + sorted(str(p.relative_to(root)) for p in (root / "docs").rglob("*.md"))
    try:
        blocks = read_pages(root, pages)
    except DocError as error:
        print(f"error: {error}")
        return 1
    counts, errors = inventory(blocks)
    print("Blocks per page:\n" + describe(counts, pages), flush=True)
    if errors:
        print("\n".join(errors))
        return 1
    if args.inventory_only:
        return 0
    for name in ("build_dir", "work_dir", "torch_flags", "cuda_stand_in"):
        setattr(args, name, str(pathlib.Path(getattr(args, name)).resolve()))
    runner = Runner(args)
    try:
        runner.check(blocks)
    except DocError as error:
        runner.failures.append(str(error))
    if runner.failures:
        print(f"\n{len(runner.failures)} failures:\n\n" + "\n\n".join(runner.failures))
        return 1
    print("\nEvery checked block works as the page says.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
