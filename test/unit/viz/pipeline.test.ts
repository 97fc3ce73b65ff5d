import { describe, expect, it } from "vitest";
import {
  PALETTE,
  pipelineDiagram,
  pipelineObjectState,
  stateClassDef,
} from "../../../src/workbook/viz/index.js";
import { mermaidParseError } from "../../docs/mermaid-parser.js";

function classOf(src: string, state: string): string[] {
  const m = new RegExp(`^ {2}class (\\S+) ${state}$`, "m").exec(src);
  return m ? m[1]!.split(",") : [];
}

describe("pipelineDiagram", () => {
  it("draws events, queued keys, the worker and coloured objects, and parses", async () => {
    const src = pipelineDiagram({
      events: ["ADDED ns/a", "ADDED ns/b", "MODIFIED ns/a", "MODIFIED ns/a", "DELETED ns/c"],
      queue: ["ns/b"],
      processing: ["ns/a"],
      lastReconcile: "ns/c: not found",
      objects: [
        { key: "ns/a", desired: 4, actual: 2, state: "active" },
        { key: "ns/b", desired: 3, actual: 0, state: "created" },
        { key: "ns/d", desired: 1, actual: 1, state: "converged" },
        { key: "ns/e", desired: 1, actual: 2, state: "diverged" },
      ],
    });
    expect(await mermaidParseError(src)).toBeUndefined();
    expect(src).toContain('subgraph informer["informer: last 4"]');
    expect(src).not.toContain('"ADDED ns/a"');
    expect(src).toContain('informer_3["DELETED ns/c"]');
    expect(src).toContain('workqueue_0["ns/b"]');
    expect(src).toContain('worker_0["reconciling ns/a"]');
    expect(src).toContain('worker_last["last: ns/c: not<br/>found"]');
    // Each stage a column (its boxes share a rank): "direction TB" would lay them out in a row.
    expect(src.match(/^ {4}direction LR$/gm)).toHaveLength(4);
    expect(src).toContain('objects_0["ns/a<br/>desired 4<br/>actual 2<br/>active"]');
    expect(classOf(src, "active")).toEqual(["worker_0", "objects_0"]);
    expect(classOf(src, "diverged")).toEqual(["workqueue_0", "objects_3"]);
    expect(classOf(src, "created")).toEqual(["objects_1"]);
    expect(classOf(src, "converged")).toEqual(["objects_2"]);
    expect(src).toContain(stateClassDef("converged"));
    expect(src).toContain(PALETTE.created.fill);
  });

  it("shows empty parts and caps a long queue", async () => {
    const keys = Array.from({ length: 8 }, (_, i) => `ns/k${i}`);
    const src = pipelineDiagram({ events: [], queue: keys, objects: [] }, { maxKeys: 3 });
    expect(await mermaidParseError(src)).toBeUndefined();
    expect(src).toContain('informer_empty["(no events yet)"]');
    expect(src).toContain('workqueue_more["+5 more"]');
    expect(src).toContain('worker_idle["idle"]');
    expect(src).toContain('objects_empty["(none)"]');
    expect(() => pipelineDiagram({ events: [], queue: [], objects: [] }, { maxEvents: 0 })).toThrow(
      RangeError,
    );
  });

  it("derives an object's state: active > created > diverged > converged", () => {
    expect(pipelineObjectState({ desired: 2, actual: 2, queued: false })).toBe("converged");
    expect(pipelineObjectState({ desired: 2, actual: 1, queued: false })).toBe("diverged");
    expect(pipelineObjectState({ desired: 2, actual: 2, queued: true })).toBe("diverged");
    expect(pipelineObjectState({ desired: 2, actual: 0, queued: true, reconciledOnce: false })).toBe(
      "created",
    );
    expect(pipelineObjectState({ desired: 2, actual: 0, queued: false, processing: true })).toBe("active");
  });
});
