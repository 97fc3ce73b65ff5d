import { describe, expect, it } from "vitest";
import { ListBody } from "../../../src/control-plane/apiserver/serializer/list-body.js";

const envelope = JSON.stringify({
  kind: "ConfigMapList",
  apiVersion: "v1",
  metadata: { resourceVersion: "7" },
  items: [],
});
const typeMeta = `{"apiVersion":"v1","kind":"ConfigMap",`;

function items(n: number) {
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? {
          json: JSON.stringify({ metadata: { name: `a${i}` }, data: { text: "grüße ✓ 🚀" } }),
          start: 0,
          prefix: "",
        }
      : {
          json: `${typeMeta}${JSON.stringify({ metadata: { name: `b${i}` } }).slice(1)}`,
          start: typeMeta.length,
          prefix: "{",
        },
  );
}

describe("ListBody", () => {
  it("writes the envelope with every item, in order, as UTF-8 of the announced length", () => {
    const body = new ListBody(envelope, items(2));
    const bytes = body.toBuffer();
    const parsed = JSON.parse(bytes.toString("utf8"));
    expect(parsed.metadata.resourceVersion).toBe("7");
    expect(parsed.items).toEqual([
      { metadata: { name: "a0" }, data: { text: "grüße ✓ 🚀" } },
      { metadata: { name: "b1" } },
    ]);
    expect(body.byteLength).toBe(bytes.length);
  });

  it("cuts the same bytes into chunks of about the requested size, never inside an item", () => {
    const body = new ListBody(envelope, items(50));
    const whole = body.toBuffer();
    for (const size of [1, 64, 300, 10_000]) {
      const chunks = [...body.chunks(size)];
      expect(Buffer.concat(chunks).equals(whole)).toBe(true);
      if (size === 300) expect(chunks.length).toBeGreaterThan(3);
      for (const c of chunks.slice(1, -1)) expect([",", "{"]).toContain(String.fromCharCode(c[0] as number));
    }
  });

  it("writes an empty items array for no items", () => {
    expect(JSON.parse(new ListBody(envelope, []).toString()).items).toEqual([]);
  });

  it("refuses an envelope that does not end with an empty items array", () => {
    expect(() => new ListBody('{"items":[1]}', [])).toThrow(/empty items array/);
  });
});
