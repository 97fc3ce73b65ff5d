import { describe, expect, it } from "vitest";
import { parseRequestInfo } from "../../../src/control-plane/apiserver/http/request-info.js";
import { request, serverPerTest } from "./helpers.js";

describe("parseRequestInfo (kube-apiserver's RequestInfoFactory)", () => {
  const parse = (method: string, path: string, watch = false) => parseRequestInfo(method, path, watch);

  it("maps methods and the presence of a name to verbs", () => {
    expect(parse("GET", "/api/v1/namespaces/a/configmaps")).toMatchObject({
      verb: "list",
      namespace: "a",
      resource: "configmaps",
    });
    expect(parse("GET", "/api/v1/namespaces/a/configmaps", true)).toMatchObject({ verb: "watch" });
    expect(parse("GET", "/api/v1/namespaces/a/configmaps/x")).toMatchObject({ verb: "get", name: "x" });
    expect(parse("POST", "/api/v1/namespaces/a/configmaps")).toMatchObject({ verb: "create" });
    expect(parse("PUT", "/api/v1/namespaces/a/configmaps/x")).toMatchObject({ verb: "update" });
    expect(parse("PATCH", "/api/v1/namespaces/a/configmaps/x")).toMatchObject({ verb: "patch" });
    expect(parse("DELETE", "/api/v1/namespaces/a/configmaps/x")).toMatchObject({ verb: "delete" });
    expect(parse("DELETE", "/api/v1/namespaces/a/configmaps")).toMatchObject({ verb: "deletecollection" });
  });

  it("treats /namespaces/<name>/status and /finalize as the Namespace's subresources", () => {
    expect(parse("PUT", "/api/v1/namespaces/team/finalize")).toMatchObject({
      resource: "namespaces",
      name: "team",
      subresource: "finalize",
    });
    expect(parse("GET", "/api/v1/namespaces/team/status")).toMatchObject({
      resource: "namespaces",
      name: "team",
      subresource: "status",
    });
    expect(parse("GET", "/api/v1/namespaces/team")).toMatchObject({ resource: "namespaces", name: "team" });
    expect(parse("GET", "/api/v1/namespaces/team")).not.toHaveProperty("namespace");
  });

  it("parses group paths, legacy /watch/ paths and non-resource paths", () => {
    expect(parse("GET", "/apis/apps/v1/namespaces/a/deployments/web/status")).toMatchObject({
      group: "apps",
      version: "v1",
      namespace: "a",
      resource: "deployments",
      name: "web",
      subresource: "status",
    });
    expect(parse("GET", "/api/v1/watch/namespaces/a/configmaps")).toMatchObject({
      verb: "watch",
      namespace: "a",
    });
    expect(parse("GET", "/apis/apps/v1")).toEqual({
      kind: "nonresource",
      verb: "get",
      path: "/apis/apps/v1",
    });
    expect(parse("GET", "/healthz/")).toEqual({ kind: "nonresource", verb: "get", path: "/healthz" });
  });

  it("rejects what kube-apiserver rejects", () => {
    expect(() => parse("HEAD", "/api/v1/configmaps", true)).toThrow(/HEAD/);
    expect(() => parse("POST", "/version")).toThrow(/not supported/);
    expect(() => parse("GET", "/api/v1/namespaces/a/configmaps/x/status/extra")).toThrow(/unexpected path/);
    expect(() => parse("GET", "/api/v1/namespaces/%2e%2e/configmaps")).toThrow(/invalid path segment/);
  });
});

describe("subresources over HTTP", () => {
  const start = serverPerTest();

  it("PUT /finalize changes a namespace's spec.finalizers; a plain update cannot", async () => {
    const s = await start();
    const created = await request(s, "POST", "/api/v1/namespaces", {
      body: JSON.stringify({ metadata: { name: "fin" } }),
    });
    expect(created.json.spec.finalizers).toEqual(["kubernetes"]);
    const body = JSON.stringify({ ...created.json, spec: { finalizers: [] } });
    const plain = await request(s, "PUT", "/api/v1/namespaces/fin", { body });
    expect(plain.status).toBe(200);
    expect(plain.json.spec.finalizers).toEqual(["kubernetes"]);
    const finalized = await request(s, "PUT", "/api/v1/namespaces/fin/finalize", {
      body: JSON.stringify({ ...plain.json, spec: { finalizers: [] } }),
    });
    expect(finalized.status).toBe(200);
    expect(finalized.json.spec.finalizers ?? []).toEqual([]);
  });

  it("only get, update and patch are served on /status; unknown subresources are 404", async () => {
    const s = await start();
    expect((await request(s, "GET", "/api/v1/namespaces/default/status")).status).toBe(200);
    expect((await request(s, "DELETE", "/api/v1/namespaces/default/status")).status).toBe(405);
    expect((await request(s, "GET", "/api/v1/namespaces/default/scale")).status).toBe(404);
  });
});
