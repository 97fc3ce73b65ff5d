/**
 * Is there a container engine to run a kind node in? Testcontainers answers: `getContainerRuntimeClient()` tries
 * `~/.testcontainers.properties`, `DOCKER_HOST`, `/var/run/docker.sock` and the rootless sockets, pings each, and
 * rejects with "Could not find a working container runtime strategy" when none answers. The kind backend turns
 * that into an error that says what is missing and which backends work without Docker.
 */

/** Resolves when a container engine answers, rejects with the reason otherwise. */
export type ContainerRuntimeProbe = () => Promise<void>;

/** The real probe: asks Testcontainers (loaded only now, never by importing the package index). */
export const testcontainersProbe: ContainerRuntimeProbe = async () => {
  const { getContainerRuntimeClient } = await import("testcontainers");
  await getContainerRuntimeClient();
};

/** Thrown by the kind backend when no Docker-compatible engine answers. */
export class NoContainerRuntimeError extends Error {
  override readonly name = "NoContainerRuntimeError";
  constructor(readonly reason: string) {
    super(
      `The kind backend needs a container runtime (Docker or Podman with a Docker-compatible socket), and none ` +
        `answered: ${reason}. Start Docker (or set DOCKER_HOST), or use another backend: ` +
        `WORKBOOK_CLUSTER=embedded (in-process, nothing to install), envtest (real kube-apiserver and etcd ` +
        `binaries, see \`workbook envtest build\`) or kubeconfig (any cluster you already have).`,
    );
  }
}

/** `undefined` when a runtime answers, else the reason none did. Never throws. */
export async function containerRuntimeUnavailableReason(
  probe: ContainerRuntimeProbe = testcontainersProbe,
): Promise<string | undefined> {
  try {
    await probe();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Throws {@link NoContainerRuntimeError} unless a container runtime answers. */
export async function requireContainerRuntime(
  probe: ContainerRuntimeProbe = testcontainersProbe,
): Promise<void> {
  const reason = await containerRuntimeUnavailableReason(probe);
  if (reason !== undefined) throw new NoContainerRuntimeError(reason);
}
