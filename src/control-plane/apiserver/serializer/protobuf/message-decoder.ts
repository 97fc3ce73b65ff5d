/**
 * Schema-driven protobuf -> JSON decoding: what kube-apiserver's generated `Unmarshal` followed by Go's
 * encoding/json `Marshal` produce, in one pass, so a protobuf body becomes exactly the JSON a Go client would
 * have sent for the same object. Per field, Go's rules: a nil pointer, slice or map is left out with
 * `omitempty` and `null` without it; a zero scalar is left out with `omitempty`; a struct is never left out
 * (`{}` when empty) unless `omitzero` and zero; an inlined struct's fields join the parent. Types with their
 * own MarshalJSON (Time, Quantity, IntOrString, RawExtension, JSON schema unions...) are rendered by name.
 *
 * Like kube-apiserver, fields the schema does not know (a newer client's additions) are skipped, after their
 * wire format is checked. Bad wire data raises {@link MalformedProtobufError}.
 */

import { findNestingPastLimit, MAX_BODY_DEPTH } from "../../json.js";
import type { FieldSpec, MessageSchema, ScalarType } from "../../schema/message-schema.js";
import { goDurationString } from "./go-duration.js";
import { intOrStringJson, timestampJson } from "./value-types.js";
import { MalformedProtobufError, ProtoReader, WireType, type WireTypeNumber } from "./wire-reader.js";

/** Messages nested deeper than this are refused (a CRD's deep structural schema needs about 2 per level). */
export const MAX_NESTING_DEPTH = 100;

/** Options of {@link decodeMessage}. */
export interface DecodeMessageOptions {
  /** Maximum message nesting depth; default {@link MAX_NESTING_DEPTH}. */
  maxDepth?: number;
  /** Path prefix used in error messages; default the schema's name. */
  path?: string;
}

/** One field's occurrences on the wire: varints as bigints, length-delimited values as bytes. */
type Occurrence = bigint | Uint8Array;

interface Context {
  readonly maxDepth: number;
}

const EMPTY = new Uint8Array(0);
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes one message into its JSON value (an object for ordinary messages). Throws MalformedProtobufError for
 * bad wire data, values Go would refuse (an out-of-range time) or JSON that does not parse in a raw field.
 */
export function decodeMessage(
  bytes: Uint8Array,
  schema: MessageSchema,
  options: DecodeMessageOptions = {},
): unknown {
  return render(bytes, schema, 1, options.path ?? schema.name, {
    maxDepth: options.maxDepth ?? MAX_NESTING_DEPTH,
  });
}

/** Reads a message's fields: occurrences per known field number; unknown fields are checked and skipped. */
function collect(bytes: Uint8Array, schema: MessageSchema, path: string): Map<number, Occurrence[]> {
  const found = new Map<number, Occurrence[]>();
  const reader = new ProtoReader(bytes);
  while (!reader.done()) {
    const { field, wireType } = reader.key();
    const spec = schema.fields.get(field);
    if (spec === undefined) {
      reader.skip(wireType);
      continue;
    }
    const list = found.get(field) ?? [];
    found.set(field, list);
    readOccurrence(reader, spec, wireType, schema, path, list);
  }
  return found;
}

function readOccurrence(
  reader: ProtoReader,
  spec: FieldSpec,
  wireType: WireTypeNumber,
  schema: MessageSchema,
  path: string,
  list: Occurrence[],
): void {
  const expected = expectedWireType(spec);
  if (wireType === expected) {
    if (expected === WireType.Varint) list.push(reader.varint());
    else if (expected === WireType.Fixed64) list.push(reader.fixed64());
    else list.push(reader.lengthDelimited());
    return;
  }
  // A repeated number may also come packed: one length-delimited run of values.
  if (spec.repeated && wireType === WireType.LengthDelimited && expected !== WireType.LengthDelimited) {
    const packed = new ProtoReader(reader.lengthDelimited());
    while (!packed.done()) list.push(expected === WireType.Varint ? packed.varint() : packed.fixed64());
    return;
  }
  throw new MalformedProtobufError(
    `field ${spec.number} (${spec.json || "inline"}) of ${schema.name} at ${path} has wire type ${wireType}, expected ${expected}`,
  );
}

function expectedWireType(spec: FieldSpec): WireTypeNumber {
  if (spec.type === "int32" || spec.type === "int64" || spec.type === "bool") return WireType.Varint;
  if (spec.type === "double") return WireType.Fixed64;
  return WireType.LengthDelimited;
}

/** Renders one message (absent = the Go zero value) as Go's encoding/json would write it. */
function render(
  bytes: Uint8Array | undefined,
  schema: MessageSchema,
  depth: number,
  path: string,
  ctx: Context,
): unknown {
  if (depth > ctx.maxDepth) {
    throw new MalformedProtobufError(`messages nested more than ${ctx.maxDepth} levels deep at ${path}`);
  }
  const found = collect(bytes ?? EMPTY, schema, path);
  if (schema.customJson) return renderCustom(schema, found, depth, path, ctx);
  if (schema.slice) {
    const items = schema.fields.get(1);
    const value = items ? fieldValue(items, found.get(1), depth, path, ctx) : OMIT;
    return value === OMIT ? null : value;
  }
  const out: Record<string, unknown> = {};
  renderFields(schema, found, out, depth, path, ctx);
  return out;
}

const OMIT = Symbol("omit");

function renderFields(
  schema: MessageSchema,
  found: Map<number, Occurrence[]>,
  out: Record<string, unknown>,
  depth: number,
  path: string,
  ctx: Context,
): void {
  const specs = [...schema.fields.values()].sort((a, b) => a.number - b.number);
  for (const spec of specs) {
    const at = `${path}.${spec.json || spec.message?.name || spec.number}`;
    if (spec.inline && spec.message) {
      const nested = render(concat(found.get(spec.number)), spec.message, depth + 1, at, ctx);
      if (isObject(nested)) for (const [k, v] of Object.entries(nested)) define(out, k, v);
      continue;
    }
    const value = fieldValue(spec, found.get(spec.number), depth, at, ctx);
    if (value !== OMIT) define(out, spec.json, value);
  }
}

/** The JSON value of one field, or OMIT when Go leaves it out. */
function fieldValue(
  spec: FieldSpec,
  occurrences: Occurrence[] | undefined,
  depth: number,
  path: string,
  ctx: Context,
): unknown {
  const present = occurrences !== undefined && occurrences.length > 0;
  const absent = () => (spec.emit ? null : OMIT);
  if (spec.type === "map") {
    if (!present) return absent();
    const map: Record<string, unknown> = {};
    for (const entry of occurrences)
      define(map, ...mapEntry(entry as Uint8Array, spec, depth + 1, path, ctx));
    return map;
  }
  if (spec.repeated || spec.type === "bytes") {
    // Slices, and []byte, are nil when absent.
    if (!present) return absent();
    if (spec.type === "bytes" && !spec.repeated) {
      const b64 = Buffer.from(occurrences.at(-1) as Uint8Array).toString("base64");
      return b64 === "" && !spec.emit ? OMIT : b64;
    }
    return occurrences.map((o, i) => single(spec, o, depth, `${path}[${i}]`, ctx));
  }
  if (spec.type === "message") {
    if (spec.pointer && !present) return absent();
    const value = render(
      present ? concat(occurrences) : undefined,
      spec.message as MessageSchema,
      depth + 1,
      path,
      ctx,
    );
    return spec.omitzero && isZero(value) ? OMIT : value;
  }
  if (!present) return spec.pointer ? absent() : spec.emit ? zeroOf(spec.type) : OMIT;
  const value = single(spec, occurrences.at(-1) as Occurrence, depth, path, ctx);
  if (!spec.pointer && !spec.emit && isZero(value)) return OMIT;
  if (spec.omitzero && isZero(value)) return OMIT;
  return value;
}

/**
 * The JSON Go's encoding/json writes for a field its struct leaves at the zero value, or undefined when Go
 * leaves the field out (what an absent protobuf field renders as). Used to write JSON objects as Go would.
 */
export function zeroFieldJson(spec: FieldSpec): unknown {
  const value = fieldValue(spec, undefined, 1, spec.json, { maxDepth: MAX_NESTING_DEPTH });
  return value === OMIT ? undefined : value;
}

/** One value of a field (one element of a repeated field). */
function single(spec: FieldSpec, o: Occurrence, depth: number, path: string, ctx: Context): unknown {
  if (spec.type === "message")
    return render(o as Uint8Array, spec.message as MessageSchema, depth + 1, path, ctx);
  return scalar(spec.type as ScalarType, o, path);
}

function scalar(type: ScalarType, o: Occurrence, path: string): unknown {
  switch (type) {
    case "string":
      return text(o as Uint8Array, path);
    case "bytes":
      return Buffer.from(o as Uint8Array).toString("base64");
    case "bool":
      return (o as bigint) !== 0n;
    case "int32":
      return Number(BigInt.asIntN(32, o as bigint));
    case "int64": {
      const value = BigInt.asIntN(64, o as bigint);
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw new MalformedProtobufError(`int64 ${value} at ${path} is beyond JSON's safe integer range`);
      }
      return Number(value);
    }
    case "double": {
      const view = new DataView(new ArrayBuffer(8));
      view.setBigUint64(0, o as bigint, true);
      const value = view.getFloat64(0, true);
      if (!Number.isFinite(value))
        throw new MalformedProtobufError(`double ${value} at ${path} has no JSON form`);
      return value;
    }
  }
}

function text(bytes: Uint8Array, path: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new MalformedProtobufError(`invalid UTF-8 in a string at ${path}`);
  }
}

function zeroOf(type: ScalarType): unknown {
  if (type === "string") return "";
  if (type === "bool") return false;
  return 0;
}

/** One `map<string, V>` entry: key=1, value=2; a missing part is its zero value. */
function mapEntry(
  bytes: Uint8Array,
  spec: FieldSpec,
  depth: number,
  path: string,
  ctx: Context,
): [string, unknown] {
  const reader = new ProtoReader(bytes);
  let key = "";
  let value: Occurrence | undefined;
  while (!reader.done()) {
    const { field, wireType } = reader.key();
    if (field === 1 && wireType === WireType.LengthDelimited) key = text(reader.lengthDelimited(), path);
    else if (field === 2) {
      const expected = spec.message
        ? WireType.LengthDelimited
        : expectedWireType({ ...spec, type: spec.mapValue ?? "string" });
      if (wireType !== expected) {
        throw new MalformedProtobufError(
          `map entry of ${path} has value wire type ${wireType}, expected ${expected}`,
        );
      }
      value =
        expected === WireType.Varint
          ? reader.varint()
          : expected === WireType.Fixed64
            ? reader.fixed64()
            : reader.lengthDelimited();
    } else reader.skip(wireType);
  }
  const at = `${path}[${JSON.stringify(key)}]`;
  if (spec.message) return [key, render(value as Uint8Array | undefined, spec.message, depth + 1, at, ctx)];
  const type = spec.mapValue ?? "string";
  if (value === undefined) return [key, type === "bytes" ? "" : zeroOf(type)];
  return [key, scalar(type, value, at)];
}

/** Joins a singular message field's occurrences: protobuf merges them, and concatenation is that merge. */
function concat(occurrences: Occurrence[] | undefined): Uint8Array | undefined {
  if (occurrences === undefined || occurrences.length === 0) return undefined;
  if (occurrences.length === 1) return occurrences[0] as Uint8Array;
  return Uint8Array.from(Buffer.concat(occurrences as Uint8Array[]));
}

/** Go's zero test for omitzero/omitempty on a rendered value. */
function isZero(value: unknown): boolean {
  if (value === null || value === "" || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets a key as plain data (a `__proto__` key stays an ordinary property, as in JSON.parse). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The fields of a custom-JSON message, decoded plainly (its own field names). */
function plain(
  found: Map<number, Occurrence[]>,
  schema: MessageSchema,
  number: number,
  depth: number,
  path: string,
  ctx: Context,
): unknown {
  const spec = schema.fields.get(number);
  const o = found.get(number);
  if (!spec || !o || o.length === 0) return undefined;
  if (spec.repeated) return o.map((x, i) => single(spec, x, depth, `${path}[${i}]`, ctx));
  if (spec.type === "message") return render(concat(o), spec.message as MessageSchema, depth + 1, path, ctx);
  return scalar(spec.type as ScalarType, o.at(-1) as Occurrence, path);
}

/** Raw JSON carried in a bytes field (RawExtension, FieldsV1, apiextensions JSON): parsed, or null when empty. */
function rawJson(found: Map<number, Occurrence[]>, number: number, path: string): unknown {
  const raw = found.get(number)?.at(-1) as Uint8Array | undefined;
  if (raw === undefined || raw.length === 0) return null;
  const json = text(raw, path);
  // Bounded before parsing, as a JSON body is (http/body.ts): the decoded message is re-encoded as JSON next.
  if (findNestingPastLimit(json, MAX_BODY_DEPTH) !== undefined) {
    throw new MalformedProtobufError(
      `the raw JSON at ${path} is nested deeper than ${MAX_BODY_DEPTH} levels`,
    );
  }
  try {
    return JSON.parse(json);
  } catch (err) {
    if (err instanceof MalformedProtobufError) throw err;
    throw new MalformedProtobufError(`the raw JSON at ${path} does not parse: ${(err as Error).message}`);
  }
}

/** The JSON of the messages whose Go types have their own MarshalJSON. */
function renderCustom(
  schema: MessageSchema,
  found: Map<number, Occurrence[]>,
  depth: number,
  path: string,
  ctx: Context,
): unknown {
  const field = (n: number) => plain(found, schema, n, depth, path, ctx);
  switch (schema.name) {
    case "meta.v1.Time":
    case "meta.v1.MicroTime":
      return timestampJson({ seconds: field(1), nanos: field(2) }, schema.name === "meta.v1.MicroTime");
    case "meta.v1.Duration":
      return goDurationString(BigInt((field(1) as number | undefined) ?? 0));
    case "meta.v1.FieldsV1":
    case "apiextensions.v1.JSON":
    case "runtime.RawExtension":
      return rawJson(found, 1, path);
    case "runtime.Unknown":
      return rawJson(found, 2, path);
    case "meta.v1.GroupVersion": {
      const group = (field(1) as string | undefined) ?? "";
      const version = (field(2) as string | undefined) ?? "";
      return group === "" ? version : `${group}/${version}`;
    }
    case "util.intstr.IntOrString":
      return intOrStringJson({ type: field(1), intVal: field(2), strVal: field(3) });
    case "api.resource.Quantity":
      return (field(1) as string | undefined) || "0";
    case "apiextensions.v1.JSONSchemaPropsOrArray": {
      const many = field(2) as unknown[] | undefined;
      if (many && many.length > 0) return many;
      return field(1) ?? null;
    }
    case "apiextensions.v1.JSONSchemaPropsOrBool":
      return field(2) ?? (field(1) as boolean | undefined) ?? false;
    case "apiextensions.v1.JSONSchemaPropsOrStringArray": {
      const property = field(2) as string[] | undefined;
      if (property && property.length > 0) return property;
      return field(1) ?? null;
    }
    default:
      throw new MalformedProtobufError(`no JSON form is known for ${schema.name} at ${path}`);
  }
}

/** The messages {@link decodeMessage} renders by name (every `customJSON` message of the table must be here). */
export const CUSTOM_JSON_MESSAGES: readonly string[] = [
  "meta.v1.Time",
  "meta.v1.MicroTime",
  "meta.v1.Duration",
  "meta.v1.FieldsV1",
  "meta.v1.GroupVersion",
  "apiextensions.v1.JSON",
  "runtime.RawExtension",
  "runtime.Unknown",
  "util.intstr.IntOrString",
  "api.resource.Quantity",
  "apiextensions.v1.JSONSchemaPropsOrArray",
  "apiextensions.v1.JSONSchemaPropsOrBool",
  "apiextensions.v1.JSONSchemaPropsOrStringArray",
];
