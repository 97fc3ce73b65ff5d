import { type FlowEdge, type FlowNode, flowchart } from "./flowchart.js";

/**
 * The stages of the controller data path, in the order data flows through client-go's informer machinery and as
 * README.md's "The data path" draws them (test/docs/data-path.test.ts holds the two pictures to each other).
 */
export const DATA_PATH_STAGES = [
  "apiserver",
  "ListWatch",
  "Reflector",
  "DeltaFIFO",
  "SharedIndexInformer",
  "Indexer",
  "RateLimitingQueue",
  "Workers",
] as const;

/** One stage of {@link DATA_PATH_STAGES}. */
export type DataPathStage = (typeof DATA_PATH_STAGES)[number];

/** Options of {@link dataPathFlowchart}. */
export interface DataPathOptions {
  /** Stages to highlight (e.g. the one a notebook is about): drawn in the theme's `focus` colour. */
  highlight?: DataPathStage[];
  /** A number to show under each stage, e.g. events seen or queue depth. */
  counts?: Partial<Record<DataPathStage, number>>;
}

/**
 * Box labels, long names broken in two, and edge labels only where they teach (update before notify, read, write), so the eight stages
 * fit a notebook's width at full text size (about 1,050 px drawn; JupyterLab at 1,366 px shows it unshrunk enough
 * for test/e2e/jupyterlab.test.ts's readability check).
 */
const STAGE_LABELS: Record<DataPathStage, string> = {
  apiserver: "API server",
  ListWatch: "List\nWatch",
  Reflector: "Reflector",
  DeltaFIFO: "Delta\nFIFO",
  Indexer: "Indexer",
  SharedIndexInformer: "Shared\nIndexInformer",
  RateLimitingQueue: "RateLimiting\nQueue",
  Workers: "Controller\nworkers",
};

/**
 * The controller data path (client-go's informer -> workqueue -> worker loop) as a flowchart, optionally with
 * live counts and highlighted stages: list+watch feeds the Reflector, which queues deltas in the DeltaFIFO; the
 * informer pops them, updates its Indexer first and then notifies its handlers (as client-go's HandleDeltas
 * does), which enqueue keys; workers read the cache and write back through the API. The Indexer -> workers edge
 * points the way the data goes (workers read the cache, README draws the call the other way).
 */
export function dataPathFlowchart(options: DataPathOptions = {}): string {
  return flowchart({ direction: "LR", ...dataPathGraph(options) });
}

/** The nodes and edges {@link dataPathFlowchart} draws, for tests that compare them with README's diagram. */
export function dataPathGraph(options: DataPathOptions = {}): { nodes: FlowNode[]; edges: FlowEdge[] } {
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
    { from: "apiserver", to: "ListWatch" },
    { from: "ListWatch", to: "Reflector" },
    { from: "Reflector", to: "DeltaFIFO" },
    { from: "DeltaFIFO", to: "SharedIndexInformer" },
    { from: "SharedIndexInformer", to: "Indexer", label: "1. update" },
    { from: "SharedIndexInformer", to: "RateLimitingQueue", label: "2. key" },
    { from: "RateLimitingQueue", to: "Workers" },
    { from: "Indexer", to: "Workers", label: "read", dashed: true },
    { from: "Workers", to: "apiserver", label: "write" },
  ];
  return { nodes, edges };
}
