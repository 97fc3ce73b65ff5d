import type { KubeObject } from "../../../apimachinery/object.js";
import type { ListItemText } from "../serializer/list-body.js";
import { encodeContinue } from "../storage/continue-token.js";
import type { RangePage } from "../storage/list-reader.js";
import { parseListResourceVersion } from "../storage/resource-version.js";
import type { StoredVersion } from "../storage/stored-version.js";
import type { KubeList, ListOptions, ResourceType, WatchOptions } from "../types.js";
import { FieldErrors } from "../validation/field-errors.js";
import { renameFieldSelector } from "./events-v1.js";
import { apiVersionOf } from "./resource-type.js";
import { buildSelection } from "./selection-predicate.js";
import type { ServedResource } from "./served-resource.js";

/**
 * How a read answers a client: the selection predicate of a LIST or WATCH, the list envelope, each item as the
 * served version shows it. kube-apiserver's `registry.Store` builds the predicate (`PredicateFunc`) and hands it
 * to the storage layer; the handler's encoder writes the list in the request's version.
 */

/** What a LIST read from storage: the revision it was read at and the page of stored versions. */
export interface ListResult {
  rt: ResourceType;
  rev: number;
  page: RangePage;
}

/**
 * The selection predicate of a LIST or WATCH (`SelectionPredicate`; undefined when it selects everything).
 * Field selectors use the served version's field labels, renamed to the stored shape's.
 */
export function predicateOf(
  served: ServedResource,
  opts: ListOptions | WatchOptions,
): ((v: StoredVersion) => boolean) | undefined {
  const extra = served.strategy.extraFieldLabels;
  const fields =
    served.fieldLabels && opts.fieldSelector
      ? renameFieldSelector(opts.fieldSelector, served.fieldLabels)
      : opts.fieldSelector;
  const sel = buildSelection(opts.labelSelector, fields, extra);
  if (!sel) return undefined;
  // Label-only selections read the labels kept beside the stored bytes: no parse per object.
  return sel.needsObject ? (v) => sel.matches(v.object()) : (v) => sel.matchesLabels(v.labels);
}

/**
 * `ValidateListOptions` for a LIST (checked before the storage reads; a continue token carries its own
 * revision): `resourceVersionMatch` needs a `resourceVersion`, is `Exact` or `NotOlderThan`, and `Exact` with
 * resourceVersion "0" is forbidden (422 Invalid ListOptions). A resourceVersion that does not parse is 400.
 */
export function validateListOptions(opts: ListOptions): void {
  if (opts.continue) return;
  const errs = new FieldErrors();
  const match = opts.resourceVersionMatch;
  if (match && !opts.resourceVersion) {
    errs.forbidden(
      "resourceVersionMatch",
      "resourceVersionMatch is forbidden unless resourceVersion is provided",
    );
  }
  if (match && match !== "Exact" && match !== "NotOlderThan") {
    errs.notSupported("resourceVersionMatch", match, ["Exact", "NotOlderThan", ""]);
  }
  errs.throwIfAny("ListOptions", "meta.k8s.io", "");
  if (match === "Exact" && parseListResourceVersion(opts.resourceVersion) === 0) {
    new FieldErrors()
      .forbidden("resourceVersionMatch", 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"')
      .throwIfAny("ListOptions", "meta.k8s.io", "");
  }
}

/**
 * `ValidateListOptions` for a watch: `sendInitialEvents` needs `resourceVersionMatch=NotOlderThan`, and
 * `resourceVersionMatch` needs `sendInitialEvents` (422 Invalid ListOptions).
 */
export function validateWatchOptions(opts: WatchOptions): void {
  const errs = new FieldErrors();
  if (opts.sendInitialEvents !== undefined && opts.resourceVersionMatch !== "NotOlderThan") {
    errs.forbidden(
      "resourceVersionMatch",
      "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
    );
  } else if (opts.sendInitialEvents === undefined && opts.resourceVersionMatch !== undefined) {
    errs.forbidden(
      "resourceVersionMatch",
      "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
    );
  }
  errs.throwIfAny("ListOptions", "meta.k8s.io", "");
}

/** A LIST's type meta and list meta: resourceVersion, continue token and remainingItemCount of the page. */
export function listEnvelope(r: ListResult): Omit<KubeList, "items"> {
  const metadata: KubeList["metadata"] = { resourceVersion: String(r.rev) };
  if (r.page.next !== undefined) metadata.continue = encodeContinue({ rev: r.rev, start: r.page.next });
  if (r.page.remaining !== undefined) metadata.remainingItemCount = r.page.remaining;
  return { apiVersion: apiVersionOf(r.rt), kind: r.rt.listKind, metadata };
}

/**
 * The object as seen through the served version: converted when that version has another shape than the stored
 * one (events.k8s.io/v1 Events), otherwise only its apiVersion (custom resources served at several versions).
 */
export function present(obj: KubeObject, served: ServedResource): KubeObject {
  if (served.fromStorage) return Object.freeze(served.fromStorage(obj));
  const apiVersion = apiVersionOf(served.type);
  if (obj.apiVersion === apiVersion) return obj;
  return Object.freeze({ ...obj, apiVersion });
}

/**
 * How each LIST item of `rt` becomes JSON (what is the same for every item is worked out once per list).
 * kube-apiserver omits `apiVersion` and `kind` on the items of a built-in kind's list (the list's own type meta
 * says them) but keeps them on custom resources (unstructured items carry their own).
 */
export function itemJsonOf(served: ServedResource): (v: StoredVersion) => ListItemText {
  const rt = served.type;
  const builtin = served.crd === undefined;
  const fromStorage = served.fromStorage;
  const whole = (json: string): ListItemText => ({ json, start: 0, prefix: "" });
  if (fromStorage) return (v) => whole(JSON.stringify(listItem(fromStorage(v.object()), builtin)));
  const apiVersion = apiVersionOf(rt);
  // Stored JSON always starts with apiVersion then kind (decodeBody puts them first), so the common case needs
  // no parse: keep it as is, or cut the type meta off (and put back the opening brace).
  const typeMeta = `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(rt.kind)},`;
  return (v) => {
    if (v.json.startsWith(typeMeta)) {
      return builtin ? { json: v.json, start: typeMeta.length, prefix: "{" } : whole(v.json);
    }
    return whole(JSON.stringify(listItem({ ...v.object(), apiVersion }, builtin)));
  };
}

/** A LIST item: without `apiVersion`/`kind` for built-in kinds (see {@link itemJsonOf}). */
export function listItem(obj: KubeObject, builtin: boolean): KubeObject {
  if (!builtin) return obj;
  const { apiVersion: _v, kind: _k, ...rest } = obj;
  return rest as KubeObject;
}
