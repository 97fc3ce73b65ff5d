import { describe, expect, it } from "vitest";
import { startCluster } from "../../../src/control-plane/cluster/index.js";
import {
  containerRuntimeUnavailableReason,
  NoContainerRuntimeError,
  requireContainerRuntime,
} from "../../../src/control-plane/cluster/kind/runtime.js";
import { startKindCluster } from "../../../src/control-plane/cluster/kind.js";

const noDocker = async () => {
  throw new Error("Could not find a working container runtime strategy");
};

describe("kind backend without a container runtime", () => {
  it("reports the runtime's reason, or undefined when it answers", async () => {
    expect(await containerRuntimeUnavailableReason(noDocker)).toBe(
      "Could not find a working container runtime strategy",
    );
    expect(await containerRuntimeUnavailableReason(async () => {})).toBeUndefined();
    await expect(requireContainerRuntime(async () => {})).resolves.toBeUndefined();
  });

  it("fails with an error that says so and names the backends that work without Docker", async () => {
    const error = await startKindCluster({ kind: { probe: noDocker } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoContainerRuntimeError);
    const message = (error as Error).message;
    expect(message).toContain("needs a container runtime");
    expect(message).toContain("Could not find a working container runtime strategy");
    for (const alternative of ["embedded", "envtest", "kubeconfig"]) expect(message).toContain(alternative);
  });

  it("is reached through startCluster({backend: 'kind'}) and rejects a bad image before probing", async () => {
    let probed = false;
    const probe = async () => {
      probed = true;
      throw new Error("no engine");
    };
    await expect(startCluster({ backend: "kind", kind: { probe } })).rejects.toBeInstanceOf(
      NoContainerRuntimeError,
    );
    expect(probed).toBe(true);
    probed = false;
    await expect(startCluster({ backend: "kind", kind: { probe, image: "not an image" } })).rejects.toThrow(
      /Invalid kind node image/,
    );
    expect(probed).toBe(false);
  });
});
