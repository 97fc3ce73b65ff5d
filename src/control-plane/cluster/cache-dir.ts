/**
 * Where the workbook keeps what it builds once per machine (envtest's binaries, the kind node image's Go
 * binaries, the client-go bench peer): `$XDG_CACHE_HOME/kube-controller-workbook/<name>`,
 * else `~/.cache/kube-controller-workbook/<name>`. Outside the checkout, so a fresh clone reuses a build made by
 * another; each caller adds its own override variable (`WORKBOOK_ENVTEST_CACHE`, ...) in front. (The Go lab
 * builds of `workbook/grading/go-build.ts` sit under the same root; the layering keeps grading off the control plane.)
 */
import { homedir } from "node:os";
import { join } from "node:path";

/** The cache folder `name` (see the module comment). */
export function workbookCacheDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "kube-controller-workbook", name);
}
