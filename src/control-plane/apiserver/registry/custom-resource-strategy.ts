import type { KubeObject } from "../../../apimachinery/object.js";
import { jsonEqual } from "../json.js";
import { BasicStrategy, copyField } from "./strategy.js";

/**
 * Custom resources, after apiextensions-apiserver's `customresource/strategy.go` and `status_strategy.go`:
 * - updates must carry metadata.resourceVersion (no unconditional update; 422 otherwise);
 * - generation starts at 1 and bumps when anything outside `metadata` changes;
 * - with a status subresource: status is dropped on create, main-endpoint writes keep the stored status, and
 *   `/status` writes take only `.status` from the body (all metadata changes are ignored) and never bump
 *   generation.
 */
export class CustomResourceStrategy extends BasicStrategy {
  constructor(hasStatus: boolean) {
    super({ tracksGeneration: true, allowUnconditionalUpdate: false, hasStatus });
  }

  override prepareForCreate(obj: KubeObject): void {
    if (this.hasStatus) delete obj.status;
  }

  override prepareForStatusUpdate(body: KubeObject, old: KubeObject): KubeObject {
    const next: KubeObject = { ...old };
    copyField(next, body, "status");
    return next;
  }

  override bumpsGeneration(obj: KubeObject, old: KubeObject): boolean {
    const { metadata: _n, ...a } = obj;
    const { metadata: _o, ...b } = old;
    return !jsonEqual(a, b);
  }
}
