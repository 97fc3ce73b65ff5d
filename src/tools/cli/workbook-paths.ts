import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Every path the notebook tooling (`setup`, `lab`, `notebooks`, `grade`) agrees on, derived from one project
 * root so the commands never disagree about where the Python venv or the tslab kernel lives.
 */
export interface WorkbookPaths {
  /** The checkout: the folder holding package.json. */
  readonly root: string;
  /** Project-local Python virtual environment (`.venv`), never a global one. */
  readonly venv: string;
  /** The venv's python executable. */
  readonly venvPython: string;
  /** The venv's `jupyter` launcher. */
  readonly venvJupyter: string;
  /** Where the tslab kernelspec is written: `.venv/share/jupyter/kernels/tslab`, found by the venv's Jupyter. */
  readonly kernelDir: string;
  /** Marker recording what setup installed, so a second `npm install` skips the slow steps. */
  readonly setupStamp: string;
  /** Pinned Python packages for notebooks (JupyterLab, nbclient, ipykernel). */
  readonly requirements: string;
  /** The project's tslab entry point (devDependency). */
  readonly tslabBin: string;
  /** `notebooks/`: the folder JupyterLab opens and the headless runner executes. */
  readonly notebooks: string;
  /** `node_modules/kube-controller-workbook`: the link that lets notebooks import the package by name. */
  readonly packageLink: string;
  /** The Python driver of the headless notebook runner. */
  readonly notebookRunner: string;
  /** `labs/` and `solutions/`: what `workbook grade` grades. */
  readonly labs: string;
  readonly solutions: string;
  /**
   * The built graders, one `<lab>.js` per lab: `dist/workbook/graders/`, compiled from src/workbook/graders/ with
   * the rest of the package (a checkout runs `npm run build`; an installed package ships them).
   */
  readonly graders: string;
}

/**
 * The project root: three levels above this module, which is `src/tools/cli/` under vitest and `dist/tools/cli/` once built.
 * Checked by looking for package.json so a wrong layout is a clear error rather than a puzzling missing file.
 */
export function projectRoot(): string {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
  if (!existsSync(join(root, "package.json"))) {
    throw new Error(`workbook: cannot find the project root (no package.json in ${root})`);
  }
  return root;
}

/** Computes {@link WorkbookPaths} for `root` (default: {@link projectRoot}). Pure: touches no file. */
export function workbookPaths(root: string = projectRoot()): WorkbookPaths {
  const venv = join(root, ".venv");
  const bin = process.platform === "win32" ? join(venv, "Scripts") : join(venv, "bin");
  return {
    root,
    venv,
    venvPython: join(bin, process.platform === "win32" ? "python.exe" : "python"),
    venvJupyter: join(bin, "jupyter"),
    kernelDir: join(venv, "share", "jupyter", "kernels", "tslab"),
    setupStamp: join(venv, "workbook-setup.json"),
    requirements: join(root, "requirements-notebooks.txt"),
    tslabBin: join(root, "node_modules", "tslab", "bin", "tslab"),
    notebooks: join(root, "notebooks"),
    packageLink: join(root, "node_modules", "kube-controller-workbook"),
    notebookRunner: join(root, "src", "tools", "cli", "notebook_runner.py"),
    labs: join(root, "labs"),
    solutions: join(root, "solutions"),
    graders: join(root, "dist", "workbook", "graders"),
  };
}
