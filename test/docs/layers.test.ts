/**
 * The layering rule of DESIGN.md (issues 7 and 20), checked on the real import graph of `src/`. `src/` holds the
 * library at its top and three wings beside it:
 * - the library (apimachinery, clock, client, cache, workqueue, controller, leaderelection, meta) imports no wing,
 *   and inside it the floor (apimachinery) imports nothing of ours but the clock;
 * - the control plane (`control-plane/`) uses the library only where kube-controller-manager would: the built-in
 *   controllers are written with it as kube-controller-manager is written with client-go; the API server imports
 *   only the floor and the clock (kube-apiserver is built on apimachinery, not on client-go's machinery); cluster
 *   starts a server and the built-in controllers and needs nothing else;
 * - the workbook wing (`workbook/`: the course) may import the library and the control plane; its lab graders
 *   (`workbook/graders/`) are loaded by path by `workbook grade`, so nothing imports them;
 * - the tools (`tools/`: cli, bench) may import anything, and nothing imports them;
 * - the root entry point (`src/index.ts`) exports the library and `startCluster`; nothing imports it.
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { areaOf, importsOf, sources, src, srcRelative } from "./import-graph.js";

const LIBRARY = [
  "apimachinery",
  "clock",
  "client",
  "cache",
  "workqueue",
  "controller",
  "leaderelection",
  "meta",
];

/** The wing of an area: `library`, `root` (src/index.ts) or the wing's folder. */
function wingOf(area: string): string {
  if (area === ".") return "root";
  if (LIBRARY.includes(area)) return "library";
  return area.split("/")[0]!;
}

/** Which wings each wing may import (besides itself, within the finer rules of {@link ALLOWED}). */
const WING_ALLOWED: Record<string, readonly string[]> = {
  library: ["library"],
  "control-plane": ["library", "control-plane"],
  workbook: ["library", "control-plane", "workbook"],
  tools: ["library", "control-plane", "workbook", "tools"],
  root: ["library", "control-plane", "workbook"],
};

/** Which areas an area may import (besides itself), finer than its wing's rule. Areas not listed: the wing's rule. */
const ALLOWED: Record<string, readonly string[]> = {
  clock: [],
  apimachinery: ["clock"],
  client: ["apimachinery", "clock"],
  workqueue: ["apimachinery", "clock"],
  meta: ["apimachinery"],
  cache: ["apimachinery", "clock", "client"],
  controller: ["apimachinery", "clock", "client", "cache", "workqueue", "meta"],
  leaderelection: ["apimachinery", "clock", "client"],
  // The root entry point: the library and startCluster(); the wings have entry points of their own.
  ".": [...LIBRARY, "control-plane/cluster"],
  "control-plane/apiserver": ["apimachinery", "clock"],
  // kube-controller-manager: client-go's machinery, and it elects itself with client-go's leaderelection.
  "control-plane/builtin-controllers": LIBRARY,
  // Starts the server and the built-in controllers (kind or envtest start real ones): no informer of its own.
  "control-plane/cluster": [
    "apimachinery",
    "clock",
    "control-plane/apiserver",
    "control-plane/builtin-controllers",
  ],
  "workbook/viz": ["apimachinery", "clock"],
  "workbook/grading": ["apimachinery", "clock", "workbook/viz"],
  "workbook/questions": ["apimachinery", "workbook/grading", "workbook/viz"],
  "workbook/fake-cloud": ["clock"],
  "workbook/workbook-api": ["apimachinery", "client", "controller"],
  // A grader drives the learner's code against a cluster it starts, with the grading checks and the course's CRDs,
  // and reads what the server recorded as the notebooks show it (viz: managedFields as owned field paths).
  "workbook/graders": [
    ...LIBRARY,
    "control-plane/cluster",
    "workbook/grading",
    "workbook/viz",
    "workbook/fake-cloud",
    "workbook/workbook-api",
  ],
};

/** Every import that breaks {@link WING_ALLOWED} or {@link ALLOWED}, as `file -> target` lines. */
function layerViolations(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const out: string[] = [];
  for (const { path, text } of files) {
    const from = areaOf(srcRelative(path));
    const wing = WING_ALLOWED[wingOf(from)] ?? [];
    const allowed = ALLOWED[from];
    for (const target of importsOf(path, text)) {
      const to = areaOf(target);
      if (to === from) continue;
      const wingOk = wing.includes(wingOf(to)) && to !== ".";
      if (!wingOk || (allowed && !allowed.includes(to))) out.push(`${relative(src, path)} -> ${target}`);
    }
  }
  return out;
}

describe("layers: imports run downward only", () => {
  const files = sources(src).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("finds the source tree, and every area belongs to the library or a wing", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.path.endsWith(join("apimachinery", "errors.ts")))).toBe(true);
    const areas = new Set(files.map((f) => areaOf(srcRelative(f.path))));
    expect([...areas].filter((a) => !WING_ALLOWED[wingOf(a)])).toEqual([]);
    expect(areas).toContain("control-plane/apiserver");
    expect(areas).toContain("workbook/viz");
    expect(areas).toContain("tools/cli");
    expect(areas).toContain("workbook/graders");
  });

  it("nothing imports the lab graders: `workbook grade` loads each one by path in its worker", () => {
    const importers = files.flatMap(({ path, text }) =>
      areaOf(srcRelative(path)) === "workbook/graders"
        ? []
        : importsOf(path, text)
            .filter((target) => areaOf(target) === "workbook/graders")
            .map((target) => `${relative(src, path)} -> ${target}`),
    );
    expect(importers).toEqual([]);
  });

  it("every finer rule stays within its wing's rule", () => {
    const wider = Object.entries(ALLOWED).flatMap(([from, tos]) =>
      tos.filter((to) => !WING_ALLOWED[wingOf(from)]!.includes(wingOf(to))).map((to) => `${from} -> ${to}`),
    );
    expect(wider).toEqual([]);
  });

  it("no area imports above itself (the library imports no wing, the server no machinery, nothing the tools)", () => {
    expect(layerViolations(files)).toEqual([]);
  });

  it("catches imports that run upward, so the rule above can fail", () => {
    const text =
      'import { parseLabelSelector } from "../control-plane/apiserver/selectors/label-selector.js";\n';
    const bad = [
      { path: join(src, "cache", "lister.ts"), text },
      { path: join(src, "apimachinery", "keys.ts"), text: 'export * from "../cache/index.js";\n' },
      {
        path: join(src, "workbook", "viz", "chart.ts"),
        text: 'const m = await import("../../tools/cli/main.js");\n',
      },
      { path: join(src, "control-plane", "apiserver", "x.ts"), text: 'import "../../cache/reflector.js";\n' },
      { path: join(src, "workbook", "site", "y.ts"), text: 'import { z } from "../../index.js";\n' },
      {
        path: join(src, "tools", "bench", "ok.ts"),
        text: 'import { z } from "../../workbook/viz/index.js";\n',
      },
    ];
    expect(layerViolations(bad)).toEqual([
      `${join("cache", "lister.ts")} -> control-plane/apiserver/selectors/label-selector.js`,
      `${join("apimachinery", "keys.ts")} -> cache/index.js`,
      `${join("workbook", "viz", "chart.ts")} -> tools/cli/main.js`,
      `${join("control-plane", "apiserver", "x.ts")} -> cache/reflector.js`,
      `${join("workbook", "site", "y.ts")} -> index.js`,
    ]);
  });
});

/**
 * The API server's own layers, top to bottom, as a request travels through kube-apiserver: the server and its
 * entry point; the handlers (`http/`); the handler-chain instruments; the wiring (`backend.ts`); the registry
 * and admission; patch and field management; validation; the serializer (protobuf bodies to JSON, as
 * apimachinery's runtime/serializer); the schema; storage; the shared vocabulary (`types.ts`, `errors.ts`, and
 * `json.ts`: JSON values, copies and depth limits, as apimachinery's util/json). A file may import its own layer
 * or any below it.
 */
const SERVER_LAYERS: ReadonlyArray<readonly string[]> = [
  ["index.ts", "server.ts", "tls.ts", "kubeconfig.ts"],
  ["http/"],
  ["instruments/"],
  ["backend.ts"],
  ["registry/", "admission/"],
  ["patch/", "fieldmanager/"],
  ["validation/"],
  ["serializer/"],
  ["schema/"],
  ["storage/"],
  ["types.ts", "errors.ts", "json.ts"],
];

/** Imports inside the server that run upward: none, and the test below keeps it so. */
const KNOWN_UPWARD_IN_SERVER: string[] = [];

/** The layer index of an apiserver-relative path (undefined for files outside the listed layers). */
function serverLayerOf(path: string): number | undefined {
  const at = SERVER_LAYERS.findIndex((layer) =>
    layer.some((p) => (p.endsWith("/") ? path.startsWith(p) : path === p)),
  );
  return at === -1 ? undefined : at;
}

/** Every import inside `control-plane/apiserver/` that runs to a higher layer, as `file -> target` lines. */
function upwardInServer(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const prefix = "control-plane/apiserver/";
  const out: string[] = [];
  for (const { path, text } of files) {
    const from = srcRelative(path);
    if (!from.startsWith(prefix) || from.includes("/schema/generated/")) continue;
    const fromLayer = serverLayerOf(from.slice(prefix.length));
    for (const target of importsOf(path, text)) {
      if (!target.startsWith(prefix)) continue;
      const to = target.slice(prefix.length).replace(/\.js$/, ".ts");
      const toLayer = serverLayerOf(to);
      if (fromLayer !== undefined && toLayer !== undefined && toLayer < fromLayer) {
        out.push(`${from.slice(prefix.length)} -> ${to}`);
      }
    }
  }
  return out.sort();
}

describe("layers inside the API server: handler -> registry -> storage", () => {
  const files = sources(src).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("every file of the server belongs to a layer", () => {
    const server = files
      .map((f) => srcRelative(f.path))
      .filter((p) => p.startsWith("control-plane/apiserver/"))
      .map((p) => p.slice("control-plane/apiserver/".length));
    expect(server.length).toBeGreaterThan(100);
    expect(server.filter((p) => serverLayerOf(p) === undefined)).toEqual([]);
  });

  it("no import runs upward but the known ones", () => {
    expect(upwardInServer(files)).toEqual([...KNOWN_UPWARD_IN_SERVER].sort());
  });

  it("catches an upward import, so the rule above can fail", () => {
    const at = (p: string) => join(src, "control-plane", "apiserver", ...p.split("/"));
    const bad = [
      { path: at("storage/x.ts"), text: 'import { Store } from "../registry/store.js";\n' },
      { path: at("registry/y.ts"), text: 'import { mediaType } from "../http/body.js";\n' },
      { path: at("http/z.ts"), text: 'import { Store } from "../registry/store.js";\n' },
    ];
    expect(upwardInServer(bad)).toEqual([
      "registry/y.ts -> http/body.ts",
      "storage/x.ts -> registry/store.ts",
    ]);
  });
});
