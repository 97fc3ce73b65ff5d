"""Headless notebook runner behind `npm run notebooks` (src/tools/cli/notebooks.ts starts it with the venv's python).

Executes each notebook given on the command line with nbclient under the Jupyter kernel named by --kernel
(the project's tslab kernelspec), in the notebook's own folder, exactly as JupyterLab would run it top to bottom.

Invariants:
- execution stops at the first failing cell (later cells usually depend on it);
- a notebook passes only if no cell raised, no cell timed out, the kernel did not die, and no cell produced an
  output of type "error" (tslab reports type errors and exceptions that way);
- a notebook that reports its checks (a `checks: P/T passed` line printed by its summary cell, see
  src/workbook/grading/notebook-checks.ts) has the count printed; a count with failed checks fails the notebook even if no
  cell raised;
- the notebook files are only read: executed copies go to --output-dir when given, never back to the source;
- a notebook slower than --budget seconds (default 60, the learning path's limit) is flagged in the table, not
  failed: timings on a shared machine vary;
- --twice runs every code cell, then every code cell again, in the same kernel (JupyterLab's Run All twice in a
  row), so a notebook that cannot be re-run fails;
- --timings FILE writes, per notebook, the seconds the kernel took to start (until it answered) and each executed
  code cell's wall time and tags, in execution order, as JSON (the learner's-wait benchmark reads it);
- the exit status is 0 when every notebook passed and 1 otherwise; each failure names the notebook, the cell
  (number and first source line) and the error; a table of per-notebook times and check counts closes the run.
"""

import argparse
import json
import os
import re
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CHECKS_LINE = re.compile(r"^checks: (\d+)/(\d+) passed(?:, (\d+) failed)?(?:, (\d+) skipped)?", re.M)
MAX_ERROR_LINES = 30


def first_line(source):
    for line in source.splitlines():
        if line.strip():
            return line.strip()[:100]
    return "(empty cell)"


def describe_error(output):
    text = "\n".join(output.get("traceback") or [])
    text = ANSI.sub("", text).strip()
    head = "{}: {}".format(output.get("ename", "Error"), output.get("evalue", "")).strip()
    return text if text else head


def cell_failure(cell, fallback):
    """The error a failed cell reported: its error outputs, else what it wrote to stderr, else `fallback`."""
    errors = [describe_error(o) for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if not errors:
        errors = [
            ANSI.sub("", o.get("text", "")).strip()
            for o in cell.get("outputs", [])
            if o.get("output_type") == "stream" and o.get("name") == "stderr"
        ]
    text = "\n".join(e for e in errors if e) or fallback
    lines = [line for line in text.splitlines() if "node_modules/tslab/" not in line and "(node:" not in line]
    return "\n".join(lines[:MAX_ERROR_LINES])


def has_error_output(cell):
    return any(o.get("output_type") == "error" for o in cell.get("outputs", []))


def checks_reported(nb):
    """The last `checks: P/T passed[, F failed][, S skipped]` line the notebook printed, as a dict, or None."""
    found = None
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.get("output_type") != "stream" or output.get("name") != "stdout":
                continue
            for match in CHECKS_LINE.finditer(ANSI.sub("", output.get("text", ""))):
                found = {
                    "passed": int(match.group(1)),
                    "total": int(match.group(2)),
                    "failed": int(match.group(3) or 0),
                    "skipped": int(match.group(4) or 0),
                }
    return found


def describe_checks(checks):
    if checks is None:
        return "-"
    text = "{}/{}".format(checks["passed"], checks["total"])
    if checks["failed"]:
        text += " ({} failed)".format(checks["failed"])
    if checks["skipped"]:
        text += " ({} skipped)".format(checks["skipped"])
    return text


def run_notebook(path, kernel, timeout, startup_timeout, output_dir, passes=1, timings=None):
    """Runs every code cell in order (`passes` times over), stopping at the first failure.

    When `timings` is a dict, fills it with "kernel_start" (seconds) and "cells" ([{cell, first_line, seconds, tags}]).
    Returns (failure messages, reported checks or None)."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name=kernel,
        timeout=timeout,
        startup_timeout=startup_timeout,
        allow_errors=False,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}},
    )
    failures = []
    number = 0
    code_cells = [(index, cell) for index, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    # (run, code cell number, notebook index, cell) in execution order: every cell once per pass.
    schedule = [(run, n, index, cell) for run in range(passes) for n, (index, cell) in enumerate(code_cells, 1)]
    cell_times = []
    try:
        kernel_started = time.monotonic()
        with client.setup_kernel():
            if timings is not None:
                timings["kernel_start"] = time.monotonic() - kernel_started
                timings["cells"] = cell_times
            for run, number, index, cell in schedule:
                where = "cell {} ({})".format(number, first_line(cell.source))
                if run > 0:
                    where += " on Run All number {}".format(run + 1)
                cell_started = time.monotonic()
                try:
                    client.execute_cell(cell, index)
                    cell_times.append(
                        {
                            "cell": number,
                            "first_line": first_line(cell.source),
                            "seconds": time.monotonic() - cell_started,
                            "tags": list(cell.get("metadata", {}).get("tags", [])),
                        }
                    )
                except CellTimeoutError:
                    failures.append("{} did not finish within {} s".format(where, timeout))
                except CellExecutionError as err:
                    failures.append("{} failed:\n{}".format(where, cell_failure(cell, ANSI.sub("", str(err)))))
                else:
                    if has_error_output(cell):
                        failures.append("{} printed an error:\n{}".format(where, cell_failure(cell, "")))
                if failures:
                    break
    except DeadKernelError as err:
        failures.append("the kernel died (at cell {}): {}".format(number, err))
    except Exception as err:  # kernel missing or not starting, zeromq trouble: a failure to report, not a crash
        failures.append("could not run the notebook: {}: {}".format(type(err).__name__, err))
    checks = checks_reported(nb)
    if not failures and checks is not None and checks["failed"] > 0:
        failures.append("{} of its checks failed (see the checks summary cell)".format(checks["failed"]))
    if output_dir:
        os.makedirs(output_dir, exist_ok=True)
        nbformat.write(nb, os.path.join(output_dir, os.path.basename(path)))
    return failures, checks


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+")
    parser.add_argument("--kernel", default="tslab")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per cell")
    parser.add_argument("--startup-timeout", type=int, default=60, help="seconds for the kernel to start")
    parser.add_argument("--output-dir", help="write executed copies here (never over the sources)")
    parser.add_argument("--twice", action="store_true", help="run all cells twice in one kernel (Run All twice)")
    parser.add_argument("--timings", help="write kernel start and per-cell wall times here (JSON)")
    parser.add_argument("--budget", type=float, default=60, help="seconds a notebook should take (flagged, not failed)")
    args = parser.parse_args(argv)

    failed = 0
    table = []
    all_timings = []
    for path in args.notebooks:
        started = time.monotonic()
        print("notebook {} ...".format(path), flush=True)
        checks = None
        timings = {"notebook": os.path.basename(path)}
        try:
            failures, checks = run_notebook(
                path, args.kernel, args.timeout, args.startup_timeout, args.output_dir, 2 if args.twice else 1, timings
            )
        except Exception as err:  # unreadable or invalid notebook file
            failures = ["could not read the notebook: {}: {}".format(type(err).__name__, err)]
        took = time.monotonic() - started
        timings.update({"seconds": took, "failed": bool(failures)})
        all_timings.append(timings)
        result = "FAIL" if failures else "ok"
        if took > args.budget:
            result += " (over the {:g} s budget)".format(args.budget)
        table.append((os.path.basename(path), took, describe_checks(checks), result))
        if failures:
            failed += 1
            print("FAIL {} ({:.1f} s, checks {})".format(path, took, describe_checks(checks)), flush=True)
            for failure in failures:
                print("  " + failure.replace("\n", "\n  "), flush=True)
        else:
            print("ok   {} ({:.1f} s, checks {})".format(path, took, describe_checks(checks)), flush=True)
    width = max([len("notebook")] + [len(row[0]) for row in table])
    print("", flush=True)
    print("{}  {:>8}  {:<16}  {}".format("notebook".ljust(width), "time", "checks", "result"), flush=True)
    for name, took, checks_text, result in table:
        print("{}  {:>6.1f} s  {:<16}  {}".format(name.ljust(width), took, checks_text, result), flush=True)
    total = sum(row[1] for row in table)
    print("{}  {:>6.1f} s".format("total".ljust(width), total), flush=True)
    print("notebooks: {} ran clean, {} failing".format(len(args.notebooks) - failed, failed), flush=True)
    if args.timings:
        with open(args.timings, "w") as out:
            json.dump(all_timings, out, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
