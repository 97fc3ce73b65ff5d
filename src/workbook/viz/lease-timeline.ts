/**
 * A lease timeline: who held a Lease when, drawn as a mermaid gantt chart with one row per candidate. Leading
 * is a bar in the palette's `leader` colour; a lease left behind by a leader that crashed (no release) is a grey
 * dashed-meaning `deleting` bar until it expires; crashes, expiries and "two leaders at once" are `error` red.
 * It is the picture of client-go leader election's timing: renewals every RetryPeriod, a takeover no sooner than
 * LeaseDuration after the last renewal the others saw, and a release that hands over at once.
 *
 * The input is a list of events, in any order: what the candidates did (`acquired`, `renewed`, `released`,
 * `crashed`, `stopped`), recorded by the notebook, or derived from the Lease's successive writes with
 * {@link leaseEventsFromWrites} (what `kubectl get lease -w` shows: a crash is invisible there).
 */
import { mermaidFrontMatter } from "./front-matter.js";
import { PALETTE } from "./theme.js";

/** What a candidate did at one moment. */
export type LeaseEventKind = "acquired" | "renewed" | "released" | "crashed" | "stopped";

/** One event: candidate `candidate` did `kind` at `at` (ms since the epoch, or any common origin). */
export interface LeaseEvent {
  at: number;
  candidate: string;
  kind: LeaseEventKind;
}

/** The fields of a Lease spec the timeline reads from each write (MicroTime strings or Dates). */
export interface LeaseWrite {
  holderIdentity?: string;
  acquireTime?: string | Date;
  renewTime?: string | Date;
}

/** Options of {@link leaseTimeline}. */
export interface LeaseTimelineSpec {
  title?: string;
  events: readonly LeaseEvent[];
  /** How long a lease stays valid after its last write (ms): where a crashed leader's lease expires. */
  leaseDurationMs: number;
  /** Row order (default: order of first appearance); candidates without events still get a row. */
  candidates?: readonly string[];
  /** Time zero of the axis (default: the first event). */
  origin?: number;
  /** Where the chart ends (default: the last event or expiry). Open bars run until here. */
  end?: number;
  /** Renewals drawn as marks per candidate; more are counted in the bar's label instead (default 8). */
  maxRenewalMarks?: number;
}

/** A bar of the timeline: leading, or a lease held by nobody that acts (left behind). */
export interface LeaseTimelineBar {
  candidate: string;
  kind: "leading" | "left-behind";
  from: number;
  to: number;
  renewals: number;
}

/** A point of the timeline. */
export interface LeaseTimelineMark {
  candidate: string;
  kind: "renewed" | "released" | "crashed" | "stopped" | "expired";
  at: number;
}

/** What {@link leaseTimeline} draws, computed from the events: testable without parsing mermaid. */
export interface LeaseTimelineModel {
  candidates: string[];
  bars: LeaseTimelineBar[];
  marks: LeaseTimelineMark[];
  /** Intervals during which two or more candidates were leading (split brain). */
  overlaps: Array<{ from: number; to: number; leaders: string[] }>;
  origin: number;
  end: number;
}

function timeOf(value: string | Date | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Events seen from the Lease's successive writes (a watch on it): a new holder is an acquisition (at its
 * acquireTime), the same holder writing again is a renewal (at renewTime), an empty holder after a holder is
 * a release. A crash leaves no trace in the Lease: add it yourself.
 */
export function leaseEventsFromWrites(writes: readonly LeaseWrite[]): LeaseEvent[] {
  const events: LeaseEvent[] = [];
  let holder = "";
  for (const write of writes) {
    const next = write.holderIdentity ?? "";
    const renewed = timeOf(write.renewTime);
    if (renewed === undefined) continue;
    if (next === "") {
      if (holder !== "") events.push({ at: renewed, candidate: holder, kind: "released" });
    } else if (next !== holder) {
      events.push({ at: timeOf(write.acquireTime) ?? renewed, candidate: next, kind: "acquired" });
    } else {
      events.push({ at: renewed, candidate: next, kind: "renewed" });
    }
    holder = next;
  }
  return events;
}

/** Computes the bars, marks and overlaps of a timeline (see {@link leaseTimeline}). */
export function leaseTimelineModel(spec: LeaseTimelineSpec): LeaseTimelineModel {
  if (!(spec.leaseDurationMs > 0)) throw new Error("leaseTimeline: leaseDurationMs must be > 0");
  const events = [...spec.events].sort((a, b) => a.at - b.at);
  const candidates = [...(spec.candidates ?? [])];
  for (const e of events) if (!candidates.includes(e.candidate)) candidates.push(e.candidate);
  const origin = spec.origin ?? events[0]?.at ?? 0;
  const bars: LeaseTimelineBar[] = [];
  const marks: LeaseTimelineMark[] = [];
  const open = new Map<string, LeaseTimelineBar>();
  const lastWrite = new Map<string, number>();
  const pendingExpiry: Array<{
    candidate: string;
    from: number;
    expires: number;
    released?: boolean;
    /** The candidate acquired again: later writes are its new term's. */
    closed?: boolean;
  }> = [];

  for (const e of events) {
    const bar = open.get(e.candidate);
    switch (e.kind) {
      case "acquired":
      case "renewed": {
        const left = pendingExpiry.find((p) => p.candidate === e.candidate && !p.released && !p.closed);
        if (e.kind === "renewed" && left) {
          // A write that lands after its writer stopped leading (a renewal that hung): it extends the lease
          // left behind, not the leadership.
          left.expires = Math.max(left.expires, e.at + spec.leaseDurationMs);
          marks.push({ candidate: e.candidate, kind: "renewed", at: e.at });
          break;
        }
        if (left) left.closed = true;
        if (!bar) {
          const opened = {
            candidate: e.candidate,
            kind: "leading" as const,
            from: e.at,
            to: e.at,
            renewals: 0,
          };
          open.set(e.candidate, opened);
          bars.push(opened);
        } else if (e.kind === "renewed") {
          bar.renewals++;
          marks.push({ candidate: e.candidate, kind: "renewed", at: e.at });
        }
        lastWrite.set(e.candidate, e.at);
        break;
      }
      case "released": {
        if (bar) bar.to = e.at;
        // A leader that stopped and then released: its lease is free from the release on, not at expiry.
        const left = pendingExpiry.find((p) => p.candidate === e.candidate && !p.released);
        if (left) Object.assign(left, { expires: e.at, released: true });
        open.delete(e.candidate);
        lastWrite.delete(e.candidate);
        marks.push({ candidate: e.candidate, kind: "released", at: e.at });
        break;
      }
      case "crashed":
      case "stopped": {
        if (bar) bar.to = e.at;
        open.delete(e.candidate);
        marks.push({ candidate: e.candidate, kind: e.kind, at: e.at });
        const written = lastWrite.get(e.candidate);
        if (written !== undefined) {
          pendingExpiry.push({ candidate: e.candidate, from: e.at, expires: written + spec.leaseDurationMs });
        }
        lastWrite.delete(e.candidate);
        break;
      }
    }
  }
  const lastEvent = events.at(-1)?.at ?? origin;
  const lastExpiry = Math.max(lastEvent, ...pendingExpiry.map((p) => p.expires));
  const end = spec.end ?? lastExpiry;
  for (const bar of open.values()) bar.to = end;
  for (const p of pendingExpiry) {
    if (p.expires <= p.from) continue;
    // A release by the same candidate after a crash cannot happen; the lease stays until it expires.
    bars.push({
      candidate: p.candidate,
      kind: "left-behind",
      from: p.from,
      to: Math.min(p.expires, end),
      renewals: 0,
    });
    if (p.expires <= end && !p.released)
      marks.push({ candidate: p.candidate, kind: "expired", at: p.expires });
  }
  return { candidates, bars, marks, overlaps: overlapsOf(bars), origin, end };
}

/** Intervals where two or more `leading` bars overlap (touching ends do not count). */
function overlapsOf(bars: readonly LeaseTimelineBar[]): LeaseTimelineModel["overlaps"] {
  const leading = bars.filter((b) => b.kind === "leading" && b.to > b.from);
  const cuts = [...new Set(leading.flatMap((b) => [b.from, b.to]))].sort((a, b) => a - b);
  const out: LeaseTimelineModel["overlaps"] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const from = cuts[i] as number;
    const to = cuts[i + 1] as number;
    const leaders = leading.filter((b) => b.from <= from && b.to >= to).map((b) => b.candidate);
    if (new Set(leaders).size < 2) continue;
    const last = out.at(-1);
    if (last && last.to === from && last.leaders.join() === leaders.join()) last.to = to;
    else out.push({ from, to, leaders });
  }
  return out;
}

/** Tick steps mermaid's gantt accepts, smallest first, with their length in ms. */
const TICKS: ReadonlyArray<[string, number]> = [
  ["100millisecond", 100],
  ["250millisecond", 250],
  ["500millisecond", 500],
  ["1second", 1000],
  ["2second", 2000],
  ["5second", 5000],
  ["10second", 10_000],
  ["30second", 30_000],
  ["1minute", 60_000],
  ["5minute", 300_000],
];

/** The width every lease timeline is drawn at, in px: a notebook's output area at 100% zoom on a laptop. */
const GANTT_WIDTH = 880;

/** A task name mermaid's gantt grammar keeps whole: no `:`, `;` or `#`, never empty. */
function taskName(text: string): string {
  const cleaned = text.replace(/[:;#]/g, " ").replace(/\s+/g, " ").trim();
  return cleaned === "" ? "-" : cleaned;
}

function ms(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`leaseTimeline: times must be finite, got ${n}`);
  return String(Math.round(n));
}

/**
 * Mermaid gantt source of a lease timeline: one section per candidate with its leading bars (`leader` purple,
 * labelled with the renewal count), renewals and releases as marks, crashes and expiries as red marks, a lease
 * left behind by a crashed leader as a grey bar until it expires, and a red "two leaders" row when leading
 * bars overlap. The x axis is seconds since `origin`.
 */
export function leaseTimeline(spec: LeaseTimelineSpec): string {
  const model = leaseTimelineModel(spec);
  const span = Math.max(1, model.end - model.origin);
  const tick = TICKS.find(([, len]) => span / len <= 12) ?? (TICKS.at(-1) as [string, number]);
  const maxMarks = spec.maxRenewalMarks ?? 8;
  const rel = (t: number) => ms(t - model.origin);
  const lines = [
    ...mermaidFrontMatter({
      gantt: {
        // Mermaid draws a gantt as wide as the element it renders in; JupyterLab renders in a hidden element as
        // wide as the window, then fits the picture into the output (1366 px shown at 68%, text too small).
        useWidth: GANTT_WIDTH,
        barHeight: 22,
        barGap: 6,
        topPadding: 40,
        leftPadding: 120,
        fontSize: 13,
        sectionFontSize: 13,
      },
      themeVariables: {
        activeTaskBkgColor: PALETTE.leader.fill,
        activeTaskBorderColor: PALETTE.leader.stroke,
        taskTextDarkColor: PALETTE.leader.text,
        doneTaskBkgColor: PALETTE.deleting.fill,
        doneTaskBorderColor: PALETTE.deleting.stroke,
        critBkgColor: PALETTE.error.fill,
        critBorderColor: PALETTE.error.stroke,
      },
    }),
    "gantt",
  ];
  if (spec.title) lines.push(`  title ${taskName(spec.title)}`);
  lines.push(
    "  dateFormat x",
    `  axisFormat ${span > 60_000 ? "%M:%S" : "%S.%L"}`,
    `  tickInterval ${tick[0]}`,
  );
  lines.push("  todayMarker off");
  let id = 0;
  const task = (name: string, tags: string[], from: number, to: number) =>
    `    ${taskName(name)} :${[...tags, `t${id++}`].join(", ")}, ${rel(from)}, ${ms(Math.max(0, to - from))}ms`;
  for (const candidate of model.candidates) {
    lines.push(`  section ${taskName(candidate)}`);
    const renewals = model.marks.filter((m) => m.candidate === candidate && m.kind === "renewed");
    const drawRenewals = renewals.length <= maxMarks;
    for (const bar of model.bars.filter((b) => b.candidate === candidate)) {
      if (bar.kind === "leading") {
        const label = drawRenewals ? "leads" : `leads, ${bar.renewals} renewals`;
        lines.push(task(label, ["active"], bar.from, bar.to));
      } else {
        lines.push(task("lease left behind", ["done"], bar.from, bar.to));
      }
    }
    for (const mark of model.marks.filter((m) => m.candidate === candidate)) {
      if (mark.kind === "renewed" && !drawRenewals) continue;
      const red = mark.kind === "crashed" || mark.kind === "expired" || mark.kind === "stopped";
      const label = {
        renewed: "renew",
        released: "release",
        crashed: "crash",
        stopped: "stops",
        expired: "expires",
      }[mark.kind];
      lines.push(task(label, red ? ["crit", "milestone"] : ["milestone"], mark.at, mark.at));
    }
  }
  if (model.overlaps.length > 0) {
    lines.push("  section two leaders");
    for (const o of model.overlaps) lines.push(task(o.leaders.join(" and "), ["crit"], o.from, o.to));
  }
  return `${lines.join("\n")}\n`;
}
