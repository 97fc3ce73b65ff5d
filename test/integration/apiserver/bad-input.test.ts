import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackend } from "../../../src/control-plane/apiserver/backend.js";
import type { EmbeddedApiServer } from "../../../src/control-plane/apiserver/server.js";
import { cm, request, serverPerTest, startServer } from "./helpers.js";

const CMS = "/api/v1/namespaces/default/configmaps";
const CURL = ["/usr/bin/curl", "/usr/local/bin/curl"].find((p) => existsSync(p));
const run = promisify(execFile);

describe("bad input gets a Status with the right code", () => {
  let server: EmbeddedApiServer;
  beforeAll(async () => {
    server = await startServer();
    await request(server, "POST", "/api/v1/namespaces", {
      body: JSON.stringify({ metadata: { name: "default" } }),
    });
  });
  afterAll(() => server.stop());

  function expectStatus(res: { status: number; json: unknown }, code: number, reason: string) {
    expect(res.status).toBe(code);
    expect(res.json).toMatchObject({ kind: "Status", apiVersion: "v1", status: "Failure", code, reason });
  }

  it("413 for a body over 3 MiB, and the server keeps serving", async () => {
    const huge = JSON.stringify({ metadata: { name: "big" }, data: { x: "a".repeat(3 * 1024 * 1024 + 10) } });
    expectStatus(await request(server, "POST", CMS, { body: huge }), 413, "RequestEntityTooLarge");
    expect((await request(server, "GET", `${CMS}/big`)).status).toBe(404);
    expect((await request(server, "GET", "/healthz")).status).toBe(200);
  });

  it.skipIf(!CURL)(
    `413 reaches a client still sending its body, every time${CURL ? "" : " (skipped: curl not found)"}`,
    async () => {
      // curl streams a large body after "Expect: 100-continue". kube-apiserver reads on after the limit, so
      // curl reads its 413; a server that closes at once leaves curl with "Failed sending data" (exit 55).
      const dir = await mkdtemp(join(tmpdir(), "workbook-413-"));
      try {
        const bodyFile = join(dir, "body.json");
        const caFile = join(dir, "ca.pem");
        await writeFile(bodyFile, Buffer.alloc(24 * 1024 * 1024, 0x61));
        await writeFile(caFile, server.caPem);
        const codes: string[] = [];
        for (let i = 0; i < 9; i++) {
          const args = ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", caFile];
          args.push("-H", `Authorization: Bearer ${server.token}`, "-H", "Content-Type: application/json");
          args.push("--data-binary", `@${bodyFile}`, `${server.url}${CMS}`);
          const out = await run(CURL as string, args).then(
            (r) => r.stdout,
            (err: { code?: number; stdout?: string }) => `${err.stdout ?? ""} (curl exit ${err.code})`,
          );
          codes.push(out);
        }
        expect(codes).toEqual(Array(9).fill("413"));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it("400 for malformed JSON", async () => {
    expectStatus(await request(server, "POST", CMS, { body: '{"metadata": {"name": ' }), 400, "BadRequest");
    expectStatus(await request(server, "POST", CMS, { body: "[1,2]" }), 400, "BadRequest");
    expectStatus(await request(server, "POST", CMS, { body: "" }), 400, "BadRequest");
  });

  it("400 when apiVersion or kind in the body contradict the URL", async () => {
    const wrongKind = JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name: "x" } });
    expectStatus(await request(server, "POST", CMS, { body: wrongKind }), 400, "BadRequest");
    const wrongVersion = JSON.stringify({
      apiVersion: "apps/v1",
      kind: "ConfigMap",
      metadata: { name: "x" },
    });
    expectStatus(await request(server, "POST", CMS, { body: wrongVersion }), 400, "BadRequest");
    const wrongNs = JSON.stringify({ metadata: { name: "x", namespace: "other" } });
    expectStatus(await request(server, "POST", CMS, { body: wrongNs }), 400, "BadRequest");
  });

  it("404 for unknown resources and paths", async () => {
    expectStatus(await request(server, "GET", "/api/v1/widgets"), 404, "NotFound");
    expectStatus(await request(server, "GET", "/api/v1/namespaces/default/widgets/w"), 404, "NotFound");
    expectStatus(await request(server, "GET", "/nothing/here"), 404, "NotFound");
    // A cluster-scoped resource under a namespace does not exist.
    expectStatus(await request(server, "GET", "/api/v1/namespaces/default/namespaces/x"), 404, "NotFound");
  });

  it("415 for an unsupported media type", async () => {
    await request(server, "POST", CMS, { body: cm("patched") });
    const res = await request(server, "PATCH", `${CMS}/patched`, {
      body: "{}",
      headers: { "content-type": "text/plain" },
    });
    expectStatus(res, 415, "UnsupportedMediaType");
    const create = await request(server, "POST", CMS, {
      body: cm("y"),
      headers: { "content-type": "application/xml" },
    });
    expectStatus(create, 415, "UnsupportedMediaType");
  });

  it("405 for methods a path does not support", async () => {
    expectStatus(await request(server, "OPTIONS", CMS), 405, "MethodNotAllowed");
    expectStatus(await request(server, "POST", "/api/v1"), 405, "MethodNotAllowed");
    expectStatus(
      await request(server, "POST", "/api/v1/configmaps", { body: cm("z") }),
      405,
      "MethodNotAllowed",
    );
  });

  it("400 (422 for ListOptions and DeleteOptions values) for malformed query parameters", async () => {
    expectStatus(await request(server, "GET", `${CMS}?limit=abc`), 400, "BadRequest");
    expectStatus(await request(server, "GET", `${CMS}?watch=maybe`), 400, "BadRequest");
    // An unknown resourceVersionMatch decodes but fails ListOptions validation, as in kube-apiserver.
    expectStatus(await request(server, "GET", `${CMS}?resourceVersionMatch=Sometimes`), 422, "Invalid");
    // An unknown propagationPolicy decodes but fails DeleteOptions validation, as in kube-apiserver.
    expectStatus(await request(server, "DELETE", `${CMS}/x?propagationPolicy=Never`), 422, "Invalid");
  });

  it("400 for path segments that try to escape", async () => {
    expectStatus(await request(server, "GET", "/api/v1/namespaces/%2e%2e/configmaps"), 400, "BadRequest");
    expectStatus(await request(server, "GET", "/api/v1/namespaces/%E0%A4%A/configmaps"), 400, "BadRequest");
  });
});

describe("unexpected failures", () => {
  const start = serverPerTest();

  it("a backend bug becomes a 500 InternalError Status and the server keeps serving", async () => {
    const backend = createBackend();
    const broken = new Proxy(backend, {
      get(target, prop, receiver) {
        if (prop === "get") {
          return () => {
            throw new TypeError("boom: cannot read properties of undefined");
          };
        }
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const s = await start({ backend: broken });
    const res = await request(s, "GET", "/api/v1/namespaces/default");
    expect(res.status).toBe(500);
    expect(res.json).toMatchObject({ kind: "Status", reason: "InternalError", code: 500 });
    expect(res.json.message).toContain("boom");
    expect((await request(s, "GET", "/api/v1/namespaces")).status).toBe(200);
  });
});
