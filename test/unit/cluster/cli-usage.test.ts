import { afterEach, describe, expect, it, vi } from "vitest";
import { run as conformance } from "../../../src/tools/cli/conformance.js";
import { run as envtest } from "../../../src/tools/cli/envtest.js";

function captureStderr() {
  const chunks: string[] = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return () => chunks.join("");
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("workbook envtest / conformance argument handling", () => {
  it("envtest: usage for no or unknown subcommand, exit 2; help exits 0", async () => {
    const stderr = captureStderr();
    expect(await envtest([])).toBe(2);
    expect(await envtest(["frobnicate"])).toBe(2);
    expect(await envtest(["help"])).toBe(0);
    expect(stderr()).toContain("usage: workbook envtest build");
  });

  it("envtest build: rejects a bad --parallelism or version before running Go", async () => {
    const stderr = captureStderr();
    expect(await envtest(["build", "--parallelism", "zero"])).toBe(2);
    expect(stderr()).toContain("--parallelism must be a positive integer");
    expect(await envtest(["build", "--version", "latest"])).toBe(1);
    expect(stderr()).toContain('Invalid Kubernetes version "latest"');
  });

  it("conformance: a missing suite folder or an unknown backend is a clear error", async () => {
    const stderr = captureStderr();
    expect(await conformance(["--dir", "test/does-not-exist"])).toBe(2);
    expect(stderr()).toContain("no scenario suite at test/does-not-exist");
    expect(await conformance(["--backends", "minikube"])).toBe(2);
    expect(stderr()).toContain('Unknown cluster backend "minikube"');
  });
});
