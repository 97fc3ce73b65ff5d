/**
 * The decoder's view of a Kubernetes protobuf message: for each field its number, JSON name, protobuf type and
 * how Go's encoding/json writes it (pointer, omitempty, omitzero, inlined). Built from the generated table
 * (`./generated/kubernetes-schemas.ts`, from generated.proto and the Go struct tags) by {@link messageSchema}.
 */
import {
  GENERATED_KINDS,
  GENERATED_MESSAGE_FLAGS,
  GENERATED_MESSAGES,
} from "./generated/kubernetes-schemas.js";

/** Scalar protobuf types Kubernetes objects use. `bytes` becomes base64 in JSON, as Go's encoding/json does. */
export type ScalarType = "string" | "bytes" | "int32" | "int64" | "bool" | "double";

/** One field of a message. */
export interface FieldSpec {
  readonly number: number;
  /** The JSON property name (the `json` tag of the Go field; "" for an inlined struct). */
  readonly json: string;
  /** A scalar, a nested message, or a `map<string, V>`. */
  readonly type: ScalarType | "message" | "map";
  /** For `message` fields: the nested message. For `map` fields with message values: the value message. */
  readonly message?: MessageSchema;
  /** For `map` fields with scalar values: the value type. */
  readonly mapValue?: ScalarType;
  readonly repeated: boolean;
  /** The Go field is a pointer: unset and zero differ, and unset is left out (or null without omitempty). */
  readonly pointer: boolean;
  /** No `omitempty`: Go writes the zero value (null for nil slices, maps and pointers). */
  readonly emit: boolean;
  /** Go 1.24's `omitzero`: a zero value (a zero Time included) is left out. */
  readonly omitzero: boolean;
  /** `json:",inline"`: the nested message's fields belong to the parent object. */
  readonly inline: boolean;
  /** The proto comment's merge markers (`listType`, `listMapKey`, `patchStrategy`, `patchMergeKey`, `mapType`). */
  readonly markers: Readonly<Record<string, string>>;
}

/** A message: its short name (`apps.v1.Deployment`) and its fields. */
export interface MessageSchema {
  readonly name: string;
  readonly fields: ReadonlyMap<number, FieldSpec>;
  /** A named Go slice (`type Verbs []string`): JSON is the array of its `items` (field 1). */
  readonly slice: boolean;
  /** Its Go type has its own MarshalJSON (Time, Quantity, RawExtension...): the decoder renders it by name. */
  readonly customJson: boolean;
  /** The Go struct embeds `metav1.TypeMeta`: `apiVersion` and `kind` are its fields too. */
  readonly typeMeta: boolean;
  /** Message-level merge markers (`structType=atomic`, `mapType=atomic`). */
  readonly markers: Readonly<Record<string, string>>;
}

const SCALARS = new Set<string>(["string", "bytes", "int32", "int64", "bool", "double"]);
const cache = new Map<string, MessageSchema>();

function parseFlags(flags: string): { set: Set<string>; markers: Record<string, string> } {
  const set = new Set<string>();
  const markers: Record<string, string> = {};
  for (const flag of flags.split(" ")) {
    if (flag === "") continue;
    const eq = flag.indexOf("=");
    if (eq < 0) set.add(flag);
    else markers[flag.slice(0, eq)] = flag.slice(eq + 1);
  }
  return { set, markers };
}

/**
 * The schema of a message by its short name, or undefined when the table has none. Schemas are built once
 * and shared; recursive messages (JSONSchemaProps) refer to themselves through a lazily filled field map.
 */
export function messageSchema(name: string): MessageSchema | undefined {
  const cached = cache.get(name);
  if (cached) return cached;
  const rows = GENERATED_MESSAGES[name];
  if (rows === undefined) return undefined;
  const fields = new Map<number, FieldSpec>();
  const own = parseFlags(GENERATED_MESSAGE_FLAGS[name] ?? "");
  const schema: MessageSchema = {
    name,
    fields,
    slice: own.set.has("slice"),
    customJson: own.set.has("customJSON"),
    typeMeta: own.set.has("typeMeta"),
    markers: own.markers,
  };
  cache.set(name, schema);
  for (const [number, json, type, flagText] of rows) {
    const { set, markers } = parseFlags(flagText);
    const base = {
      number,
      json,
      repeated: set.has("rep"),
      pointer: set.has("ptr"),
      emit: set.has("emit"),
      omitzero: set.has("omitzero"),
      inline: set.has("inline"),
      markers,
    };
    const map = /^map<string,(.+)>$/.exec(type);
    if (map) {
      const value = map[1] ?? "";
      if (SCALARS.has(value)) fields.set(number, { ...base, type: "map", mapValue: value as ScalarType });
      else fields.set(number, { ...base, type: "map", message: required(value, name) });
    } else if (SCALARS.has(type)) {
      fields.set(number, { ...base, type: type as ScalarType });
    } else {
      fields.set(number, { ...base, type: "message", message: required(type, name) });
    }
  }
  return schema;
}

function required(name: string, from: string): MessageSchema {
  const schema = messageSchema(name);
  if (!schema) throw new Error(`protobuf schema ${from} refers to ${name}, which the table lacks`);
  return schema;
}

/**
 * The meta types every group version registers (`metav1.AddToGroupVersion`): a client sends them under its own
 * group version, e.g. `DeleteOptions` of `apps/v1`.
 */
const META_KINDS: Readonly<Record<string, string>> = {
  DeleteOptions: "meta.v1.DeleteOptions",
  CreateOptions: "meta.v1.CreateOptions",
  UpdateOptions: "meta.v1.UpdateOptions",
  PatchOptions: "meta.v1.PatchOptions",
  GetOptions: "meta.v1.GetOptions",
  ListOptions: "meta.v1.ListOptions",
  WatchEvent: "meta.v1.WatchEvent",
  Status: "meta.v1.Status",
};

/** The message of an envelope's `apiVersion`/`kind`: a served kind, or a meta type under any group version. */
export function kindSchema(apiVersion: string, kind: string): MessageSchema | undefined {
  const name = GENERATED_KINDS[apiVersion]?.[kind] ?? (apiVersion !== "" ? META_KINDS[kind] : undefined);
  return name === undefined ? undefined : messageSchema(name);
}

/** Every `apiVersion/kind` the decoder knows, for error messages and tests. */
export function knownKinds(): string[] {
  return Object.entries(GENERATED_KINDS).flatMap(([apiVersion, kinds]) =>
    Object.keys(kinds).map((kind) => `${apiVersion}/${kind}`),
  );
}
