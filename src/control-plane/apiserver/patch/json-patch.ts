import { cloneJson, isJsonObject, type JsonObject, jsonEqual, setOwn } from "../json.js";
import { JsonPatchError, parseJsonPointer } from "./json-pointer.js";

/** One JSON Patch operation. */
export interface JsonPatchOperation {
  op: "add" | "remove" | "replace" | "move" | "copy" | "test";
  path: string;
  from?: string;
  value?: unknown;
}

/** The most operations one patch may hold (kube-apiserver's `maxJSONPatchOperations`). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

const OPS = new Set(["add", "remove", "replace", "move", "copy", "test"]);

/** Checks that a decoded body is a JSON Patch document (an array of well-formed operations). */
export function parseJsonPatch(doc: unknown): JsonPatchOperation[] {
  if (!Array.isArray(doc))
    throw new JsonPatchError("json: cannot unmarshal object into Go value of type jsonpatch.Patch", true);
  if (doc.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new JsonPatchError(
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${doc.length}`,
      true,
    );
  }
  return doc.map((op, i) => {
    if (!isJsonObject(op) || typeof op.op !== "string") {
      throw new JsonPatchError(`Unexpected kind: ${typeof op} (operation ${i})`, true);
    }
    // An unknown op name decodes fine and fails when applied: 422, like any operation that cannot apply.
    if (!OPS.has(op.op)) throw new JsonPatchError(`Unexpected kind: ${op.op} (operation ${i})`, false);
    if (typeof op.path !== "string") throw new JsonPatchError(`operation ${i} is missing "path"`, true);
    if ((op.op === "move" || op.op === "copy") && typeof op.from !== "string") {
      throw new JsonPatchError(`operation ${i} (${op.op}) is missing "from"`, true);
    }
    if ((op.op === "add" || op.op === "replace" || op.op === "test") && !Object.hasOwn(op, "value")) {
      throw new JsonPatchError(`operation ${i} (${op.op}) is missing "value"`, true);
    }
    return op as unknown as JsonPatchOperation;
  });
}

/**
 * Applies a JSON Patch (RFC 6902), `application/json-patch+json`, atomically: it works on a copy and returns
 * the patched document, or throws {@link JsonPatchError} with nothing changed. `test` compares structurally;
 * array index `-` appends.
 */
export function applyJsonPatch(document: unknown, ops: readonly JsonPatchOperation[]): unknown {
  let doc = cloneJson(document);
  for (const op of ops) {
    switch (op.op) {
      case "add":
        doc = add(doc, parseJsonPointer(op.path), cloneJson(op.value), op.path);
        break;
      case "remove":
        doc = remove(doc, parseJsonPointer(op.path), op.path).doc;
        break;
      case "replace": {
        const path = parseJsonPointer(op.path);
        get(doc, path, op.path);
        doc = path.length === 0 ? cloneJson(op.value) : set(doc, path, cloneJson(op.value), op.path);
        break;
      }
      case "move": {
        const from = op.from!;
        if (op.path.startsWith(`${from}/`))
          throw new JsonPatchError(`cannot move "${from}" into its own child "${op.path}"`);
        const removed = remove(doc, parseJsonPointer(from), from);
        doc = add(removed.doc, parseJsonPointer(op.path), removed.value, op.path);
        break;
      }
      case "copy": {
        const value = cloneJson(get(doc, parseJsonPointer(op.from!), op.from!));
        doc = add(doc, parseJsonPointer(op.path), value, op.path);
        break;
      }
      case "test": {
        const actual = get(doc, parseJsonPointer(op.path), op.path);
        if (!jsonEqual(actual, op.value))
          throw new JsonPatchError(`testing value ${op.path} failed: test failed`);
        break;
      }
    }
  }
  return doc;
}

function parentOf(doc: unknown, path: string[], pointer: string): { parent: unknown; last: string } {
  const parent = get(doc, path.slice(0, -1), pointer);
  return { parent, last: path[path.length - 1]! };
}

function get(doc: unknown, path: string[], pointer: string): unknown {
  let cur = doc;
  for (const token of path) {
    if (Array.isArray(cur)) {
      const i = arrayIndex(token, cur.length - 1, pointer);
      cur = cur[i];
    } else if (isJsonObject(cur) && Object.hasOwn(cur, token)) {
      cur = cur[token];
    } else {
      throw new JsonPatchError(`doc is missing path: "${pointer}": missing value`);
    }
  }
  return cur;
}

function arrayIndex(token: string, max: number, pointer: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    throw new JsonPatchError(`invalid array index "${token}" in "${pointer}"`);
  const i = Number(token);
  if (i > max) throw new JsonPatchError(`array index out of bounds in "${pointer}"`);
  return i;
}

function add(doc: unknown, path: string[], value: unknown, pointer: string): unknown {
  if (path.length === 0) return value;
  const { parent, last } = parentOf(doc, path, pointer);
  if (Array.isArray(parent)) {
    const i = last === "-" ? parent.length : arrayIndex(last, parent.length, pointer);
    parent.splice(i, 0, value);
  } else if (isJsonObject(parent)) {
    setOwn(parent, last, value);
  } else {
    throw new JsonPatchError(`doc is missing path: "${pointer}": missing value`);
  }
  return doc;
}

function set(doc: unknown, path: string[], value: unknown, pointer: string): unknown {
  const { parent, last } = parentOf(doc, path, pointer);
  if (Array.isArray(parent)) parent[arrayIndex(last, parent.length - 1, pointer)] = value;
  else setOwn(parent as JsonObject, last, value);
  return doc;
}

function remove(doc: unknown, path: string[], pointer: string): { doc: unknown; value: unknown } {
  if (path.length === 0) throw new JsonPatchError("cannot remove the whole document");
  const value = get(doc, path, pointer);
  const { parent, last } = parentOf(doc, path, pointer);
  if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length - 1, pointer), 1);
  else delete (parent as JsonObject)[last];
  return { doc, value };
}
