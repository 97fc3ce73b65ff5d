/**
 * Reads the Go side of a Kubernetes API package: for every struct, its fields' `json` and `protobuf` struct tags
 * (`Replicas *int32 \`json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"\``), and the named slice
 * types (`type ExtraValue []string`) that marshal to a JSON array. generated.proto has the field numbers and wire
 * types; only the Go tags say what a field is called in JSON (`$ref`, `x-kubernetes-list-type`), whether Go's
 * encoding/json omits it when empty, and whether it is a pointer (set vs zero) or inlined into its parent.
 */

/** How one Go struct field reaches JSON. */
export interface GoField {
  /** The Go field name (the type name for an embedded field). */
  readonly goName: string;
  /** The Go type as written (`*int32`, `[]Container`, `map[string]string`, `metav1.Time`). */
  readonly goType: string;
  /** The JSON property name from the `json` tag ("" for an inlined field). */
  readonly json: string;
  readonly omitempty: boolean;
  /** Go 1.24's `omitzero`: the zero value (a zero Time included) is left out. */
  readonly omitzero: boolean;
  /** `json:",inline"`: the nested message's fields appear in the parent object. */
  readonly inline: boolean;
  /** The Go type is a pointer: nil and a zero value differ. */
  readonly pointer: boolean;
}

/** One package's Go structs: struct name → protobuf field number → field. */
export interface GoPackage {
  readonly structs: ReadonlyMap<string, ReadonlyMap<number, GoField>>;
  /** Named slice types (`type Verbs []string`): their protobuf message is `repeated items = 1`, JSON an array. */
  readonly sliceTypes: ReadonlySet<string>;
  /** Types with their own `MarshalJSON` (Time, Quantity, RawExtension...): their JSON is not their fields. */
  readonly customJson: ReadonlySet<string>;
  /** Structs embedding `metav1.TypeMeta` inline: their JSON also has `apiVersion` and `kind`. */
  readonly typeMeta: ReadonlySet<string>;
}

const TAG = /`([^`]*)`/;

/** The value of one key of a Go struct tag (`json:"a,omitempty"` → `a,omitempty`), or undefined. */
export function tagValue(tag: string, key: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${key}:"([^"]*)"`).exec(tag);
  return m?.[1];
}

/** Parses one struct field line; undefined for lines that are not fields with a protobuf tag. */
export function parseGoField(line: string): { number: number; field: GoField } | undefined {
  const tagMatch = TAG.exec(line);
  if (!tagMatch) return undefined;
  const tag = tagMatch[1] ?? "";
  const protobuf = tagValue(tag, "protobuf");
  if (protobuf === undefined) return undefined;
  const number = Number(protobuf.split(",")[1]);
  if (!Number.isInteger(number) || number <= 0) return undefined;
  const decl = line.slice(0, tagMatch.index).trim().split(/\s+/);
  const [goName, goType] = decl.length >= 2 ? [decl[0] ?? "", decl[1] ?? ""] : [decl[0] ?? "", decl[0] ?? ""];
  const json = (tagValue(tag, "json") ?? "").split(",");
  const options = new Set(json.slice(1));
  return {
    number,
    field: {
      goName: goName.replace(/^\*/, "").replace(/^\w+\./, ""),
      goType,
      json: json[0] ?? "",
      omitempty: options.has("omitempty"),
      omitzero: options.has("omitzero"),
      inline: options.has("inline"),
      pointer: goType.startsWith("*"),
    },
  };
}

/** Parses every struct and named slice type of one package's Go sources. */
export function parseGoPackage(sources: readonly string[]): GoPackage {
  const structs = new Map<string, Map<number, GoField>>();
  const sliceTypes = new Set<string>();
  const customJson = new Set<string>();
  const typeMeta = new Set<string>();
  for (const source of sources) {
    for (const m of source.matchAll(/^func \(\w+ \*?(\w+)\) MarshalJSON\(/gm)) customJson.add(m[1] ?? "");
    let current: Map<number, GoField> | undefined;
    let currentName = "";
    let depth = 0;
    for (const raw of source.split("\n")) {
      const line = raw.replace(/\/\/.*$/, "").trimEnd();
      if (current === undefined) {
        const start = /^type (\w+) struct \{$/.exec(line);
        if (start) {
          current = new Map();
          currentName = start[1] ?? "";
          structs.set(currentName, current);
          depth = 1;
          continue;
        }
        const slice = /^type (\w+) \[\][\w.*]+$/.exec(line);
        if (slice && !/^type \w+ \[\]byte$/.test(line)) sliceTypes.add(slice[1] ?? "");
        continue;
      }
      // Field tags hold no braces; anonymous nested structs would, and Kubernetes API types have none.
      depth += (line.match(/\{/g) ?? []).length - (line.match(/\}/g) ?? []).length;
      if (depth <= 0) {
        current = undefined;
        continue;
      }
      if (depth === 1 && /^\s*(?:metav1\.)?TypeMeta\s+`json:",inline"`/.test(raw)) typeMeta.add(currentName);
      const parsed = parseGoField(raw);
      if (parsed && depth === 1) current.set(parsed.number, parsed.field);
    }
  }
  return { structs, sliceTypes, customJson, typeMeta };
}
