import type { KubeObject } from "../../../apimachinery/object.js";
import { isJsonObject } from "../json.js";

/** A column of a `meta.k8s.io/v1` Table (`metav1.TableColumnDefinition`). */
export interface TableColumn {
  name: string;
  type: "string" | "integer" | "boolean" | "date";
  format: string;
  description: string;
  /** 0: shown by `kubectl get`; 1: only with `-o wide`. */
  priority: number;
}

/**
 * A column plus how to compute its cell from an object: one column of kube-apiserver's printers
 * (`pkg/printers`), which the table convertor asks for each row.
 */
export interface Printer {
  column: TableColumn;
  cell(obj: KubeObject): unknown;
}

/** The value at a path of an object (undefined when any step is missing). */
export function field(obj: KubeObject, ...path: string[]): unknown {
  let v: unknown = obj;
  for (const p of path) v = isJsonObject(v) ? v[p] : undefined;
  return v;
}

/** The number of keys of an object (0 for anything else). */
export function count(v: unknown): number {
  return isJsonObject(v) ? Object.keys(v).length : 0;
}

/** A number, or 0. */
export function num(v: unknown): number {
  return typeof v === "number" ? v : 0;
}

/** A column shown by `kubectl get` (priority 0). */
export const column = (name: string, type: TableColumn["type"], description: string): TableColumn => ({
  name,
  type,
  format: "",
  description,
  priority: 0,
});
