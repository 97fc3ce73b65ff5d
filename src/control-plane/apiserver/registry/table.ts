import type { KubeObject } from "../../../apimachinery/object.js";
import type { ResourceType } from "../types.js";
import { commonKindPrinters } from "./kind-printers.js";
import { column, count, field, num, type Printer, type TableColumn } from "./printer.js";

export type { Printer, TableColumn } from "./printer.js";

/** How much of each object a Table row carries (`?includeObject=`; kube-apiserver's default is Metadata). */
export type IncludeObject = "None" | "Metadata" | "Object";

/** The list metadata a Table keeps from the list it renders. */
export interface TableListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** The Table wire object kube-apiserver returns for `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`. */
export interface Table {
  kind: "Table";
  apiVersion: "meta.k8s.io/v1";
  metadata: TableListMeta;
  columnDefinitions: TableColumn[];
  rows: Array<{ cells: unknown[]; object?: unknown }>;
}

/**
 * A custom resource's printer column (`additionalPrinterColumns` of its CRD version): a simple JSONPath such as
 * `.spec.size` (dotted fields only; anything else prints as empty).
 */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

const NAME: Printer = {
  column: {
    name: "Name",
    type: "string",
    format: "name",
    description: "The object's name, unique within its namespace.",
    priority: 0,
  },
  cell: (obj) => obj.metadata?.name ?? "",
};

/**
 * The columns kube-apiserver's printers (`pkg/printers/internalversion`) show for the kinds the workbook uses
 * most, between Name and Age; every other kind (and every custom resource without printer columns) gets Name and
 * Age only, like the default table convertor.
 */
const KIND_PRINTERS: Record<string, Printer[]> = {
  namespaces: [
    {
      column: column("Status", "string", "The namespace's phase."),
      cell: (o) => field(o, "status", "phase") ?? "",
    },
  ],
  configmaps: [
    {
      column: column("Data", "string", "Number of data and binaryData keys."),
      cell: (o) => count(o.data) + count(o.binaryData),
    },
  ],
  secrets: [
    { column: column("Type", "string", "The secret's type."), cell: (o) => field(o, "type") ?? "" },
    { column: column("Data", "string", "Number of data keys."), cell: (o) => count(o.data) },
  ],
  leases: [
    {
      column: column("Holder", "string", "Identity of the lease's current holder."),
      cell: (o) => field(o, "spec", "holderIdentity") ?? "",
    },
  ],
  deployments: [
    {
      column: column("Ready", "string", "Ready replicas out of desired replicas."),
      cell: (o) => `${num(field(o, "status", "readyReplicas"))}/${num(field(o, "spec", "replicas"))}`,
    },
    {
      column: column("Up-to-date", "string", "Replicas running the current template."),
      cell: (o) => num(field(o, "status", "updatedReplicas")),
    },
    {
      column: column("Available", "string", "Replicas available to serve."),
      cell: (o) => num(field(o, "status", "availableReplicas")),
    },
  ],
};

/** The columns of a kind served from data (`kind-printers.ts`); none for custom resources. */
function kindPrinters(rt: ResourceType): Printer[] {
  return rt.custom ? [] : commonKindPrinters(`${rt.group}/${rt.resource}`);
}

/** The built-in groups whose kinds {@link KIND_PRINTERS} names (a CRD could reuse a plural elsewhere). */
const BUILTIN_GROUPS = new Set(["", "apps", "coordination.k8s.io"]);

/**
 * Renders objects as a `meta.k8s.io/v1` Table, as kube-apiserver's `TableConvertor` does for `kubectl get`:
 * Name, the kind's own columns, then Age (`HumanDuration` of creationTimestamp). Each row carries the object as
 * `includeObject` asks (`now` in epoch milliseconds, from the server's clock): nothing, its metadata as a PartialObjectMetadata (the default), or the whole object.
 * Invariant: one row per object, in the given order; cells line up with columnDefinitions.
 */
export function toTable(
  rt: ResourceType,
  objects: readonly KubeObject[],
  meta: TableListMeta,
  now: number,
  includeObject: IncludeObject = "Metadata",
  customColumns?: readonly PrinterColumn[],
): Table {
  const age: Printer = {
    column: column("Age", "string", "Time since the object was created."),
    cell: (o) => humanAge(o.metadata?.creationTimestamp, now),
  };
  const printers =
    customColumns !== undefined
      ? customResourcePrinters(customColumns, now)
      : [NAME, ...(KIND_PRINTERS[BUILTIN_GROUPS.has(rt.group) ? rt.resource : ""] ?? kindPrinters(rt)), age];
  return {
    kind: "Table",
    apiVersion: "meta.k8s.io/v1",
    metadata: meta,
    columnDefinitions: printers.map((p) => p.column),
    rows: objects.map((obj) => {
      const row: Table["rows"][number] = { cells: printers.map((p) => p.cell(obj)) };
      if (includeObject === "Object") row.object = obj;
      else if (includeObject === "Metadata") {
        row.object = {
          kind: "PartialObjectMetadata",
          apiVersion: "meta.k8s.io/v1",
          metadata: obj.metadata ?? {},
        };
      }
      return row;
    }),
  };
}

/**
 * A custom resource's columns: Name, then its CRD version's printer columns, or Age (a `date` column) when it
 * declares none, as the CRD defaulting adds. Date cells print as ages, as kube-apiserver's CR table convertor does.
 */
function customResourcePrinters(columns: readonly PrinterColumn[], now: number): Printer[] {
  const declared: readonly PrinterColumn[] =
    columns.length > 0
      ? columns
      : [
          {
            name: "Age",
            type: "date",
            description: "Time since the object was created.",
            jsonPath: ".metadata.creationTimestamp",
          },
        ];
  return [
    NAME,
    ...declared.map((c) => ({
      column: {
        name: c.name,
        type: c.type as TableColumn["type"],
        format: c.format ?? "",
        description: c.description ?? "",
        priority: c.priority ?? 0,
      },
      cell: (o: KubeObject): unknown => {
        const v = /^(\.[A-Za-z0-9_-]+)+$/.test(c.jsonPath)
          ? field(o, ...c.jsonPath.slice(1).split("."))
          : undefined;
        if (v === undefined || v === null) return null;
        if (c.type === "date") return humanAge(String(v), now);
        return v;
      },
    })),
  ];
}

function humanAge(created: string | undefined, now: number): string {
  if (!created) return "<unknown>";
  const t = Date.parse(created);
  return Number.isNaN(t) ? "<unknown>" : humanDuration(now - t);
}

/**
 * `duration.HumanDuration` from apimachinery: exact seconds under 2 minutes, minutes and seconds under 10
 * minutes, then coarser units (`3h`, `2d5h`, `1y30d`) as the age grows; a small negative skew reads `0s`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}
