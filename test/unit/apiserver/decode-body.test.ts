import { describe, expect, it } from "vitest";
import { decodeBody, handOverBody } from "../../../src/control-plane/apiserver/registry/decode-body.js";
import type { ResourceType } from "../../../src/control-plane/apiserver/types.js";

/**
 * A body is decoded once: the HTTP handler's freshly parsed body is handed over and kept as it is; any other
 * body (an in-process caller's object) is copied, so the store never shares what the caller still holds.
 */
const configMaps: ResourceType = {
  group: "",
  version: "v1",
  resource: "configmaps",
  kind: "ConfigMap",
  listKind: "ConfigMapList",
  singular: "configmap",
  namespaced: true,
  shortNames: ["cm"],
  subresources: [],
  verbs: ["create", "delete", "get", "list", "patch", "update", "watch"],
};

describe("decodeBody", () => {
  it("copies a body that was not handed over: the caller's object is not the stored one", () => {
    const body = { metadata: { name: "a" }, data: { k: "v" } };
    const obj = decodeBody(body, configMaps);
    expect(obj.data).not.toBe(body.data);
    (obj.data as Record<string, string>).k = "changed";
    expect(body.data).toEqual({ k: "v" });
    expect(body).not.toHaveProperty("kind"); // the type meta was filled in on the copy only
  });

  it("keeps a handed-over body's content as it is, once: a second decode of the same object copies again", () => {
    const body = handOverBody({ metadata: { name: "b" }, data: { k: "v" } });
    const first = decodeBody(body, configMaps);
    expect(first.data).toBe(body.data); // not copied (the top level is rebuilt with apiVersion and kind first)
    expect(first).toMatchObject({ apiVersion: "v1", kind: "ConfigMap" });
    expect(decodeBody(body, configMaps).data).not.toBe(body.data);
  });

  it("checks a handed-over body like any other: a wrong kind is 400", () => {
    const body = handOverBody({ kind: "Secret", metadata: { name: "c" } });
    expect(() => decodeBody(body, configMaps)).toThrow(/Secret|kind/);
  });
});
