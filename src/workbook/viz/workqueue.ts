/**
 * A picture of a workqueue's inside: client-go's `util/workqueue` keeps three structures (the `queue` FIFO, the
 * `dirty` set of keys that need work, the `processing` set of keys a worker holds) plus, in a delaying or
 * rate-limiting queue, a heap of keys waiting for their delay to pass. This builder draws all four as columns
 * of keys, so a notebook can redraw it in place as cells step through `add`, `get`, `done` and `addRateLimited`.
 */
import { mermaidFrontMatter } from "./front-matter.js";
import { mermaidId, mermaidLabel } from "./mermaid-text.js";
import { FLOWCHART_LAYOUT, type StateName, stateClassDef } from "./theme.js";

/** A key waiting in a delaying queue, with the clock time (ms) at which it will be added. */
export interface WaitingKey<T = unknown> {
  readonly item: T;
  readonly readyAt: number;
}

/**
 * What the picture shows: the same fields as `Queue.state()` (client-go's queue, dirty and processing), plus the
 * waiting keys of a delaying queue (`DelayingQueue.waitingItems()`).
 */
export interface WorkqueueSnapshot<T = unknown> {
  readonly queue: readonly T[];
  readonly dirty: readonly T[];
  readonly processing: readonly T[];
  readonly waiting?: ReadonlyArray<WaitingKey<T>>;
}

/** Anything with `state()` (every workqueue in the package) and maybe `waitingItems()` (delaying queues). */
export interface WorkqueueLike<T = unknown> {
  state(): { queue: T[]; dirty: T[]; processing: T[] };
  waitingItems?(): Array<{ item: T; readyAt: number }>;
}

/** Options of {@link workqueueDiagram}. */
export interface WorkqueueDiagramOptions {
  /** The clock's current time (ms): waiting keys are then labelled "in N ms". Without it, no countdown. */
  now?: number;
  /** At most this many keys per column (default 6); the rest are summed up in a "+N more" box. */
  maxKeys?: number;
  /** Text for a key (default `String(key)`). */
  label?: (key: unknown) => string;
}

function isLike(source: WorkqueueSnapshot | WorkqueueLike): source is WorkqueueLike {
  return typeof (source as WorkqueueLike).state === "function";
}

/** The snapshot of a queue, or the snapshot itself: what {@link workqueueDiagram} draws. */
export function workqueueSnapshot<T>(source: WorkqueueSnapshot<T> | WorkqueueLike<T>): WorkqueueSnapshot<T> {
  if (!isLike(source)) return source;
  const s = source.state();
  const waiting = source.waitingItems?.();
  return { queue: s.queue, dirty: s.dirty, processing: s.processing, waiting };
}

interface Column {
  id: string;
  title: string;
  keys: Array<{ text: string; state?: StateName }>;
}

function waitText(readyAt: number, now: number | undefined): string {
  if (now === undefined) return "";
  const ms = Math.max(0, readyAt - now);
  return ms >= 10_000 ? `in ${(ms / 1000).toFixed(0)} s` : `in ${Number(ms.toFixed(1))} ms`;
}

/**
 * Mermaid flowchart of a workqueue: four columns, left to right in the order a key travels them: `waiting`
 * (rate-limited, with a countdown when `now` is given) -> `queue` (FIFO, orange: work is waiting) ->
 * `processing` (teal: a worker holds it), and the `dirty` set beside them. A key in `dirty` and `processing` at
 * once was re-added while a worker held it (client-go parks it and queues it again on `done`); it is marked
 * "parked". Colours come from the theme's {@link PALETTE}: queued = `diverged`, processing = `active`.
 */
export function workqueueDiagram(
  source: WorkqueueSnapshot | WorkqueueLike,
  options: WorkqueueDiagramOptions = {},
): string {
  const snap = workqueueSnapshot(source);
  const max = options.maxKeys ?? 6;
  if (!(Number.isInteger(max) && max >= 1)) throw new RangeError(`maxKeys must be >= 1, got ${max}`);
  const text = options.label ?? ((k: unknown) => String(k));
  const processing = new Set(snap.processing);
  const waiting = [...(snap.waiting ?? [])].sort((a, b) => a.readyAt - b.readyAt);
  const columns: Column[] = [
    {
      id: "waiting",
      title: `waiting (rate-limited): ${waiting.length}`,
      keys: waiting.map((w) => ({
        text: [text(w.item), waitText(w.readyAt, options.now)].filter(Boolean).join("\n"),
      })),
    },
    {
      id: "queued",
      title: `queue (FIFO): ${snap.queue.length}`,
      keys: snap.queue.map((k) => ({ text: text(k), state: "diverged" })),
    },
    {
      id: "processing",
      title: `processing: ${snap.processing.length}`,
      keys: snap.processing.map((k) => ({ text: text(k), state: "active" })),
    },
    {
      id: "dirty",
      title: `dirty set: ${snap.dirty.length}`,
      keys: snap.dirty.map((k) =>
        processing.has(k)
          ? { text: `${text(k)}\nparked`, state: "active" }
          : { text: text(k), state: "diverged" },
      ),
    },
  ];
  const lines = [...mermaidFrontMatter({ flowchart: FLOWCHART_LAYOUT }), "flowchart LR"];
  const byState = new Map<StateName, string[]>();
  for (const col of columns) {
    lines.push(`  subgraph ${col.id}[${mermaidLabel(col.title)}]`, "    direction TB");
    const shown = col.keys.slice(0, max);
    if (shown.length === 0) lines.push(`    ${col.id}_empty[${mermaidLabel("(empty)")}]`);
    for (const [i, key] of shown.entries()) {
      const id = mermaidId(`${col.id}_${i}`);
      lines.push(`    ${id}[${mermaidLabel(key.text)}]`);
      if (key.state) byState.set(key.state, [...(byState.get(key.state) ?? []), id]);
    }
    if (col.keys.length > max)
      lines.push(`    ${col.id}_more[${mermaidLabel(`+${col.keys.length - max} more`)}]`);
    lines.push("  end");
  }
  lines.push(
    `  waiting -->|${mermaidLabel("delay over: add")}| queued`,
    `  queued -->|${mermaidLabel("get")}| processing`,
    `  processing -.->|${mermaidLabel("done: back to queue\nif dirty")}| queued`,
    "  processing ~~~ dirty",
  );
  for (const [state, ids] of byState)
    lines.push(`  ${stateClassDef(state)}`, `  class ${ids.join(",")} ${state}`);
  return `${lines.join("\n")}\n`;
}
