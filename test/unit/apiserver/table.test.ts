import { describe, expect, it } from "vitest";
import { humanDuration, toTable } from "../../../src/control-plane/apiserver/registry/table.js";
import { configMap, setup } from "./helpers.js";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe("humanDuration (kubectl's AGE)", () => {
  it.each([
    [-500, "0s"],
    [-5 * S, "<invalid>"],
    [0, "0s"],
    [119 * S, "119s"],
    [2 * M, "2m"],
    [9 * M + 59 * S, "9m59s"],
    [10 * M, "10m"],
    [179 * M, "179m"],
    [3 * H, "3h"],
    [7 * H + 30 * M, "7h30m"],
    [47 * H, "47h"],
    [2 * D, "2d"],
    [7 * D + 23 * H, "7d23h"],
    [8 * D, "8d"],
    [729 * D, "729d"],
    [2 * 365 * D + 30 * D, "2y30d"],
    [9 * 365 * D, "9y"],
  ])("%d ms -> %s", (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });
});

describe("toTable", () => {
  it("renders Name, the kind's columns and Age, one row per object with its metadata by default", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", { ...configMap("a"), data: { x: "1", y: "2" } });
    const now = Date.parse(a.metadata!.creationTimestamp!) + 90 * S;
    const table = toTable(cm, [a], { resourceVersion: "9" }, now);
    expect(table.kind).toBe("Table");
    expect(table.metadata).toEqual({ resourceVersion: "9" });
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Data", "Age"]);
    expect(table.rows).toEqual([
      {
        cells: ["a", 2, "90s"],
        object: { kind: "PartialObjectMetadata", apiVersion: "meta.k8s.io/v1", metadata: a.metadata },
      },
    ]);
    expect(toTable(cm, [a], {}, now, "None").rows[0]).toEqual({ cells: ["a", 2, "90s"] });
    expect(toTable(cm, [a], {}, now, "Object").rows[0]?.object).toBe(a);
  });

  it("answers GET and LIST through the backend, and rejects an unknown includeObject with 422", () => {
    const { backend, cm, ns } = setup();
    backend.create(cm, "default", configMap("a"));
    const list = backend.table(cm, "default", undefined, {}) as ReturnType<typeof toTable>;
    expect(list.rows.map((r) => r.cells[0])).toEqual(["a"]);
    const one = backend.table(ns, undefined, "default", {}) as ReturnType<typeof toTable>;
    expect(one.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Status", "Age"]);
    expect(one.rows[0]?.cells.slice(0, 2)).toEqual(["default", "Active"]);
    expect(() => backend.table(cm, "default", undefined, {}, "Everything")).toThrow(/includeObject/);
  });

  it("custom resources: the CRD's printer columns, or a date-typed Age when it declares none", () => {
    const { backend, cm } = setup();
    const a = backend.create(cm, "default", { ...configMap("a"), data: { x: "1" } });
    const now = Date.parse(a.metadata!.creationTimestamp!) + 5 * S;
    const plain = toTable(cm, [a], {}, now, "None", []);
    expect(plain.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ["Name", "string"],
      ["Age", "date"],
    ]);
    expect(plain.rows[0]?.cells).toEqual(["a", "5s"]);
    const custom = toTable(cm, [a], {}, now, "None", [
      { name: "X", type: "string", jsonPath: ".data.x" },
      { name: "Missing", type: "integer", jsonPath: ".spec.size" },
      { name: "Complex", type: "string", jsonPath: ".items[0].x" },
    ]);
    expect(custom.columnDefinitions.map((c) => c.name)).toEqual(["Name", "X", "Missing", "Complex"]);
    expect(custom.rows[0]?.cells).toEqual(["a", "1", null, null]);
  });
});
