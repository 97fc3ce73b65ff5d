import { mermaidId, mermaidLabel } from "./mermaid-text.js";

/** Node shapes used in the workbook's pictures: a process box, a store (cylinder) or a decision. */
export type FlowShape = "box" | "store" | "round";

/** A node of a {@link flowchart}. `id` may be any text; it is sanitised. */
export interface FlowNode {
  id: string;
  label?: string;
  shape?: FlowShape;
  /** Drawn highlighted (thicker border, warm fill): "this is where we are". */
  highlight?: boolean;
}

/** An edge of a {@link flowchart}; `dashed` for control (not data) flow, such as leader election gating. */
export interface FlowEdge {
  from: string;
  to: string;
  label?: string;
  dashed?: boolean;
}

/** A whole flowchart: direction (LR = left to right, TD = top down), nodes and edges. */
export interface FlowchartSpec {
  direction?: "LR" | "TD";
  nodes: FlowNode[];
  edges: FlowEdge[];
}

function nodeText(node: FlowNode): string {
  const label = mermaidLabel(node.label ?? node.id);
  const id = mermaidId(node.id);
  if (node.shape === "store") return `${id}[(${label})]`;
  if (node.shape === "round") return `${id}(${label})`;
  return `${id}[${label}]`;
}

/**
 * Mermaid source of a flowchart. Edges may only reference declared nodes (a typo would otherwise draw a
 * stray box): an unknown id is an error.
 */
export function flowchart(spec: FlowchartSpec): string {
  const ids = new Set(spec.nodes.map((n) => n.id));
  const lines = [`flowchart ${spec.direction ?? "LR"}`];
  for (const node of spec.nodes) lines.push(`  ${nodeText(node)}`);
  for (const edge of spec.edges) {
    for (const end of [edge.from, edge.to]) {
      if (!ids.has(end)) throw new Error(`flowchart: edge refers to unknown node "${end}"`);
    }
    const arrow = edge.dashed ? "-.->" : "-->";
    const label = edge.label ? `|${mermaidLabel(edge.label)}|` : "";
    lines.push(`  ${mermaidId(edge.from)} ${arrow}${label} ${mermaidId(edge.to)}`);
  }
  const hot = spec.nodes.filter((n) => n.highlight).map((n) => mermaidId(n.id));
  if (hot.length > 0) {
    lines.push("  classDef hot fill:#ffe8b0,stroke:#d08000,stroke-width:3px", `  class ${hot.join(",")} hot`);
  }
  return `${lines.join("\n")}\n`;
}

/** The stages of the controller data path, as drawn in README.md and DESIGN.md. */
export const DATA_PATH_STAGES = [
  "apiserver",
  "ListWatch",
  "Reflector",
  "Indexer",
  "SharedIndexInformer",
  "RateLimitingQueue",
  "Workers",
] as const;

/** One stage of {@link DATA_PATH_STAGES}. */
export type DataPathStage = (typeof DATA_PATH_STAGES)[number];

/** Options of {@link dataPathFlowchart}. */
export interface DataPathOptions {
  /** Stages to highlight (e.g. the one a notebook is about). */
  highlight?: DataPathStage[];
  /** A number to show under each stage, e.g. events seen or queue depth. */
  counts?: Partial<Record<DataPathStage, number>>;
}

const STAGE_LABELS: Record<DataPathStage, string> = {
  apiserver: "API server",
  ListWatch: "ListWatch",
  Reflector: "Reflector",
  Indexer: "Indexer",
  SharedIndexInformer: "SharedIndexInformer",
  RateLimitingQueue: "RateLimitingQueue",
  Workers: "Controller workers",
};

/**
 * The controller data path (client-go's informer -> workqueue -> worker loop) as a flowchart, optionally with
 * live counts and highlighted stages: list+watch feeds the Reflector, which fills the Indexer and notifies the
 * informer's handlers; handlers enqueue keys; workers read the cache and write back through the API.
 */
export function dataPathFlowchart(options: DataPathOptions = {}): string {
  const highlight = new Set(options.highlight ?? []);
  const nodes: FlowNode[] = DATA_PATH_STAGES.map((stage) => {
    const count = options.counts?.[stage];
    return {
      id: stage,
      label: count === undefined ? STAGE_LABELS[stage] : `${STAGE_LABELS[stage]}\n${count}`,
      shape: stage === "Indexer" || stage === "apiserver" ? "store" : "box",
      highlight: highlight.has(stage),
    };
  });
  const edges: FlowEdge[] = [
    { from: "apiserver", to: "ListWatch", label: "HTTP list + watch" },
    { from: "ListWatch", to: "Reflector" },
    { from: "Reflector", to: "Indexer" },
    { from: "Reflector", to: "SharedIndexInformer" },
    { from: "SharedIndexInformer", to: "RateLimitingQueue", label: "namespace/name" },
    { from: "RateLimitingQueue", to: "Workers" },
    { from: "Workers", to: "Indexer", label: "read", dashed: true },
    { from: "Workers", to: "apiserver", label: "write via client-node" },
  ];
  return flowchart({ direction: "LR", nodes, edges });
}
