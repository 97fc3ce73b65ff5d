/**
 * The protobuf schema generator: joins generated.proto (field numbers, types, merge markers) with the Go struct
 * tags of the same package (JSON names, omitempty, pointers, inlining) into the table the embedded API server
 * decodes `application/vnd.kubernetes.protobuf` bodies with, and renders it as a TypeScript module. Pure: the
 * caller reads the files (see ./main.ts); the same inputs always give the same text.
 */
import { type GoField, type GoPackage, parseGoPackage } from "./go-struct-tags.js";
import { type ProtoField, type ProtoFile, parseProtoFile } from "./proto-files.js";

/** One Go package of the Kubernetes API whose generated.proto is read. */
export interface ApiPackage {
  /** The Go module (`k8s.io/api`). */
  readonly module: string;
  /** The folder in the module (`apps/v1`). */
  readonly dir: string;
}

/** The packages the embedded API server decodes: the groups it serves, the meta types and their value types. */
export const API_PACKAGES: readonly ApiPackage[] = [
  ...[
    "core/v1",
    "apps/v1",
    "batch/v1",
    "autoscaling/v1",
    "autoscaling/v2",
    "rbac/v1",
    "networking/v1",
    "policy/v1",
    "discovery/v1",
    "coordination/v1",
    "events/v1",
    "scheduling/v1",
    "storage/v1",
    "node/v1",
    "certificates/v1",
    "admissionregistration/v1",
    "authentication/v1",
    "authorization/v1",
    "flowcontrol/v1",
  ].map((dir) => ({ module: "k8s.io/api", dir })),
  ...["pkg/apis/meta/v1", "pkg/runtime", "pkg/runtime/schema", "pkg/util/intstr", "pkg/api/resource"].map(
    (dir) => ({ module: "k8s.io/apimachinery", dir }),
  ),
  { module: "k8s.io/apiextensions-apiserver", dir: "pkg/apis/apiextensions/v1" },
];

/** The files of one package, as read by the caller. */
export interface PackageSources {
  readonly pkg: ApiPackage;
  /** generated.proto's text. */
  readonly proto: string;
  /** The text of the package's Go files (types, not tests or generated code). */
  readonly goFiles: readonly string[];
  /** register.go's text when the package is an API group version (`const GroupName = "apps"`). */
  readonly register?: string;
}

/**
 * One field of the table: `[number, json, type, flags]`. `type` is a scalar (`string`, `bytes`, `bool`,
 * `int32`, `int64`, `double`), a message's short name, or `map<string,V>`. `flags` is a space-separated list:
 * `rep` (repeated), `ptr` (Go pointer: a zero is meaningful), `emit` (no omitempty: Go writes the zero value),
 * `omitzero`, `inline` (the message's fields belong to the parent), and the merge markers of the proto comment
 * (`listType=map`, `listMapKey=a,b`, `patchStrategy=merge`, `patchMergeKey=name`, `mapType=atomic`, `default="TCP"`).
 */
export type FieldRow = readonly [number, string, string, string];

/** What the generator produces before rendering. */
export interface SchemaTable {
  /** Message short name → its fields. */
  readonly messages: ReadonlyMap<string, readonly FieldRow[]>;
  /** Message short name → its own flags (`slice`: a named Go slice, JSON array; `structType=atomic`). */
  readonly messageFlags: ReadonlyMap<string, string>;
  /** `apiVersion` → kind → message short name, for every object kind of every group version. */
  readonly kinds: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** The merge markers kept from proto comments. */
const KEPT_MARKERS = new Set([
  "listType",
  "listMapKey",
  "patchStrategy",
  "patchMergeKey",
  "mapType",
  "default",
]);

/** Drops the long package prefixes: `k8s.io.api.apps.v1.Deployment` → `apps.v1.Deployment`. */
export function shortName(fullName: string): string {
  return fullName
    .replace(/^k8s\.io\.api\./, "")
    .replace(/^k8s\.io\.apimachinery\.pkg\.apis\./, "")
    .replace(/^k8s\.io\.apimachinery\.pkg\./, "")
    .replace(/^k8s\.io\.apiextensions_apiserver\.pkg\.apis\./, "");
}

const SCALAR_TYPES = new Set(["string", "bytes", "bool", "int32", "int64", "double"]);

function typeOf(field: ProtoField, where: string): string {
  const value = SCALAR_TYPES.has(field.type) ? field.type : shortName(field.type);
  if (!SCALAR_TYPES.has(field.type) && !field.type.includes(".")) {
    throw new Error(`${where}: unsupported protobuf type ${field.type}`);
  }
  if (field.mapKey !== undefined) {
    if (field.mapKey !== "string") throw new Error(`${where}: map key type ${field.mapKey} is not string`);
    return `map<string,${value}>`;
  }
  return value;
}

function flagsOf(field: ProtoField, go: GoField | undefined): string {
  const flags: string[] = [];
  if (field.repeated && field.mapKey === undefined) flags.push("rep");
  if (go?.pointer) flags.push("ptr");
  if (go && !go.omitempty && !go.inline) flags.push("emit");
  if (go?.omitzero) flags.push("omitzero");
  if (go?.inline) flags.push("inline");
  const merged = new Map<string, string[]>();
  for (const [name, value] of field.markers) {
    if (!KEPT_MARKERS.has(name)) continue;
    merged.set(name, [...(merged.get(name) ?? []), value]);
  }
  for (const [name, values] of merged) flags.push(`${name}=${values.join(",")}`);
  return flags.join(" ");
}

/** `const GroupName = "apps"` → `apps`; undefined when the file declares none. */
export function groupNameOf(register: string | undefined): string | undefined {
  if (register === undefined) return undefined;
  const m = /const GroupName\s*=\s*"([^"]*)"/.exec(register);
  return m ? (m[1] ?? "") : undefined;
}

/** Builds the table from every package's sources. Throws when a field has no Go counterpart or type. */
export function buildSchemaTable(sources: readonly PackageSources[]): SchemaTable {
  const messages = new Map<string, FieldRow[]>();
  const messageFlags = new Map<string, string>();
  const kinds = new Map<string, Map<string, string>>();
  for (const src of sources) {
    const proto: ProtoFile = parseProtoFile(src.proto);
    const go: GoPackage = parseGoPackage(src.goFiles);
    const group = groupNameOf(src.register);
    const version = src.pkg.dir.split("/").at(-1) ?? "";
    const apiVersion = group === undefined ? undefined : group === "" ? version : `${group}/${version}`;
    for (const message of proto.messages) {
      const name = shortName(message.fullName);
      const goName = message.fullName.split(".").at(-1) ?? "";
      // Structs with custom marshalling (Time, MicroTime, Quantity...) have no protobuf tags: proto names stand.
      const tagged = go.structs.get(goName);
      const struct = tagged && tagged.size > 0 ? tagged : undefined;
      const rows: FieldRow[] = message.fields
        .slice()
        .sort((a, b) => a.number - b.number)
        .map((field) => {
          const where = `${name}.${field.name}`;
          const goField = struct?.get(field.number);
          if (struct && !goField)
            throw new Error(`${where}: no Go field with protobuf number ${field.number}`);
          return [
            field.number,
            goField ? goField.json : field.name,
            typeOf(field, where),
            flagsOf(field, goField),
          ];
        });
      messages.set(name, rows);
      const own: string[] = [];
      if (go.sliceTypes.has(goName)) own.push("slice");
      if (go.customJson.has(goName)) own.push("customJSON");
      if (go.typeMeta.has(goName)) own.push("typeMeta");
      for (const [marker, value] of message.markers) {
        if (marker === "structType" || marker === "mapType") own.push(`${marker}=${value}`);
      }
      if (own.length > 0) messageFlags.set(name, own.join(" "));
      const first = rows[0];
      const isObject =
        first !== undefined && first[1] === "metadata" && /^meta\.v1\.(ObjectMeta|ListMeta)$/.test(first[2]);
      if (apiVersion !== undefined && isObject) {
        const byKind = kinds.get(apiVersion) ?? new Map<string, string>();
        byKind.set(goName, name);
        kinds.set(apiVersion, byKind);
      }
    }
  }
  for (const [name, rows] of messages) {
    for (const [, json, type] of rows) {
      const ref = /^map<string,(.+)>$/.exec(type)?.[1] ?? type;
      if (!SCALAR_TYPES.has(ref) && !messages.has(ref)) {
        throw new Error(`${name}.${json}: references ${ref}, which no package in API_PACKAGES declares`);
      }
    }
  }
  return { messages, messageFlags, kinds };
}

/** Module versions the table was generated from (written into the output's header). */
export type SourceVersions = Readonly<Record<string, string>>;

/** Renders the table as the checked-in TypeScript module (stable order, one message per line). */
export function renderSchemaModule(table: SchemaTable, versions: SourceVersions): string {
  const lines: string[] = [];
  const from = Object.entries(versions)
    .map(([module, version]) => `${module}@${version}`)
    .join(", ");
  lines.push(
    "/**",
    " * Kubernetes protobuf message schemas, generated by src/control-plane/apiserver/schema/generator from the",
    ` * generated.proto files and Go struct tags of ${from}.`,
    " * Do not edit: run `npm run generate:protobuf` (test/unit/apiserver-protobuf/generated-schemas.test.ts checks",
    " * that this file is current). Field rows are `[number, json, type, flags]`; see generator/generate.ts.",
    " */",
    "",
    "/** One field: `[number, json, type, flags]`. */",
    "export type GeneratedFieldRow = readonly [number, string, string, string];",
    "",
    "/** The module versions the schemas come from. */",
    `export const SCHEMA_SOURCES: Readonly<Record<string, string>> = ${JSON.stringify(versions)};`,
    "",
    "/** apiVersion → kind → message, for every object and list kind of every group version. */",
    "export const GENERATED_KINDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {",
  );
  for (const apiVersion of [...table.kinds.keys()].sort()) {
    const byKind = table.kinds.get(apiVersion) ?? new Map<string, string>();
    const entries = [...byKind.keys()]
      .sort()
      .map((k) => `${JSON.stringify(k)}: ${JSON.stringify(byKind.get(k))}`);
    lines.push(`  ${JSON.stringify(apiVersion)}: {`);
    for (const e of entries) lines.push(`    ${e},`);
    lines.push("  },");
  }
  lines.push(
    "};",
    "",
    "/** Message flags: `slice` (a JSON array), `customJSON` (own MarshalJSON), `typeMeta` (apiVersion and kind inline), `structType=atomic`. */",
    "export const GENERATED_MESSAGE_FLAGS: Readonly<Record<string, string>> = {",
  );
  for (const name of [...table.messageFlags.keys()].sort()) {
    lines.push(`  ${JSON.stringify(name)}: ${JSON.stringify(table.messageFlags.get(name))},`);
  }
  lines.push(
    "};",
    "",
    "/** Message short name → its fields. */",
    "export const GENERATED_MESSAGES: Readonly<Record<string, readonly GeneratedFieldRow[]>> = {",
  );
  for (const name of [...table.messages.keys()].sort()) {
    lines.push(`  ${JSON.stringify(name)}: [`);
    for (const [n, json, type, flags] of table.messages.get(name) ?? []) {
      lines.push(`    [${n}, ${JSON.stringify(json)}, ${JSON.stringify(type)}, ${JSON.stringify(flags)}],`);
    }
    lines.push("  ],");
  }
  lines.push("};", "");
  return lines.join("\n");
}
