/**
 * events.k8s.io/v1 Events, served over the storage of core/v1 Events as kube-apiserver does: one object, two
 * shapes. An event written through either group is read through both; the fields convert as
 * `pkg/apis/events/v1/conversion.go` converts them (regarding <-> involvedObject, note <-> message,
 * reportingController <-> reportingComponent, deprecatedSource/FirstTimestamp/LastTimestamp/Count <->
 * source/firstTimestamp/lastTimestamp/count). Events created through events.k8s.io/v1 are validated strictly
 * (`ValidateEventCreate` for the new API: eventTime set, type Normal or Warning, the deprecated fields unset);
 * field selectors use the new names (`regarding.name`), converted to the stored ones.
 */
import type { KubeObject } from "../../../apimachinery/object.js";
import { isJsonObject, type JsonObject } from "../json.js";
import { kindSchema } from "../schema/message-schema.js";
import type { FieldErrors } from "../validation/field-errors.js";
import { EventStrategy } from "./event-strategy.js";
import { writeAsGo } from "./go-json.js";
import { defineResourceType } from "./resource-type.js";
import type { ServedResource } from "./served-resource.js";

/** events.k8s.io/v1 field -> core/v1 field, for the fields whose names differ. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ["regarding", "involvedObject"],
  ["note", "message"],
  ["reportingController", "reportingComponent"],
  ["deprecatedSource", "source"],
  ["deprecatedFirstTimestamp", "firstTimestamp"],
  ["deprecatedLastTimestamp", "lastTimestamp"],
  ["deprecatedCount", "count"],
];

/**
 * The field selectors events.k8s.io/v1 accepts and the stored (core) fields they select on
 * (`AddFieldLabelConversionsForEvent`).
 */
export const EVENTS_V1_FIELD_LABELS: Readonly<Record<string, string>> = {
  "regarding.kind": "involvedObject.kind",
  "regarding.namespace": "involvedObject.namespace",
  "regarding.name": "involvedObject.name",
  "regarding.uid": "involvedObject.uid",
  "regarding.apiVersion": "involvedObject.apiVersion",
  "regarding.resourceVersion": "involvedObject.resourceVersion",
  "regarding.fieldPath": "involvedObject.fieldPath",
  reportingController: "reportingComponent",
  reason: "reason",
  type: "type",
  "metadata.name": "metadata.name",
  "metadata.namespace": "metadata.namespace",
};

/** Copies `obj` under another apiVersion with fields renamed by `pairs` ([from, to]), written as Go would. */
function convert(
  obj: KubeObject,
  apiVersion: string,
  pairs: ReadonlyArray<readonly [string, string]>,
): KubeObject {
  const rename = new Map(pairs);
  const out: JsonObject = { apiVersion, kind: "Event" };
  for (const [k, v] of Object.entries(obj)) {
    if (k === "apiVersion" || k === "kind") continue;
    out[rename.get(k) ?? k] = v;
  }
  const schema = kindSchema(apiVersion, "Event");
  return (schema ? writeAsGo(out, schema) : out) as KubeObject;
}

/** A stored core/v1 Event as events.k8s.io/v1 shows it. */
export function eventFromCore(core: KubeObject): KubeObject {
  return convert(
    structuredClone(core) as KubeObject,
    "events.k8s.io/v1",
    RENAMED.map(([a, b]) => [b, a] as const),
  );
}

/** An events.k8s.io/v1 Event as core/v1 stores it. */
export function eventToCore(event: KubeObject): KubeObject {
  return convert(event, "v1", RENAMED);
}

/** Rewrites the keys of a field selector (`regarding.name=x,type!=Normal`) to the stored kind's field names. */
export function renameFieldSelector(selector: string, names: Readonly<Record<string, string>>): string {
  return selector
    .split(/(?<!\\),/)
    .map((term) => {
      const m = /^\s*([^!=\s]+)(\s*(?:==|!=|=).*)$/s.exec(term);
      if (!m) return term;
      const key = m[1] as string;
      return `${Object.hasOwn(names, key) ? names[key] : key}${m[2]}`;
    })
    .join(",");
}

/** The stored (core) fields an update through events.k8s.io/v1 may not change, in kube's order. */
const IMMUTABLE_ON_UPDATE = [
  "involvedObject",
  "reason",
  "message",
  "source",
  "firstTimestamp",
  "lastTimestamp",
  "count",
  "type",
  "eventTime",
  "reportingComponent",
  "reportingInstance",
  "action",
  "related",
];

const unset = (v: unknown) => v === undefined || v === null || v === "" || v === 0;

/**
 * The write strategy of events.k8s.io/v1: the core Event strategy, after the body is converted to the stored
 * core shape; a create is validated by the new API's stricter rules first (field names as kube reports them,
 * the internal ones).
 */
class EventsV1Strategy extends EventStrategy {
  constructor() {
    super("reportingController");
  }

  override decode(obj: KubeObject): void {
    const core = eventToCore(obj);
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, core);
  }

  override validate(obj: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
    super.validate(obj, errs, old);
    if (old) {
      // `ValidateEventUpdate` for the new API: only the series (and metadata) may change.
      for (const f of IMMUTABLE_ON_UPDATE) {
        if (JSON.stringify(obj[f]) !== JSON.stringify(old[f]))
          errs.invalid(f, obj[f] ?? "", "field is immutable");
      }
      return;
    }
    if (unset(obj.eventTime)) errs.required("eventTime");
    if (obj.type !== "Normal" && obj.type !== "Warning") {
      errs.invalid("type", "", `has invalid value: ${typeof obj.type === "string" ? obj.type : ""}`);
    }
    for (const f of ["firstTimestamp", "lastTimestamp", "count"]) {
      if (!unset(obj[f])) errs.invalid(f, "", "needs to be unset");
    }
    const source = isJsonObject(obj.source) ? obj.source : {};
    if (!unset(source.component) || !unset(source.host)) errs.invalid("source", "", "needs to be unset");
  }
}

/** events.k8s.io/v1 `events`: stored with the core/v1 Events, converted on the way in and out. */
export function eventsV1Resource(): ServedResource {
  return {
    type: defineResourceType({
      group: "events.k8s.io",
      version: "v1",
      resource: "events",
      kind: "Event",
      namespaced: true,
      shortNames: ["ev"],
      storageGroup: "",
    }),
    strategy: new EventsV1Strategy(),
    fromStorage: eventFromCore,
    fieldLabels: EVENTS_V1_FIELD_LABELS,
  };
}
