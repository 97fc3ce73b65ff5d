import type { FieldErrors } from "../admission/field-errors.js";
import type { ResourceType } from "../types.js";
import type { Strategy } from "./strategy.js";

/** A resource the server serves at one group/version: its discovery entry and its write strategy. */
export interface ServedResource {
  readonly type: ResourceType;
  readonly strategy: Strategy;
  /** The name of the CRD that defines it, for custom resources. */
  readonly crd?: string;
  /** Optional openAPIV3Schema check of custom objects (adds 422 causes). */
  readonly schemaCheck?: (obj: unknown, errs: FieldErrors) => void;
}
