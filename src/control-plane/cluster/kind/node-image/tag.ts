/**
 * The name of the node image `workbook kind build-image` makes on this machine. It is never pushed anywhere, so
 * the repository part is ours (`kube-controller-workbook/node`) and the tag is the Kubernetes version inside,
 * like kindest/node's tags. A label on the image records the build recipe, so a second build with the same
 * recipe is a no-op and a changed recipe replaces the image.
 */
import { DEFAULT_ENVTEST_VERSION, normalizeVersion } from "../../envtest/version.js";

/** Repository name of locally built node images. */
export const LOCAL_NODE_IMAGE_REPOSITORY = "kube-controller-workbook/node";

/** Image label holding the recipe hash the image was built from. */
export const RECIPE_LABEL = "io.kube-controller-workbook.recipe";

/** The local node image for a Kubernetes version (default: the envtest version), e.g. `.../node:v1.34.4`. */
export function localNodeImage(version: string = DEFAULT_ENVTEST_VERSION): string {
  return `${LOCAL_NODE_IMAGE_REPOSITORY}:v${normalizeVersion(version)}`;
}
