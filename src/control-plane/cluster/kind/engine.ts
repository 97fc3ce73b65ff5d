/**
 * The container engine as the kind backend and `workbook kind build-image` see it: the same engine
 * Testcontainers finds (`DOCKER_HOST`, `~/.testcontainers.properties`, `/var/run/docker.sock`, ...), reached
 * through the dockerode client Testcontainers already holds, so nothing here needs the docker CLI. Loaded only
 * when used: importing the package never loads Testcontainers.
 */
import type { ContainerRuntimeClient } from "testcontainers";
import type { ImageStore } from "./image-source.js";

/** The dockerode client type, as Testcontainers exposes it (no direct dependency on dockerode). */
export type EngineClient = ContainerRuntimeClient["container"]["dockerode"];

/** The engine's dockerode client (rejects like {@link testcontainersProbe} when no engine answers). */
export async function engineClient(): Promise<EngineClient> {
  const { getContainerRuntimeClient } = await import("testcontainers");
  return (await getContainerRuntimeClient()).container.dockerode;
}

/** An {@link ImageStore} over the engine Testcontainers finds. */
export function engineImageStore(): ImageStore {
  return {
    async exists(image) {
      const { getContainerRuntimeClient, ImageName } = await import("testcontainers");
      return (await getContainerRuntimeClient()).image.exists(ImageName.fromString(image));
    },
    async pull(image) {
      const { getContainerRuntimeClient, ImageName } = await import("testcontainers");
      await (await getContainerRuntimeClient()).image.pull(ImageName.fromString(image));
    },
  };
}
