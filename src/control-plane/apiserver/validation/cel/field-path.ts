/**
 * A rule's `fieldPath` (`.spec.replicas`, `.labels['a.b']`, `['x-y']`), checked against the schema and
 * normalized as apiextensions-apiserver's `ValidFieldPath` does: properties join with dots, `additionalProperties`
 * keys go in brackets (`labels[a.b]`), and the path is relative to the node the rule is on.
 */
import { isJsonObject } from "../../json.js";
import type { SchemaProps } from "../openapi-schema.js";

/** The normalized field path (`spec.replicas`), or `undefined` when it names nothing in the schema. */
export function normalizeFieldPath(jsonPath: string, schema: SchemaProps): string | undefined {
  let rest = jsonPath.trim();
  let node: SchemaProps | undefined = schema;
  let out = "";
  while (rest.length > 0) {
    let name: string;
    const dot = /^\.([^.[\]]+)/.exec(rest);
    const bracket = /^\['((?:[^'\\]|\\.)*)'\]/.exec(rest);
    if (dot) {
      name = dot[1] ?? "";
      rest = rest.slice(dot[0].length);
    } else if (bracket) {
      name = (bracket[1] ?? "").replace(/\\(.)/g, "$1");
      rest = rest.slice(bracket[0].length);
    } else return undefined;
    if (!node) return undefined;
    if (node.properties && Object.hasOwn(node.properties, name)) {
      out = out ? `${out}.${name}` : name;
      node = node.properties[name];
    } else if (isJsonObject(node.additionalProperties)) {
      out = `${out}[${name}]`;
      node = node.additionalProperties as SchemaProps;
    } else return undefined;
  }
  return out === "" ? undefined : out;
}
