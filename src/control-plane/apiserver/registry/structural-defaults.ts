/**
 * Structural schema defaults of custom resources, as apiextensions-apiserver applies them
 * (`pkg/apiserver/schema/defaulting`): `default:` values of a CRD version's `openAPIV3Schema` fill in fields a
 * custom object leaves out, on every request body (after pruning) and on every object read from storage, so an
 * object stored before a default was added reads with it.
 *
 * - A property's default is set when the property is absent, or null while the property is not `nullable`.
 * - Defaults go only where the parent exists: `spec.replicas` is defaulted when `spec` is there (or was just
 *   defaulted itself), never by creating `spec`.
 * - Items of an array and values of an `additionalProperties` map that are null (not `nullable`) take the item
 *   schema's default; defaults then apply inside every item and value.
 * - A null that is not `nullable` and has no default is dropped before defaulting (`PruneNonNullableNullsWithoutDefaults`).
 *
 * Default values are copied, never shared between objects. The walks recurse once per level of the object; a
 * request body is at most 1,000 levels deep (`http/body.ts`), and so is every stored object.
 */
import { cloneJson, isJsonObject, type JsonObject, setOwn } from "../json.js";
import type { SchemaProps } from "../validation/openapi-schema.js";

/** A structural schema with its `default` values (the part of `JSONSchemaProps` defaulting reads). */
export type DefaultingSchema = SchemaProps;

/** Whether a schema declares a `default` anywhere (only then does reading from storage need to default). */
export function hasDefaults(schema: DefaultingSchema | undefined, depth = 0): boolean {
  if (!schema || depth > 200) return false;
  if (schema.default !== undefined) return true;
  for (const sub of Object.values(schema.properties ?? {})) {
    if (hasDefaults(sub as DefaultingSchema, depth + 1)) return true;
  }
  if (hasDefaults(schema.items as DefaultingSchema | undefined, depth + 1)) return true;
  return isJsonObject(schema.additionalProperties)
    ? hasDefaults(schema.additionalProperties as DefaultingSchema, depth + 1)
    : false;
}

function propertySchema(schema: DefaultingSchema | undefined, key: string): DefaultingSchema | undefined {
  if (!schema) return undefined;
  if (schema.properties && Object.hasOwn(schema.properties, key)) return schema.properties[key];
  return isJsonObject(schema.additionalProperties)
    ? (schema.additionalProperties as DefaultingSchema)
    : undefined;
}

/** A null the schema neither allows (`nullable`) nor can replace with a default. */
function droppableNull(value: unknown, schema: DefaultingSchema | undefined): boolean {
  return value === null && schema !== undefined && !schema.nullable && schema.default === undefined;
}

/** Drops nulls that are neither `nullable` nor defaulted, in place (`PruneNonNullableNullsWithoutDefaults`). */
export function pruneNonNullableNulls(value: unknown, schema: DefaultingSchema | undefined): void {
  if (Array.isArray(value)) {
    for (const item of value) pruneNonNullableNulls(item, schema?.items as DefaultingSchema | undefined);
  } else if (isJsonObject(value)) {
    for (const key of Object.keys(value)) {
      const sub = propertySchema(schema, key);
      if (droppableNull(value[key], sub)) delete value[key];
      else pruneNonNullableNulls(value[key], sub);
    }
  }
}

/** A null the schema does not allow, which its default (if any) replaces. */
function nonNullableNull(value: unknown, schema: DefaultingSchema | undefined): boolean {
  return value === null && schema !== undefined && !schema.nullable;
}

/** Applies the schema's defaults to `value` in place (`structuraldefaulting.Default`). */
export function applyDefaults(value: unknown, schema: DefaultingSchema | undefined): void {
  if (!schema) return;
  if (isJsonObject(value)) {
    for (const [key, prop] of Object.entries(schema.properties ?? {}) as Array<[string, DefaultingSchema]>) {
      if (prop.default === undefined) continue;
      if (!Object.hasOwn(value, key) || nonNullableNull(value[key], prop)) {
        setOwn(value, key, cloneJson(prop.default));
      }
    }
    const extra = isJsonObject(schema.additionalProperties)
      ? (schema.additionalProperties as DefaultingSchema)
      : undefined;
    for (const key of Object.keys(value)) {
      const prop =
        schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
      if (prop) applyDefaults(value[key], prop);
      else if (extra) {
        if (nonNullableNull(value[key], extra) && extra.default !== undefined) {
          setOwn(value, key, cloneJson(extra.default));
        }
        applyDefaults(value[key], extra);
      }
    }
  } else if (Array.isArray(value)) {
    const items = schema.items as DefaultingSchema | undefined;
    for (let i = 0; i < value.length; i++) {
      if (nonNullableNull(value[i], items) && items?.default !== undefined)
        value[i] = cloneJson(items.default);
      applyDefaults(value[i], items);
    }
  }
}

/** A stored custom object as a read shows it: a defaulted copy (the stored one is frozen and left alone). */
export function defaultedCopy<T>(stored: T, schema: DefaultingSchema): T {
  const copy = cloneJson(stored) as unknown as JsonObject;
  applyDefaults(copy, schema);
  return copy as T;
}
