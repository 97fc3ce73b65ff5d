import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedApiServer } from "../../../src/control-plane/apiserver/server.js";
import { request, startServer } from "./helpers.js";

describe("discovery and health", () => {
  let server: EmbeddedApiServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it("serves an empty /openapi/v2: protobuf (swagger 2.0, nothing else) for old kubectl, JSON otherwise", async () => {
    const pb = await request(server, "GET", "/openapi/v2", {
      headers: { accept: "application/com.github.proto-openapi.spec.v2@v1.0+protobuf" },
    });
    expect(pb.status).toBe(200);
    // Go's mime.ParseMediaType (client-go) must accept the Content-Type: no '@' in it.
    expect(pb.headers["content-type"]).toBe("application/octet-stream");
    expect(Buffer.from(pb.text, "latin1")).toEqual(Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]));
    const json = await request(server, "GET", "/openapi/v2");
    expect(json.status).toBe(200);
    expect(json.json).toMatchObject({ swagger: "2.0", paths: {}, definitions: {} });
  });

  it("serves /api with the core version and the server address", async () => {
    const res = await request(server, "GET", "/api");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.json.kind).toBe("APIVersions");
    expect(res.json.versions).toEqual(["v1"]);
    expect(res.json.serverAddressByClientCIDRs[0].serverAddress).toBe(new URL(server.url).host);
  });

  it("serves /api/v1 as an APIResourceList with verbs, shortNames, scope and subresource entries", async () => {
    const res = await request(server, "GET", "/api/v1");
    expect(res.json.kind).toBe("APIResourceList");
    expect(res.json.groupVersion).toBe("v1");
    const byName = new Map(res.json.resources.map((r: { name: string }) => [r.name, r]));
    expect(byName.get("configmaps")).toMatchObject({
      kind: "ConfigMap",
      singularName: "configmap",
      namespaced: true,
      shortNames: ["cm"],
    });
    expect((byName.get("configmaps") as { verbs: string[] }).verbs).toContain("watch");
    expect(byName.get("namespaces")).toMatchObject({ namespaced: false, kind: "Namespace" });
    expect(byName.get("namespaces/status")).toMatchObject({
      kind: "Namespace",
      verbs: ["get", "patch", "update"],
    });
    expect(byName.get("namespaces/finalize")).toMatchObject({ verbs: ["update"] });
  });

  it("serves /apis as an APIGroupList and 404s unknown groups with a Status", async () => {
    const res = await request(server, "GET", "/apis");
    expect(res.json).toMatchObject({ kind: "APIGroupList", apiVersion: "v1" });
    const missing = await request(server, "GET", "/apis/nope.example.com/v1");
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ kind: "Status", reason: "NotFound", code: 404 });
  });

  it("answers /healthz, /livez and /readyz with ok", async () => {
    for (const path of ["/healthz", "/livez", "/readyz"]) {
      const res = await request(server, "GET", path);
      expect(res.status).toBe(200);
      expect(res.text).toBe("ok");
    }
  });

  it("serves /version", async () => {
    const res = await request(server, "GET", "/version");
    expect(res.json).toMatchObject({ major: "1", gitVersion: expect.stringMatching(/^v1\./) });
  });
});
