import { SelectorParseError } from "./label-selector.js";

/** One term of a field selector: `field=value`, `field==value` or `field!=value`. */
export interface FieldRequirement {
  field: string;
  negate: boolean;
  value: string;
}

/**
 * A parsed field selector (apimachinery `fields.Selector`): terms ANDed together over the flat field set a
 * resource exposes (`metadata.name`, `metadata.namespace`, plus a few per kind such as `status.phase`).
 */
export class FieldSelector {
  constructor(readonly requirements: readonly FieldRequirement[]) {}

  /** True when there is nothing to check. */
  get empty(): boolean {
    return this.requirements.length === 0;
  }

  /** Whether a field set satisfies every term (a missing field reads as ""). */
  matches(fields: Readonly<Record<string, string>>): boolean {
    return this.requirements.every((r) => ((fields[r.field] ?? "") === r.value) !== r.negate);
  }
}

/** Splits on an unescaped separator; `\,` `\=` `\!` `\\` escape (apimachinery's `fields.EscapeValue`). */
function splitTerms(input: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === "\\" && i + 1 < input.length) {
      cur += c + input[i + 1];
      i++;
    } else if (c === ",") {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function unescapeValue(value: string): string {
  return value.replace(/\\(.)/g, "$1");
}

/**
 * Parses `?fieldSelector=`. Fields outside `supported` are rejected the way kube-apiserver rejects them
 * (`"X" is not a known field selector: only "metadata.name", ...`), which the backend reports as 400 BadRequest.
 */
export function parseFieldSelector(input: string | undefined, supported: readonly string[]): FieldSelector {
  if (input === undefined || input.trim() === "") return new FieldSelector([]);
  const reqs: FieldRequirement[] = [];
  for (const term of splitTerms(input)) {
    const m = /^([^=!\s]+)\s*(!=|==|=)(.*)$/s.exec(term.trim());
    if (!m) throw new SelectorParseError(`invalid selector: '${input}'; can't understand '${term}'`);
    const field = m[1]!;
    if (!supported.includes(field)) {
      const known = [...supported].sort().map((f) => JSON.stringify(f));
      throw new SelectorParseError(
        `${JSON.stringify(field)} is not a known field selector: only ${known.join(", ")}`,
      );
    }
    reqs.push({ field, negate: m[2] === "!=", value: unescapeValue(m[3]!) });
  }
  return new FieldSelector(reqs);
}
