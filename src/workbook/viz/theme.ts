/**
 * The workbook's colours, each with one meaning that holds in every picture of every notebook: a green box is
 * always converged, an orange one always has work waiting, red is always an error. Notebook authors use these
 * names (and, in static markdown diagrams, the `classDef` lines of {@link stateClassDefs}) rather than picking
 * colours of their own.
 *
 * Readable in JupyterLab's light and dark themes: a coloured box carries its own pale fill, a strong border and
 * dark text, so it reads the same on a white page and on a black one; chart ink (bars, lines) uses mid tones
 * that stand out on both. Tested: text on its fill has a contrast ratio of at least 7:1, and every ink at least
 * 3:1 (WCAG's bar for graphics) against JupyterLab's light (#ffffff) and dark (#111111) backgrounds.
 */

/** One colour with a meaning, in the four forms the pictures need. */
export interface Swatch {
  /** What the colour says, in the words a legend or a notebook uses. */
  readonly meaning: string;
  /** Pale background of a box in a flowchart or state diagram. */
  readonly fill: string;
  /** Border of that box: the same hue, strong. */
  readonly stroke: string;
  /** Text drawn on the fill. */
  readonly text: string;
  /** Bars, lines and dots of charts: a mid tone that reads on white and on black. */
  readonly ink: string;
  /** Dashed border (`stroke-dasharray`), for states that are on their way out. */
  readonly dashed?: boolean;
}

/** The names of the meaningful colours. */
export type StateName =
  | "converged"
  | "diverged"
  | "created"
  | "active"
  | "deleting"
  | "leader"
  | "error"
  | "focus";

/**
 * The palette. Names say what a thing *is*, never what colour it has, so a picture reads "green = converged"
 * without a legend after the first notebook:
 * - `converged`: desired and observed state agree; nothing to do.
 * - `diverged`: they differ, so work is waiting: a key in the queue, an object not yet reconciled.
 * - `created`: just created, seen for the first time (an ADDED event).
 * - `active`: being worked on right now: a key a worker holds (processing), a reconcile running.
 * - `deleting`: `deletionTimestamp` is set and finalizers are pending (dashed: on its way out).
 * - `leader`: holds the Lease; the one replica that acts.
 * - `error`: a failed request or reconcile, a conflict, a 4xx/5xx answer.
 * - `focus`: "where we are": the part of the data path this notebook is about.
 */
export const PALETTE: Readonly<Record<StateName, Swatch>> = {
  converged: {
    meaning: "converged: desired = observed",
    fill: "#d3f0d6",
    stroke: "#2e7d32",
    text: "#0b2e13",
    ink: "#43a047",
  },
  diverged: {
    meaning: "diverged or queued: work is waiting",
    fill: "#ffe3c2",
    stroke: "#e65100",
    text: "#3e1f00",
    ink: "#ef6c00",
  },
  created: {
    meaning: "just created (first seen)",
    fill: "#d4e6fb",
    stroke: "#1565c0",
    text: "#0d2a4d",
    ink: "#1e88e5",
  },
  active: {
    meaning: "being worked on now (processing)",
    fill: "#c9ebe7",
    stroke: "#00695c",
    text: "#002b25",
    ink: "#00897b",
  },
  deleting: {
    meaning: "deleting: finalizers pending",
    fill: "#e6e6e6",
    stroke: "#616161",
    text: "#212121",
    ink: "#757575",
    dashed: true,
  },
  leader: {
    meaning: "leader: holds the Lease",
    fill: "#ead5f0",
    stroke: "#6a1b9a",
    text: "#2e0a3d",
    ink: "#ab47bc",
  },
  error: {
    meaning: "error: failed request or reconcile",
    fill: "#fdd5d8",
    stroke: "#c62828",
    text: "#4a0b0b",
    ink: "#e53935",
  },
  focus: {
    meaning: "where we are: this notebook's part",
    fill: "#fff3a8",
    stroke: "#b07d00",
    text: "#2e2400",
    ink: "#b8860b",
  },
};

/** Every {@link StateName}, in the palette's order (legends list them this way). */
export const STATE_NAMES = Object.keys(PALETTE) as StateName[];

/**
 * Chart ink for series without a meaning of their own, in the order series take them: a steady blue first,
 * then hues far from it. Mid tones, so bars and lines read on JupyterLab's light and dark backgrounds.
 */
export const SERIES_INKS: readonly string[] = [
  "#4e79a7",
  "#d9730d",
  "#59a14f",
  "#b07aa1",
  "#d64550",
  "#2a9d8f",
];

/** Border width of a state box; `focus` is drawn thicker, since it is the box the reader should find first. */
function strokeWidth(name: StateName): string {
  return name === "focus" ? "3px" : "2px";
}

/**
 * The mermaid `classDef` line of one state, e.g. `classDef converged fill:#d3f0d6,stroke:#2e7d32,...`. Paste it
 * into a static diagram and mark nodes with `class a,b converged` (or `a:::converged`).
 */
export function stateClassDef(name: StateName): string {
  const s = PALETTE[name];
  const style = [
    `fill:${s.fill}`,
    `stroke:${s.stroke}`,
    `color:${s.text}`,
    `stroke-width:${strokeWidth(name)}`,
  ];
  if (s.dashed) style.push("stroke-dasharray:6 3");
  return `classDef ${name} ${style.join(",")}`;
}

/** The `classDef` lines of the given states (default: all), one per line, for flowcharts and state diagrams. */
export function stateClassDefs(names: readonly StateName[] = STATE_NAMES): string[] {
  return names.map(stateClassDef);
}

/**
 * Layout settings every generated flowchart uses (mermaid's `flowchart` config): tighter spacing than mermaid's
 * default so a seven-box data path fits a notebook's output area at 100% zoom with text at full size.
 */
export const FLOWCHART_LAYOUT = { rankSpacing: 30, nodeSpacing: 25, padding: 8 } as const;
