import type { ResourceType } from "../types.js";
import type { FieldErrors } from "../validation/field-errors.js";
import type { SchemaProps } from "../validation/openapi-schema.js";
import type { Strategy } from "./strategy.js";
import type { PrinterColumn } from "./table.js";

/** A resource the server serves at one group/version: its discovery entry and its write strategy. */
export interface ServedResource {
  readonly type: ResourceType;
  readonly strategy: Strategy;
  /** The name of the CRD that defines it, for custom resources. */
  readonly crd?: string;
  /** Optional openAPIV3Schema check of custom objects (adds 422 causes). */
  readonly schemaCheck?: (obj: unknown, errs: FieldErrors) => void;
  /** For custom resources: the version's structural schema (`openAPIV3Schema`), for pruning. */
  readonly openAPIV3Schema?: SchemaProps;
  /** For custom resources: the `additionalPrinterColumns` of the CRD version (empty when it declares none). */
  readonly printerColumns?: readonly PrinterColumn[];
}
