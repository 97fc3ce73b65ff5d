import type { KubeObject } from "../../../apimachinery/object.js";
import { isJsonObject } from "../json.js";
import { kindSchema } from "../schema/message-schema.js";
import type { FieldErrors } from "../validation/field-errors.js";
import { writeAsGo } from "./go-json.js";
import { BasicStrategy } from "./strategy.js";

const unset = (v: unknown) => v === undefined || v === null || v === "";

/**
 * Event (core/v1, and the stored shape of events.k8s.io/v1): stored as Go writes it (`"eventTime": null`,
 * `"reportingComponent": ""`...); supports the event field selectors controllers use; validated as kube's
 * `legacyValidateEvent` validates every event: an old-style event (no eventTime) regarding an object in another
 * namespace is refused, a new-style one (eventTime set) needs its reporting controller and instance, action and
 * reason. `reportingField` is how the reporting controller is named in errors (`source` through core/v1).
 */
export class EventStrategy extends BasicStrategy {
  constructor(private readonly reportingField = "source") {
    super({
      extraFieldLabels: [
        "involvedObject.kind",
        "involvedObject.namespace",
        "involvedObject.name",
        "involvedObject.uid",
        "involvedObject.apiVersion",
        "involvedObject.resourceVersion",
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
      ],
    });
  }

  override prepareForCreate(obj: KubeObject): void {
    writeEventAsGo(obj);
  }

  override prepareForUpdate(obj: KubeObject, old: KubeObject): void {
    super.prepareForUpdate(obj, old);
    writeEventAsGo(obj);
  }

  override validate(obj: KubeObject, errs: FieldErrors, _old: KubeObject | undefined): void {
    const ns = obj.metadata?.namespace ?? "";
    const involved = isJsonObject(obj.involvedObject) ? obj.involvedObject : {};
    const involvedNs = typeof involved.namespace === "string" ? involved.namespace : "";
    const mismatch = () =>
      errs.invalid("involvedObject.namespace", involvedNs, "does not match event.namespace");
    if (unset(obj.eventTime)) {
      if (involvedNs === "" ? ns !== "" && ns !== "default" : ns !== involvedNs) mismatch();
      return;
    }
    if (involvedNs === "" && ns !== "default" && ns !== "kube-system") mismatch();
    if (unset(obj.reportingComponent)) errs.required(this.reportingField);
    if (unset(obj.reportingInstance)) errs.required("reportingInstance");
    if (unset(obj.action)) errs.required("action");
    if (unset(obj.reason)) errs.required("reason");
  }
}

function writeEventAsGo(obj: KubeObject): void {
  const schema = kindSchema("v1", "Event");
  if (schema) writeAsGo(obj, schema);
}
