import { FieldSet } from "./field-set.js";
import { PathElementError } from "./path-element.js";

/** `metav1.ManagedFieldsOperationType`. */
export type ManagedOperation = "Apply" | "Update";

/** One manager's ownership: a decoded `metadata.managedFields` entry. */
export interface ManagerEntry {
  manager: string;
  operation: ManagedOperation;
  apiVersion: string;
  /** RFC 3339, seconds: when the manager last changed the object. */
  time?: string;
  subresource?: string;
  fields: FieldSet;
}

/**
 * Every manager's ownership by identifier. The identifier is what kube-apiserver keys managers by
 * (`BuildManagerIdentifier`): manager, operation and subresource, and the apiVersion for Update entries only,
 * so one manager applying through two versions keeps one Apply entry.
 */
export type Managers = Map<string, ManagerEntry>;

/** The identifier of a manager entry. */
export function managerId(
  e: Pick<ManagerEntry, "manager" | "operation" | "apiVersion" | "subresource">,
): string {
  // The JSON of the entry without time and fields, keys in Go's order, empty ones omitted (built by hand: this
  // runs on every write).
  let id = e.manager !== "" ? `{"manager":${JSON.stringify(e.manager)},` : "{";
  id += `"operation":"${e.operation}"`;
  if (e.operation === "Update" && e.apiVersion !== "") id += `,"apiVersion":${JSON.stringify(e.apiVersion)}`;
  if (e.subresource) id += `,"subresource":${JSON.stringify(e.subresource)}`;
  return `${id}}`;
}

/** Thrown by {@link decodeManagedFields} for entries kube-apiserver could not decode. */
export class ManagedFieldsError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Decodes `metadata.managedFields` (`DecodeManagedFields`): every entry needs operation Apply or Update, a
 * non-empty apiVersion and fieldsType FieldsV1, and a fieldsV1 that is a field set. Anything else throws
 * {@link ManagedFieldsError}; the caller then falls back as kube-apiserver does. Absent is empty.
 */
export function decodeManagedFields(value: unknown): Managers {
  const managers: Managers = new Map();
  if (value === undefined || value === null) return managers;
  if (!Array.isArray(value)) throw new ManagedFieldsError("managedFields must be a list");
  value.forEach((raw, i) => {
    if (!isObject(raw)) throw new ManagedFieldsError(`managed fields entry ${i} is not an object`);
    const { manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource } = raw;
    if (operation !== "Apply" && operation !== "Update") {
      throw new ManagedFieldsError("operation must be `Apply` or `Update`");
    }
    if (typeof apiVersion !== "string" || apiVersion === "")
      throw new ManagedFieldsError("apiVersion must not be empty");
    if (fieldsType !== "FieldsV1")
      throw new ManagedFieldsError(`invalid fieldsType in managed fields entry ${i}`);
    for (const [name, v] of [
      ["manager", manager],
      ["time", time],
      ["subresource", subresource],
    ] as const) {
      if (v !== undefined && v !== null && typeof v !== "string")
        throw new ManagedFieldsError(`${name} must be a string`);
    }
    let fields: FieldSet;
    try {
      fields =
        fieldsV1 === undefined || fieldsV1 === null ? FieldSet.empty() : FieldSet.fromFieldsV1(fieldsV1);
    } catch (err) {
      if (err instanceof PathElementError) throw new ManagedFieldsError(err.message);
      throw err;
    }
    const entry: ManagerEntry = {
      manager: (manager as string | undefined) ?? "",
      operation,
      apiVersion,
      fields,
    };
    if (typeof time === "string") entry.time = time;
    if (typeof subresource === "string" && subresource !== "") entry.subresource = subresource;
    managers.set(managerId(entry), entry);
  });
  return managers;
}

/**
 * A client asks to clear managedFields with an empty list (or a list of one empty entry):
 * `isResetManagedFields`.
 */
export function isResetManagedFields(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  if (value.length === 0) return true;
  return value.length === 1 && isObject(value[0]) && Object.keys(value[0]).length === 0;
}

/**
 * Encodes managers as `metadata.managedFields` (`encodeManagedFields`): undefined when there is none; entries
 * sorted by operation (Apply first), time, manager, apiVersion and subresource; each entry's keys in the order
 * Go writes ManagedFieldsEntry.
 */
export function encodeManagedFields(managers: Managers): Record<string, unknown>[] | undefined {
  if (managers.size === 0) return undefined;
  const entries = [...managers.values()].sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      cmp(secondsOf(p.time), secondsOf(q.time)) ||
      cmp(p.manager, q.manager) ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? "", q.subresource ?? ""),
  );
  return entries.map((e) => {
    const out: Record<string, unknown> = {};
    if (e.manager !== "") out.manager = e.manager;
    out.operation = e.operation;
    out.apiVersion = e.apiVersion;
    if (e.time !== undefined) out.time = e.time;
    out.fieldsType = "FieldsV1";
    out.fieldsV1 = e.fields.toFieldsV1();
    if (e.subresource !== undefined) out.subresource = e.subresource;
    return out;
  });
}

function secondsOf(time: string | undefined): number {
  const ms = time === undefined ? Number.NaN : Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

function cmp<T extends string | number>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
