import { describe, expect, it } from "vitest";
import { mayRepeatKeys, parseObjectBody } from "../../../src/control-plane/apiserver/http/body.js";

const parse = (text: string) => parseObjectBody(Buffer.from(text, "utf8"), "ConfigMap");

describe("duplicate keys in a create or update body", () => {
  it("skips the scan only when no key can be repeated", () => {
    const plain = '{"metadata":{"name":"a","labels":{"x":"1"}},"data":{"k":"v"},"list":[{"a":1},{"a":2}]}';
    expect(mayRepeatKeys(plain, JSON.parse(plain))).toBe(false);
    const repeated = '{"metadata":{"name":"a","name":"b"}}';
    expect(mayRepeatKeys(repeated, JSON.parse(repeated))).toBe(true);
    const colonInValue = '{"image":"nginx:1.27"}';
    expect(mayRepeatKeys(colonInValue, JSON.parse(colonInValue))).toBe(true);
    const proto = '{"__proto__":{"a":1},"b":2}';
    expect(mayRepeatKeys(proto, JSON.parse(proto))).toBe(false);
  });

  it("reports repeated keys at any depth, also when strings hold colons", () => {
    expect(parse('{"metadata":{"name":"a","name":"b"}}').duplicates).toEqual(["metadata.name"]);
    expect(parse('{"data":{"url":"http://x","url":"https://y"}}').duplicates).toEqual(["data.url"]);
    expect(parse('{"items":[{"a":1,"a":2}]}').duplicates.length).toBe(1);
  });

  it("returns the parsed value and no duplicates for an ordinary body", () => {
    const r = parse('{"metadata":{"name":"a"},"data":{"k":"v:w"}}');
    expect(r.duplicates).toEqual([]);
    expect(r.value).toEqual({ metadata: { name: "a" }, data: { k: "v:w" } });
  });
});
