/**
 * The project's Jupyter defaults, written inside `.venv` so they hold for `npm start`, for the headless runner and
 * for anyone who runs `.venv/bin/jupyter lab` by hand, and touch nothing outside the checkout:
 *
 * - `etc/jupyter/jupyter_server_config.json`: the tslab kernel is the default for new notebooks (File > New >
 *   Notebook, the launcher's first choice), not ipykernel's `python3`, which the venv also has because nbclient
 *   needs it. (Not a file in `jupyter_server_config.d/`: Jupyter Server reads only the extension switches from
 *   there.) The venv's `etc/jupyter` comes first on Jupyter's config path, ahead of `~/.jupyter`.
 * - `share/jupyter/lab/settings/overrides.json`: JupyterLab neither asks to fetch Jupyter's news nor checks for
 *   updates (a pop-up over the first notebook, and requests to the internet from a workbook that needs none).
 *   The learner can still turn both on in Settings; overrides only change the defaults.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { WorkbookPaths } from "./workbook-paths.js";

/** The name of the kernelspec setup registers (its folder under `.venv/share/jupyter/kernels`). */
export const TSLAB_KERNEL = "tslab";

/** Jupyter Server's config: tslab is the default kernel. */
export function serverConfig(): object {
  return { MappingKernelManager: { default_kernel_name: TSLAB_KERNEL } };
}

/** JupyterLab's setting overrides: no news pop-up, no update check. */
export function labSettingsOverrides(): object {
  return { "@jupyterlab/apputils-extension:notification": { fetchNews: "false", checkForUpdates: false } };
}

/** Where the two files go, under `venv`. */
export function jupyterDefaultsFiles(venv: string): { serverConfig: string; labOverrides: string } {
  return {
    serverConfig: join(venv, "etc", "jupyter", "jupyter_server_config.json"),
    labOverrides: join(venv, "share", "jupyter", "lab", "settings", "overrides.json"),
  };
}

function writeIfChanged(file: string, value: object): boolean {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (existsSync(file) && readFileSync(file, "utf8") === text) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return true;
}

/** Writes both files when they differ from what is on disk; returns whether anything was written. */
export function writeJupyterDefaults(paths: Pick<WorkbookPaths, "venv">): boolean {
  const files = jupyterDefaultsFiles(paths.venv);
  const server = writeIfChanged(files.serverConfig, serverConfig());
  const lab = writeIfChanged(files.labOverrides, labSettingsOverrides());
  return server || lab;
}
