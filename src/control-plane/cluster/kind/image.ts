/**
 * The kindest/node image the kind backend runs. Pinned by digest, as kind itself pins it: node images are built
 * for a given kind release and a tag can be re-pushed. This one is kind v0.30.0's default (Kubernetes v1.34.0).
 */

/** kindest/node v1.34.0 from kind v0.30.0, pinned by its multi-platform manifest digest. */
export const DEFAULT_KIND_NODE_IMAGE =
  "kindest/node:v1.34.0@sha256:7416a61b42b1662ca6ca89f02028ac133a309a2a30ba309614e8ec94d976dc5a";

/** The image to use: the option, else `WORKBOOK_KIND_IMAGE`, else {@link DEFAULT_KIND_NODE_IMAGE}. */
export function resolveKindImage(option?: string, env: NodeJS.ProcessEnv = process.env): string {
  const image = (option ?? env.WORKBOOK_KIND_IMAGE ?? DEFAULT_KIND_NODE_IMAGE).trim();
  if (!/^[\w.\-/:@]+$/.test(image) || image.endsWith(":") || image.endsWith("@")) {
    throw new Error(
      `Invalid kind node image reference "${image}" (expected e.g. ${DEFAULT_KIND_NODE_IMAGE}).`,
    );
  }
  return image;
}
