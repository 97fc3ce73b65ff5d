import { mermaidFrontMatter } from "./front-matter.js";
import { mermaidId, mermaidLabel } from "./mermaid-text.js";
import { FLOWCHART_LAYOUT, type StateName, stateClassDef } from "./theme.js";

/** Node shapes used in the workbook's pictures: a process box, a store (cylinder) or a decision. */
export type FlowShape = "box" | "store" | "round";

/** A node of a {@link flowchart}. `id` may be any text; it is sanitised. */
export interface FlowNode {
  id: string;
  label?: string;
  shape?: FlowShape;
  /** Colour with meaning from the theme's {@link PALETTE}: `converged`, `diverged`, `error`... */
  state?: StateName;
  /** Shorthand for `state: "focus"`: "this is where we are" (thick border, yellow fill). */
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

function nodeState(node: FlowNode): StateName | undefined {
  return node.state ?? (node.highlight ? "focus" : undefined);
}

/**
 * Mermaid source of a flowchart, in the theme's compact layout ({@link FLOWCHART_LAYOUT}), with a `classDef`
 * for each state its nodes use. Edges may only reference declared nodes (a typo would otherwise draw a stray
 * box): an unknown id is an error.
 */
export function flowchart(spec: FlowchartSpec): string {
  const ids = new Set(spec.nodes.map((n) => n.id));
  const lines = [
    ...mermaidFrontMatter({ flowchart: FLOWCHART_LAYOUT }),
    `flowchart ${spec.direction ?? "LR"}`,
  ];
  for (const node of spec.nodes) lines.push(`  ${nodeText(node)}`);
  for (const edge of spec.edges) {
    for (const end of [edge.from, edge.to]) {
      if (!ids.has(end)) throw new Error(`flowchart: edge refers to unknown node "${end}"`);
    }
    const arrow = edge.dashed ? "-.->" : "-->";
    const label = edge.label ? `|${mermaidLabel(edge.label)}|` : "";
    lines.push(`  ${mermaidId(edge.from)} ${arrow}${label} ${mermaidId(edge.to)}`);
  }
  const byState = new Map<StateName, string[]>();
  for (const node of spec.nodes) {
    const state = nodeState(node);
    if (state) byState.set(state, [...(byState.get(state) ?? []), mermaidId(node.id)]);
  }
  for (const [state, members] of byState) {
    lines.push(`  ${stateClassDef(state)}`, `  class ${members.join(",")} ${state}`);
  }
  return `${lines.join("\n")}\n`;
}
