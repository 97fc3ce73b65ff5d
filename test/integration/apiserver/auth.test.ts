import { CoreV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedApiServer } from "../../../src/control-plane/apiserver/server.js";
import { request, startServer } from "./helpers.js";

describe("TLS and bearer-token authentication", () => {
  let server: EmbeddedApiServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it("listens on 127.0.0.1 with a random port", () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);
  });

  it("answers 401 with a Status body when the token is missing", async () => {
    const res = await request(server, "GET", "/api/v1/namespaces", { token: null });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ kind: "Status", status: "Failure", reason: "Unauthorized", code: 401 });
  });

  it("answers 401 for a wrong token, including one that only differs in the last character", async () => {
    const wrong = `${server.token.slice(0, -1)}${server.token.endsWith("0") ? "1" : "0"}`;
    for (const token of [wrong, "x", ""]) {
      const res = await request(server, "GET", "/version", { token });
      expect(res.status).toBe(401);
    }
    const basic = await request(server, "GET", "/version", {
      token: null,
      headers: { authorization: `Basic ${Buffer.from(`admin:${server.token}`).toString("base64")}` },
    });
    expect(basic.status).toBe(401);
  });

  it("serves requests that carry the token", async () => {
    const res = await request(server, "GET", "/version");
    expect(res.status).toBe(200);
    expect(res.json.major).toBe("1");
  });

  it("works with client-node through the kubeconfig, verifying TLS against the CA", async () => {
    const kc = server.kubeConfig();
    expect(kc.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
    const api = kc.makeApiClient(CoreV1Api);
    await api.createNamespace({ body: { metadata: { name: "auth-ns" } } });
    const list = await api.listNamespace();
    expect(list.items.map((n) => n.metadata?.name)).toContain("auth-ns");
  });

  it("writes a kubeconfig file with certificate-authority-data and the token", async () => {
    const { readFile } = await import("node:fs/promises");
    const doc = JSON.parse(await readFile(server.kubeconfigPath, "utf8"));
    expect(Buffer.from(doc.clusters[0].cluster["certificate-authority-data"], "base64").toString()).toBe(
      server.caPem,
    );
    expect(doc.users[0].user.token).toBe(server.token);
    expect(doc.clusters[0].cluster["insecure-skip-tls-verify"]).toBeUndefined();
  });
});
