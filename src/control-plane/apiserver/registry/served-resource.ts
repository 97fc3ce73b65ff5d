import type { KubeObject } from "../../../apimachinery/object.js";
import type { ResourceType } from "../types.js";
import type { FieldErrors } from "../validation/field-errors.js";
import type { SchemaProps } from "../validation/openapi-schema.js";
import type { WebhookConversion } from "./crd-conversion-webhook.js";
import type { Strategy } from "./strategy.js";
import type { PrinterColumn } from "./table.js";

/** A resource the server serves at one group/version: its discovery entry and its write strategy. */
export interface ServedResource {
  readonly type: ResourceType;
  readonly strategy: Strategy;
  /** The name of the CRD that defines it, for custom resources. */
  readonly crd?: string;
  /**
   * Optional openAPIV3Schema check of custom objects (adds 422 causes), with the stored object on update (for
   * CEL transition rules and ratcheting) and the request's warnings (ratcheted rule failures).
   */
  readonly schemaCheck?: (obj: unknown, errs: FieldErrors, old?: unknown, warnings?: string[]) => void;
  /** For custom resources: the version's structural schema (`openAPIV3Schema`), for pruning. */
  readonly openAPIV3Schema?: SchemaProps;
  /**
   * For a version stored in another version's shape (events.k8s.io/v1 over core/v1 Events): the stored object as
   * this version shows it. Its strategy's `decode` converts request bodies the other way.
   */
  readonly fromStorage?: (stored: KubeObject) => KubeObject;
  /**
   * For custom resources: an object written through this version as storage keeps it, in the CRD's storage
   * version (see crd-conversion.ts). Applied just before the object is committed.
   */
  readonly toStorage?: (obj: KubeObject) => KubeObject;
  /**
   * For custom resources whose CRD converts through a webhook: the HTTP handlers run their store calls through
   * it (`WebhookConversion.run`, `watchSink`), since a webhook call cannot happen inside a synchronous one.
   */
  readonly conversionWebhook?: WebhookConversion;
  /** Field-selector names of this version mapped to the stored shape's (`regarding.name` -> `involvedObject.name`). */
  readonly fieldLabels?: Readonly<Record<string, string>>;
  /** For custom resources: the `additionalPrinterColumns` of the CRD version (empty when it declares none). */
  readonly printerColumns?: readonly PrinterColumn[];
}
