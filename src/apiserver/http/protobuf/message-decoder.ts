/**
 * Schema-driven protobuf -> JSON decoding: what gogo-protobuf's `Unmarshal` followed by encoding/json's
 * `Marshal` produce in kube-apiserver, done in one pass. Zero values gogo writes for non-pointer fields are
 * dropped as `omitempty` drops them; pointer fields keep a zero; empty messages stay `{}` (Go never omits
 * structs); a zero Time is null, as Go marshals it. A field number the schema does not know is never
 * skipped: it raises {@link UnknownProtobufFieldError}, so no data is silently lost.
 */
import type { FieldSpec, MessageSchema } from "./message-schema.js";
import {
  IntOrStringMessage,
  intOrStringJson,
  QuantityMessage,
  quantityJson,
  Timestamp,
  timestampJson,
} from "./value-types.js";
import { MalformedProtobufError, ProtoReader, WireType } from "./wire-reader.js";

/** Messages nested deeper than this are refused (a Deployment's resource Quantity sits 8 deep; never unbounded). */
export const MAX_NESTING_DEPTH = 32;

/** The body carries a field this decoder does not know: refused (415) instead of dropped. */
export class UnknownProtobufFieldError extends Error {
  override readonly name = "UnknownProtobufFieldError";
  constructor(
    readonly messageName: string,
    readonly field: number,
    readonly path: string,
  ) {
    super(
      `field ${field} of ${messageName} (at ${path}) is not known to the embedded API server's protobuf decoder`,
    );
  }
}

/** Options of {@link decodeMessage}. */
export interface DecodeMessageOptions {
  /** Maximum message nesting depth; default {@link MAX_NESTING_DEPTH}. */
  maxDepth?: number;
  /** Path prefix used in error messages; default the schema's name. */
  path?: string;
}

/**
 * Decodes one protobuf message into its JSON object. Throws MalformedProtobufError for bad wire data and
 * UnknownProtobufFieldError for a field number the schema lacks.
 */
export function decodeMessage(
  bytes: Uint8Array,
  schema: MessageSchema,
  options: DecodeMessageOptions = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  decodeInto(bytes, schema, 1, options.maxDepth ?? MAX_NESTING_DEPTH, options.path ?? schema.name, out);
  return out;
}

function decodeInto(
  bytes: Uint8Array,
  schema: MessageSchema,
  depth: number,
  maxDepth: number,
  path: string,
  out: Record<string, unknown>,
): void {
  if (depth > maxDepth)
    throw new MalformedProtobufError(`messages nested more than ${maxDepth} levels deep at ${path}`);
  const reader = new ProtoReader(bytes);
  while (!reader.done()) {
    const { field, wireType } = reader.key();
    const spec = schema.fields[field];
    if (spec === undefined) throw new UnknownProtobufFieldError(schema.name, field, path);
    const expected = isVarintType(spec) ? WireType.Varint : WireType.LengthDelimited;
    if (wireType !== expected) {
      throw new MalformedProtobufError(
        `field ${field} (${spec.json}) of ${schema.name} has wire type ${wireType}, expected ${expected}`,
      );
    }
    const at = `${path}.${spec.json}`;
    if (spec.type === "map") {
      const [key, value] = mapEntry(reader.lengthDelimited(), spec, depth + 1, maxDepth, at);
      const target = objectAt(out, spec.json);
      // defineProperty, not assignment: a "__proto__" key must stay plain data, as it does in JSON.parse.
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    } else if (spec.type === "message") {
      const nested = spec.message as MessageSchema;
      const bytes = reader.lengthDelimited();
      if (spec.repeated) {
        const item: Record<string, unknown> = {};
        decodeInto(bytes, nested, depth + 1, maxDepth, at, item);
        listAt(out, spec.json).push(item);
      } else {
        // A repeated occurrence of a singular message merges into the first, as protobuf specifies.
        decodeInto(bytes, nested, depth + 1, maxDepth, at, objectAt(out, spec.json));
      }
    } else {
      const value = scalar(reader, spec, depth + 1, maxDepth, at);
      if (spec.repeated) listAt(out, spec.json).push(value);
      else if (spec.presence !== "pointer" && isZero(value)) delete out[spec.json];
      else out[spec.json] = value;
    }
  }
}

/** The array at `out[key]`, created on first use. */
function listAt(out: Record<string, unknown>, key: string): unknown[] {
  const existing = out[key];
  if (Array.isArray(existing)) return existing;
  const list: unknown[] = [];
  out[key] = list;
  return list;
}

/** The object at `out[key]`, created on first use. */
function objectAt(out: Record<string, unknown>, key: string): Record<string, unknown> {
  const existing = out[key];
  if (typeof existing === "object" && existing !== null && !Array.isArray(existing)) {
    return existing as Record<string, unknown>;
  }
  const created: Record<string, unknown> = {};
  out[key] = created;
  return created;
}

function isVarintType(spec: FieldSpec): boolean {
  return spec.type === "int32" || spec.type === "int64" || spec.type === "bool";
}

function isZero(value: unknown): boolean {
  return value === "" || value === 0 || value === false;
}

/** Reads a scalar or value-type field (a zero Time reads as null, as Go marshals it). */
function scalar(
  reader: ProtoReader,
  spec: FieldSpec,
  depth: number,
  maxDepth: number,
  path: string,
): unknown {
  switch (spec.type) {
    case "string":
      return reader.string();
    case "bytes":
      return Buffer.from(reader.lengthDelimited()).toString("base64");
    case "bool":
      return reader.varint() !== 0n;
    case "int32":
      return Number(BigInt.asIntN(32, reader.varint()));
    case "int64": {
      const value = BigInt.asIntN(64, reader.varint());
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
        throw new MalformedProtobufError(`int64 ${value} at ${path} is beyond JSON's safe integer range`);
      }
      return Number(value);
    }
    case "time":
    case "microTime": {
      const decoded = decodeNested(reader.lengthDelimited(), Timestamp, depth, maxDepth, path);
      return timestampJson(decoded, spec.type === "microTime");
    }
    case "intOrString":
      return intOrStringJson(
        decodeNested(reader.lengthDelimited(), IntOrStringMessage, depth, maxDepth, path),
      );
    case "quantity":
      return quantityJson(decodeNested(reader.lengthDelimited(), QuantityMessage, depth, maxDepth, path));
    default:
      throw new MalformedProtobufError(`field ${spec.json} has no scalar decoding`);
  }
}

function decodeNested(
  bytes: Uint8Array,
  schema: MessageSchema,
  depth: number,
  maxDepth: number,
  path: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  decodeInto(bytes, schema, depth, maxDepth, path, out);
  return out;
}

/** One `map<string, V>` entry: a message with key=1 and value=2; missing parts are the zero value. */
function mapEntry(
  bytes: Uint8Array,
  spec: FieldSpec,
  depth: number,
  maxDepth: number,
  path: string,
): [string, unknown] {
  const valueSpec: FieldSpec = { json: "value", type: spec.mapValue ?? "string" };
  const reader = new ProtoReader(bytes);
  let key = "";
  let value: unknown = "";
  while (!reader.done()) {
    const { field, wireType } = reader.key();
    if ((field !== 1 && field !== 2) || wireType !== WireType.LengthDelimited) {
      throw new MalformedProtobufError(`map entry of ${path} has field ${field} with wire type ${wireType}`);
    }
    if (field === 1) key = reader.string();
    else value = scalar(reader, valueSpec, depth, maxDepth, `${path}[${JSON.stringify(key)}]`);
  }
  return [key, value];
}
