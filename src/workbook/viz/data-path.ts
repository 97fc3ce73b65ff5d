import { type FlowEdge, type FlowNode, flowchart } from "./flowchart.js";

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
  /** Stages to highlight (e.g. the one a notebook is about): drawn in the theme's `focus` colour. */
  highlight?: DataPathStage[];
  /** A number to show under each stage, e.g. events seen or queue depth. */
  counts?: Partial<Record<DataPathStage, number>>;
}

/** Box labels, long names broken in two so the whole path fits a notebook's width at full text size. */
const STAGE_LABELS: Record<DataPathStage, string> = {
  apiserver: "API server",
  ListWatch: "ListWatch",
  Reflector: "Reflector",
  Indexer: "Indexer",
  SharedIndexInformer: "Shared\nIndexInformer",
  RateLimitingQueue: "RateLimiting\nQueue",
  Workers: "Controller\nworkers",
};

/**
 * The controller data path (client-go's informer -> workqueue -> worker loop) as a flowchart, optionally with
 * live counts and highlighted stages: list+watch feeds the Reflector, which fills the Indexer and notifies the
 * informer's handlers; handlers enqueue keys; workers read the cache and write back through the API. The
 * Indexer -> workers edge points the way the data goes (workers read the cache), which also keeps the Indexer
 * beside the informer instead of at the far end, so the picture stays about 1000 px wide.
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
    { from: "apiserver", to: "ListWatch", label: "list + watch" },
    { from: "ListWatch", to: "Reflector" },
    { from: "Reflector", to: "Indexer" },
    { from: "Reflector", to: "SharedIndexInformer" },
    { from: "SharedIndexInformer", to: "RateLimitingQueue", label: "key" },
    { from: "RateLimitingQueue", to: "Workers" },
    { from: "Indexer", to: "Workers", label: "read", dashed: true },
    { from: "Workers", to: "apiserver", label: "write" },
  ];
  return flowchart({ direction: "LR", nodes, edges });
}
