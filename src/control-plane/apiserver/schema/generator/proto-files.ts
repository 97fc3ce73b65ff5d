/**
 * Reads Kubernetes generated.proto files with protobufjs's parser: each message's fields (number, protobuf type,
 * repeated, map key and value) and the `+marker=value` lines of the comments above them, which carry the
 * merge semantics server-side apply and strategic merge patch need (`+listType=map`, `+listMapKey=name`,
 * `+patchStrategy=merge`, `+patchMergeKey=name`, `+mapType=atomic`, `+structType=atomic`).
 */
import protobuf from "protobufjs";

/** One field as generated.proto declares it. */
export interface ProtoField {
  readonly number: number;
  /** The proto field name (lowerCamel of the Go name; the JSON name comes from the Go tag). */
  readonly name: string;
  /** A scalar type (`string`, `int64`, ...) or a fully qualified message name without the leading dot. */
  readonly type: string;
  readonly repeated: boolean;
  /** For `map<K, V>` fields: the key type (`type` is then the value type). */
  readonly mapKey?: string;
  /** The comment's `+name=value` markers, in order (a marker may repeat, e.g. `+listMapKey`). */
  readonly markers: readonly (readonly [string, string])[];
}

/** One message: its fully qualified name, its fields, and its own comment's markers. */
export interface ProtoMessage {
  readonly fullName: string;
  readonly fields: readonly ProtoField[];
  readonly markers: readonly (readonly [string, string])[];
}

/** What one generated.proto declares. */
export interface ProtoFile {
  readonly packageName: string;
  readonly messages: readonly ProtoMessage[];
}

const SCALARS = new Set([
  "string",
  "bytes",
  "bool",
  "int32",
  "int64",
  "uint32",
  "uint64",
  "sint32",
  "sint64",
  "double",
  "float",
  "fixed32",
  "fixed64",
]);

/** The `+name=value` (or bare `+name`) lines of a comment. */
export function markersOf(comment: string | null | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const line of (comment ?? "").split("\n")) {
    const m = /^\s*\+([\w.:/-]+)(?:=(.*))?$/.exec(line);
    if (m) out.push([m[1] ?? "", (m[2] ?? "").trim()]);
  }
  return out;
}

/** Qualifies a field's type: scalars stay, `.a.b.C` loses its dot, a bare `C` is in the file's package. */
function qualify(type: string, packageName: string): string {
  if (SCALARS.has(type)) return type;
  if (type.startsWith(".")) return type.slice(1);
  return `${packageName}.${type}`;
}

/** Parses one generated.proto text. */
export function parseProtoFile(text: string): ProtoFile {
  const parsed = protobuf.parse(text, { keepCase: true, alternateCommentMode: true });
  const packageName = parsed.package ?? "";
  const messages: ProtoMessage[] = [];
  const visit = (ns: protobuf.NamespaceBase): void => {
    for (const nested of ns.nestedArray) {
      if (nested instanceof protobuf.Type) {
        messages.push({
          fullName: nested.fullName.replace(/^\./, ""),
          markers: markersOf(nested.comment),
          fields: nested.fieldsArray.map((f) => ({
            number: f.id,
            name: f.name,
            type: qualify(f.type, packageName),
            repeated: f.repeated,
            ...(f instanceof protobuf.MapField ? { mapKey: f.keyType } : {}),
            markers: markersOf(f.comment),
          })),
        });
      }
      if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) visit(nested);
    }
  };
  visit(parsed.root);
  return { packageName, messages };
}
