/**
 * The controller pipeline in one picture: informer notifications -> workqueue keys -> the worker's reconcile ->
 * the objects it keeps in line, each object coloured by where it stands. It is sample-controller's
 * `docs/controller-client-go.md` diagram drawn from running state, so a notebook can redraw it in place after
 * every create, update, delete, worker step and resync.
 */
import { mermaidFrontMatter } from "./front-matter.js";
import { mermaidId, mermaidLabel } from "./mermaid-text.js";
import { FLOWCHART_LAYOUT, type StateName, stateClassDef } from "./theme.js";

/** Where an object stands, in the palette's words (the pipeline uses four of them). */
export type PipelineObjectState = Extract<StateName, "converged" | "diverged" | "created" | "active">;

/** One object the controller manages: its key, desired and actual counts, and its state. */
export interface PipelineObject {
  readonly key: string;
  /** What the spec asks for (e.g. `spec.replicas`). */
  readonly desired: number;
  /** What exists (e.g. child ConfigMaps). */
  readonly actual: number;
  readonly state: PipelineObjectState;
}

/** What {@link pipelineDiagram} draws. */
export interface PipelineSnapshot {
  /** The informer's latest notifications, oldest first (`ADDED ns/a`, `MODIFIED ns/b`...). */
  readonly events: readonly string[];
  /** Keys in the workqueue, in FIFO order. */
  readonly queue: readonly string[];
  /** Keys a worker holds right now. */
  readonly processing?: readonly string[];
  /** The last reconcile, one line (`ns/a: created 2, deleted 0`). */
  readonly lastReconcile?: string;
  readonly objects: readonly PipelineObject[];
}

/** Options of {@link pipelineDiagram}. */
export interface PipelineDiagramOptions {
  /** How many of the latest events to show (default 4). */
  maxEvents?: number;
  /** How many queued keys to show before "+N more" (default 5). */
  maxKeys?: number;
}

/**
 * The state of a managed object from what the controller knows: `active` while a worker reconciles it,
 * `created` when it was just added and no reconcile has run for it yet, `diverged` when its key waits in the
 * queue or desired and actual differ, else `converged`.
 */
export function pipelineObjectState(o: {
  desired: number;
  actual: number;
  queued: boolean;
  processing?: boolean;
  reconciledOnce?: boolean;
}): PipelineObjectState {
  if (o.processing) return "active";
  if (o.reconciledOnce === false) return "created";
  if (o.queued || o.desired !== o.actual) return "diverged";
  return "converged";
}

function box(id: string, text: string): string {
  return `    ${mermaidId(id)}[${mermaidLabel(text)}]`;
}

/**
 * Mermaid flowchart, left to right: `informer` (latest notifications) -> `workqueue` (keys, orange: work
 * waits) -> `worker` (the key being reconciled in teal, and the last reconcile's outcome) -> `objects` (each
 * with `desired / actual`, coloured converged, diverged, created or active from the theme's PALETTE), and a
 * dashed edge back: what the worker writes comes round again as watch events.
 */
export function pipelineDiagram(snap: PipelineSnapshot, options: PipelineDiagramOptions = {}): string {
  const maxEvents = options.maxEvents ?? 4;
  const maxKeys = options.maxKeys ?? 5;
  if (!(Number.isInteger(maxEvents) && maxEvents >= 1)) throw new RangeError("maxEvents must be >= 1");
  if (!(Number.isInteger(maxKeys) && maxKeys >= 1)) throw new RangeError("maxKeys must be >= 1");
  const lines = [...mermaidFrontMatter({ flowchart: FLOWCHART_LAYOUT }), "flowchart LR"];
  const byState = new Map<StateName, string[]>();
  const paint = (state: StateName, id: string) => byState.set(state, [...(byState.get(state) ?? []), id]);

  const events = snap.events.slice(-maxEvents);
  lines.push(`  subgraph informer[${mermaidLabel(`informer: last ${events.length} events`)}]`);
  lines.push("    direction TB");
  if (events.length === 0) lines.push(box("informer_empty", "(no events yet)"));
  events.forEach((e, i) => {
    lines.push(box(`informer_${i}`, e));
  });
  lines.push("  end");

  lines.push(`  subgraph workqueue[${mermaidLabel(`workqueue: ${snap.queue.length} keys`)}]`);
  lines.push("    direction TB");
  if (snap.queue.length === 0) lines.push(box("workqueue_empty", "(empty)"));
  snap.queue.slice(0, maxKeys).forEach((k, i) => {
    lines.push(box(`workqueue_${i}`, k));
    paint("diverged", `workqueue_${i}`);
  });
  if (snap.queue.length > maxKeys) lines.push(box("workqueue_more", `+${snap.queue.length - maxKeys} more`));
  lines.push("  end");

  const processing = snap.processing ?? [];
  lines.push(`  subgraph worker[${mermaidLabel("worker: reconcile")}]`);
  lines.push("    direction TB");
  if (processing.length === 0) lines.push(box("worker_idle", "idle"));
  processing.forEach((k, i) => {
    lines.push(box(`worker_${i}`, `reconciling ${k}`));
    paint("active", `worker_${i}`);
  });
  if (snap.lastReconcile) lines.push(box("worker_last", `last: ${snap.lastReconcile}`));
  lines.push("  end");

  lines.push(`  subgraph objects[${mermaidLabel("objects: desired / actual")}]`);
  lines.push("    direction TB");
  if (snap.objects.length === 0) lines.push(box("objects_empty", "(none)"));
  snap.objects.forEach((o, i) => {
    lines.push(box(`objects_${i}`, `${o.key}\n${o.desired} / ${o.actual}\n${o.state}`));
    paint(o.state, `objects_${i}`);
  });
  lines.push("  end");

  lines.push(
    `  informer -->|${mermaidLabel("add key")}| workqueue`,
    `  workqueue -->|${mermaidLabel("get")}| worker`,
    `  worker -->|${mermaidLabel("create / delete")}| objects`,
    `  objects -.->|${mermaidLabel("watch events")}| informer`,
  );
  for (const [state, ids] of byState)
    lines.push(`  ${stateClassDef(state)}`, `  class ${ids.join(",")} ${state}`);
  return `${lines.join("\n")}\n`;
}
