/**
 * The schema table's vocabulary: for each protobuf message, field number -> JSON name and type. It is the
 * information k8s.io/api's generated.proto files carry (field numbers) joined with the Go structs' `json` tags
 * (names, `omitempty`, pointer fields), which is what the JSON a Go client would send depends on.
 */

/** Scalar protobuf types Kubernetes objects use. `bytes` becomes base64 in JSON, as Go's encoding/json does. */
export type ScalarType = "string" | "bytes" | "int32" | "int64" | "bool";

/**
 * apimachinery's small messages that have their own JSON form: `Time` (seconds=1, nanos=2 -> RFC3339),
 * `MicroTime` (same fields, microsecond RFC3339), `IntOrString` (type=1, intVal=2, strVal=3 -> number or
 * string) and `Quantity` (string=1 -> the string).
 */
export type ValueType = "time" | "microTime" | "intOrString" | "quantity";

/**
 * How a field reaches JSON. `omitempty` (the default): a zero scalar ("" / 0 / false) is left out, as Go's
 * `json:",omitempty"` does for the zero value gogo-protobuf always writes for non-pointer fields. `pointer`:
 * the Go field is a pointer, gogo writes it only when set, so a zero on the wire is meaningful and kept
 * (`replicas: 0`, `immutable: false`).
 */
export type Presence = "omitempty" | "pointer";

/** One field of a message. */
export interface FieldSpec {
  /** The JSON property name (the `json` tag of the Go field). */
  readonly json: string;
  readonly type: ScalarType | ValueType | "message" | "map";
  /** For `message` fields: the nested message's schema. */
  readonly message?: MessageSchema;
  /** For `map` fields (repeated entry messages key=1, value=2): the value type. */
  readonly mapValue?: "string" | "bytes" | "quantity";
  readonly repeated?: boolean;
  readonly presence?: Presence;
}

/** A message: its Go/proto name (for error messages) and its fields by number. */
export interface MessageSchema {
  readonly name: string;
  readonly fields: Readonly<Record<number, FieldSpec>>;
}

/** Declares a message schema. */
export function message(name: string, fields: Record<number, FieldSpec>): MessageSchema {
  return { name, fields };
}

type Opt = { presence?: Presence };

/** A string field. */
export const str = (json: string, o: Opt = {}): FieldSpec => ({ json, type: "string", ...o });
/** A repeated string field (`[]string`). */
export const strs = (json: string): FieldSpec => ({ json, type: "string", repeated: true });
/** An int32 field. */
export const int32 = (json: string, o: Opt = {}): FieldSpec => ({ json, type: "int32", ...o });
/** An int64 field. */
export const int64 = (json: string, o: Opt = {}): FieldSpec => ({ json, type: "int64", ...o });
/** A bool field. */
export const bool = (json: string, o: Opt = {}): FieldSpec => ({ json, type: "bool", ...o });
/** A nested message field. */
export const msg = (json: string, schema: MessageSchema): FieldSpec => ({
  json,
  type: "message",
  message: schema,
});
/** A repeated nested message field (`[]T`). */
export const msgs = (json: string, schema: MessageSchema): FieldSpec => ({
  json,
  type: "message",
  message: schema,
  repeated: true,
});
/** A `map<string, V>` field. */
export const map = (json: string, value: FieldSpec["mapValue"] = "string"): FieldSpec => ({
  json,
  type: "map",
  mapValue: value,
});
/** A metav1.Time field. */
export const time = (json: string): FieldSpec => ({ json, type: "time" });
/** A metav1.MicroTime field. */
export const microTime = (json: string): FieldSpec => ({ json, type: "microTime" });
/** An intstr.IntOrString field. */
export const intOrString = (json: string, o: Opt = {}): FieldSpec => ({ json, type: "intOrString", ...o });

/** Shorthand for `{ presence: "pointer" }`. */
export const PTR: Opt = { presence: "pointer" };
