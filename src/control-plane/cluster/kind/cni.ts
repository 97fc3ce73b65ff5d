/**
 * The CNI manifest shipped in the node image (`/kind/manifests/default-cni.yaml`, kindnetd). kind marks it with
 * "would you kindly template this file" and leaves `{{ .PodSubnet }}` placeholders for the pod network; this
 * renders them, the only template value the manifest uses.
 */

/** Replaces every `{{ .PodSubnet }}` (any spacing) with the pod subnet; other text is left as it is. */
export function renderCniManifest(manifest: string, podSubnet: string): string {
  return manifest.replace(/\{\{\s*\.PodSubnet\s*\}\}/g, podSubnet);
}
