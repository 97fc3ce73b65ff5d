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

/** Longest line of a box's free text (the last reconcile's outcome) before it breaks, in characters. */
const LINE_CHARS = 18;

/** `text` broken at spaces into lines of at most {@link LINE_CHARS} characters (a longer word keeps its line). */
function wrapWords(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= LINE_CHARS) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join("\n");
}

/**
 * The start of a stage: its subgraph, laid out `LR`. A stage's boxes have no edges between them, so they share
 * one rank, and in a left-to-right chart one rank is a column: each stage is a narrow column, and the whole
 * picture fits a notebook's width at 100% (as rows, four stages side by side were twice too wide).
 */
function stage(id: string, title: string): string[] {
  return [`  subgraph ${id}[${mermaidLabel(title)}]`, "    direction LR"];
}

/**
 * Mermaid flowchart, left to right, one column a stage: `informer` (latest notifications) -> `workqueue` (keys,
 * orange: work waits) -> `worker` (the key being reconciled in teal, and the last reconcile's outcome) ->
 * `objects` (each with its desired and actual counts, coloured converged, diverged, created or active from the
 * theme's PALETTE), and a dashed edge back: what the worker writes comes round again as watch events. (Mermaid
 * may draw the objects first, on the left: the loop reads the same from there.)
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
  lines.push(...stage("informer", `informer: last ${events.length}`));
  if (events.length === 0) lines.push(box("informer_empty", "(no events yet)"));
  events.forEach((e, i) => {
    lines.push(box(`informer_${i}`, e));
  });
  lines.push("  end");

  lines.push(...stage("workqueue", `workqueue: ${snap.queue.length} keys`));
  if (snap.queue.length === 0) lines.push(box("workqueue_empty", "(empty)"));
  snap.queue.slice(0, maxKeys).forEach((k, i) => {
    lines.push(box(`workqueue_${i}`, k));
    paint("diverged", `workqueue_${i}`);
  });
  if (snap.queue.length > maxKeys) lines.push(box("workqueue_more", `+${snap.queue.length - maxKeys} more`));
  lines.push("  end");

  const processing = snap.processing ?? [];
  lines.push(...stage("worker", "worker: reconcile"));
  if (processing.length === 0) lines.push(box("worker_idle", "idle"));
  processing.forEach((k, i) => {
    lines.push(box(`worker_${i}`, `reconciling ${k}`));
    paint("active", `worker_${i}`);
  });
  if (snap.lastReconcile) lines.push(box("worker_last", wrapWords(`last: ${snap.lastReconcile}`)));
  lines.push("  end");

  lines.push(...stage("objects", "objects"));
  if (snap.objects.length === 0) lines.push(box("objects_empty", "(none)"));
  snap.objects.forEach((o, i) => {
    lines.push(box(`objects_${i}`, `${o.key}\ndesired ${o.desired}\nactual ${o.actual}\n${o.state}`));
    paint(o.state, `objects_${i}`);
  });
  lines.push("  end");

  lines.push(
    `  informer -->|${mermaidLabel("add\nkey")}| workqueue`,
    `  workqueue -->|${mermaidLabel("get")}| worker`,
    `  worker -->|${mermaidLabel("create /\ndelete")}| objects`,
    `  objects -.->|${mermaidLabel("watch\nevents")}| informer`,
  );
  for (const [state, ids] of byState)
    lines.push(`  ${stateClassDef(state)}`, `  class ${ids.join(",")} ${state}`);
  return `${lines.join("\n")}\n`;
}
