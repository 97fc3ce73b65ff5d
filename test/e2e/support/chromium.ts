/**
 * Debian's Chromium for the end-to-end tests, driven by playwright-core (which never downloads a browser). The
 * flags keep Chromium quiet on a machine without a network: no background requests, no component updates, no
 * sync, no QUIC probes. As root (containers, CI) Chromium needs `--no-sandbox`.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where the browser is: `WORKBOOK_CHROMIUM`, else Debian's `/usr/bin/chromium`. */
export const CHROMIUM_PATH = process.env.WORKBOOK_CHROMIUM || "/usr/bin/chromium";

/** The flags every launch uses (headless is playwright's default). */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Why the browser tests cannot run here, or undefined when they can. In CI (`.ci/run` installs Chromium) a
 * missing browser is a failure, not a skip.
 */
export function chromiumSkipReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const reason = `Chromium not found at ${CHROMIUM_PATH} (Debian: apt-get install chromium; or set WORKBOOK_CHROMIUM)`;
  if (process.env.CI) throw new Error(`CI must be able to run the browser tests: ${reason}`);
  return reason;
}

/** Starts headless Chromium with {@link CHROMIUM_FLAGS}; the caller closes it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS], timeout: 60_000 });
}
