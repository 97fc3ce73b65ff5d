"""Headless notebook runner behind `npm run notebooks` (src/cli/notebooks.ts starts it with the venv's python).

Executes each notebook given on the command line with nbclient under the Jupyter kernel named by --kernel
(the project's tslab kernelspec), in the notebook's own folder, exactly as JupyterLab would run it top to bottom.

Invariants:
- execution stops at the first failing cell (later cells usually depend on it);
- a notebook passes only if no cell raised, no cell timed out, the kernel did not die, and no cell produced an
  output of type "error" (tslab reports type errors and exceptions that way);
- the notebook files are only read: executed copies go to --output-dir when given, never back to the source;
- the exit status is 0 when every notebook passed and 1 otherwise; each failure names the notebook, the cell
  (number and first source line) and the error.
"""

import argparse
import os
import re
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
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


def run_notebook(path, kernel, timeout, startup_timeout, output_dir):
    """Runs every code cell in order, stopping at the first failure. Returns the failure messages."""
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
    try:
        with client.setup_kernel():
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                number += 1
                where = "cell {} ({})".format(number, first_line(cell.source))
                try:
                    client.execute_cell(cell, index)
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
    if output_dir:
        os.makedirs(output_dir, exist_ok=True)
        nbformat.write(nb, os.path.join(output_dir, os.path.basename(path)))
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+")
    parser.add_argument("--kernel", default="tslab")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per cell")
    parser.add_argument("--startup-timeout", type=int, default=60, help="seconds for the kernel to start")
    parser.add_argument("--output-dir", help="write executed copies here (never over the sources)")
    args = parser.parse_args(argv)

    failed = 0
    for path in args.notebooks:
        started = time.monotonic()
        print("notebook {} ...".format(path), flush=True)
        try:
            failures = run_notebook(path, args.kernel, args.timeout, args.startup_timeout, args.output_dir)
        except Exception as err:  # unreadable or invalid notebook file
            failures = ["could not read the notebook: {}: {}".format(type(err).__name__, err)]
        took = time.monotonic() - started
        if failures:
            failed += 1
            print("FAIL {} ({:.1f} s)".format(path, took), flush=True)
            for failure in failures:
                print("  " + failure.replace("\n", "\n  "), flush=True)
        else:
            print("ok   {} ({:.1f} s)".format(path, took), flush=True)
    print("notebooks: {} ran clean, {} failing".format(len(args.notebooks) - failed, failed), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
