/**
 * The kubectl the kubectl tests drive: `WORKBOOK_KUBECTL`, else /usr/bin/kubectl or /usr/local/bin/kubectl.
 * Debian's kubernetes-client is kubectl 1.20, which reads OpenAPI v2 (the embedded server serves an empty one)
 * where kubectl 1.27+ reads v3; `KUBECTL_MINOR` lets tests of v2-only features say why they skip.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Path of the kubectl binary to test with, or undefined when none is installed. */
export const KUBECTL = [
  process.env.WORKBOOK_KUBECTL ?? "",
  "/usr/bin/kubectl",
  "/usr/local/bin/kubectl",
].find((p) => p && existsSync(p));

function minorOf(path: string | undefined): number {
  if (!path) return 0;
  try {
    const out = execFileSync(path, ["version", "--client", "-o", "json"], {
      encoding: "utf8",
      timeout: 10_000,
    });
    return Number.parseInt(String(JSON.parse(out).clientVersion?.minor ?? "0"), 10) || 0;
  } catch {
    return 0;
  }
}

/** kubectl's minor version (32 for 1.32), 0 when unknown. */
export const KUBECTL_MINOR = minorOf(KUBECTL);

/** Why a kubectl feature that needs OpenAPI v3 is skipped with this kubectl, or "" when it is not. */
export const NEEDS_OPENAPI_V3 =
  KUBECTL_MINOR > 0 && KUBECTL_MINOR < 27
    ? ` (skipped: kubectl 1.${KUBECTL_MINOR} reads OpenAPI v2 for this, and the embedded server's v2 document is empty)`
    : "";
