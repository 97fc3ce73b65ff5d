/**
 * Can the kind backend start a cluster here? It needs two things: a container engine that answers, and a node
 * image (named, public and pullable, or built here). Tests, `workbook conformance` and the CI script ask this
 * before they try, and print the reason when the answer is no, instead of failing on the engine's message.
 */
import { engineImageStore } from "./engine.js";
import { chooseKindImage, type ImageStore } from "./image-source.js";
import { type ContainerRuntimeProbe, containerRuntimeUnavailableReason } from "./runtime.js";

/** Options of {@link kindUnavailableReason}. */
export interface KindAvailabilityOptions {
  probe?: ContainerRuntimeProbe;
  imageStore?: ImageStore;
  /** The image the backend would be asked for (default: `WORKBOOK_KIND_IMAGE`, then the automatic choice). */
  image?: string;
}

/** `undefined` when the kind backend can start here, else why not (runtime first, then the image). */
export async function kindUnavailableReason(
  options: KindAvailabilityOptions = {},
): Promise<string | undefined> {
  const runtime = await containerRuntimeUnavailableReason(options.probe);
  if (runtime !== undefined) return `no container runtime (${runtime})`;
  try {
    await chooseKindImage(options.imageStore ?? engineImageStore(), { requested: options.image });
    return undefined;
  } catch (err) {
    return `no node image: ${err instanceof Error ? err.message : String(err)}`;
  }
}
