import { badRequest, invalid, type StatusCause, type StatusError } from "../../../apimachinery/errors.js";

/**
 * Collects field errors (apimachinery's `field.ErrorList`) and turns them into one 422 Invalid Status, whose
 * causes carry the field path (`metadata.name`) and messages such as `Invalid value: "x": ...`.
 */
export class FieldErrors {
  readonly causes: StatusCause[] = [];

  /** `Required value: <detail>` (`field.Required`). */
  required(field: string, detail = ""): this {
    return this.add("FieldValueRequired", field, detail ? `Required value: ${detail}` : "Required value");
  }

  /** `Invalid value: <value>: <detail>` (`field.Invalid`). */
  invalid(field: string, value: unknown, detail: string): this {
    return this.add("FieldValueInvalid", field, `Invalid value: ${renderValue(value)}: ${detail}`);
  }

  /** `Forbidden: <detail>` (`field.Forbidden`). */
  forbidden(field: string, detail: string): this {
    return this.add("FieldValueForbidden", field, `Forbidden: ${detail}`);
  }

  /** `Duplicate value: <value>` (`field.Duplicate`). */
  duplicate(field: string, value: unknown): this {
    return this.add("FieldValueDuplicate", field, `Duplicate value: ${renderValue(value)}`);
  }

  /** `Internal error: <detail>` (`field.InternalError`). */
  internal(field: string, detail: string): this {
    return this.add("InternalError", field, `Internal error: ${detail}`);
  }

  /** `Too long: must have at most N bytes` (`field.TooLong`). */
  tooLong(field: string, max: number): this {
    return this.add("FieldValueTooLong", field, `Too long: must have at most ${max} bytes`);
  }

  /** `Unsupported value: <value>: supported values: ...` (`field.NotSupported`). */
  notSupported(field: string, value: unknown, supported: readonly string[]): this {
    const list = supported.map((s) => JSON.stringify(s)).join(", ");
    return this.add(
      "FieldValueNotSupported",
      field,
      `Unsupported value: ${renderValue(value)}: supported values: ${list}`,
    );
  }

  /** True when nothing was collected. */
  get ok(): boolean {
    return this.causes.length === 0;
  }

  /** Throws 422 Invalid for `kind`/`name` when any error was collected. */
  throwIfAny(kind: string, group: string, name: string): void {
    if (!this.ok) throw invalid(kind, group, name, this.causes);
  }

  private add(reason: string, field: string, message: string): this {
    this.causes.push({ reason, message, field });
    return this;
  }
}

/** How Go's field errors print a value: strings quoted, numbers and booleans bare, others as JSON. */
export function renderValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === undefined || value === null) return "null";
  return JSON.stringify(value);
}

/**
 * 400 BadRequest for a body that does not decode into the kind's Go type (wrong JSON types, bad base64):
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: <why>`, as kube-apiserver's decoder reports it.
 */
export function decodeError(kind: string, version: string, why: string): StatusError {
  return badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${why}`);
}
