/**
 * The hook in the HTTP layer (body.ts): a POST/PUT with Content-Type application/vnd.kubernetes.protobuf is
 * decoded and stored like its JSON twin, the answer is JSON; bad protobuf is a 400 Status, an unknown kind a
 * 415 Status, and the server keeps serving. Runs without kubectl (node:https against the embedded server).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedApiServer } from "../../../src/control-plane/apiserver/server.js";
import { request, startServer } from "../../integration/apiserver/helpers.js";
import { bfield, entry, envelope, fields, sfield } from "../../support/proto-encoder.js";
import { kubectlBody } from "./kubectl-bodies.js";

const PROTOBUF = { "content-type": "application/vnd.kubernetes.protobuf" };
const CMS = "/api/v1/namespaces/demo/configmaps";

describe("protobuf request bodies over HTTP", () => {
  let server: EmbeddedApiServer;
  beforeAll(async () => {
    server = await startServer({}, ["demo"]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("a kubectl ConfigMap body is created (201, JSON answer) and reads back with its data", async () => {
    const res = await request(server, "POST", CMS, {
      body: Buffer.from(kubectlBody("configmap")),
      headers: PROTOBUF,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json.metadata.uid).toBeTruthy();
    const back = await request(server, "GET", `${CMS}/x`);
    expect(back.json.data).toEqual({ a: "b", c: "d" });
  });

  it("an update (PUT) in protobuf replaces the data", async () => {
    const current = (await request(server, "GET", `${CMS}/x`)).json;
    const meta = fields(sfield(1, "x"), sfield(3, "demo"), sfield(6, current.metadata.resourceVersion));
    const body = envelope("v1", "ConfigMap", fields(bfield(1, meta), entry(2, "a", "changed")));
    const res = await request(server, "PUT", `${CMS}/x`, { body: Buffer.from(body), headers: PROTOBUF });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual({ a: "changed" });
  });

  it("malformed protobuf is 400 BadRequest and an unknown kind 415; nothing is stored", async () => {
    const bad = await request(server, "POST", CMS, {
      body: Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x12, 0xff]),
      headers: PROTOBUF,
    });
    expect([bad.status, bad.json.kind, bad.json.reason]).toEqual([400, "Status", "BadRequest"]);
    const unknown = envelope("example.com/v1", "Widget", fields(bfield(1, sfield(1, "lossy"))));
    const refused = await request(server, "POST", CMS, { body: Buffer.from(unknown), headers: PROTOBUF });
    expect([refused.status, refused.json.reason]).toEqual([415, "UnsupportedMediaType"]);
    expect(refused.json.message).toContain("kind Widget of apiVersion example.com/v1");
    expect((await request(server, "GET", `${CMS}/lossy`)).status).toBe(404);
  });

  it("a body whose kind does not match the URL is refused like a JSON one", async () => {
    const res = await request(server, "POST", CMS, {
      body: Buffer.from(kubectlBody("secret")),
      headers: PROTOBUF,
    });
    expect([res.status, res.json.reason]).toEqual([400, "BadRequest"]);
    expect(res.json.message).toContain("cannot be handled as a ConfigMap");
    expect((await request(server, "GET", "/api/v1/namespaces/demo/secrets/s")).status).toBe(404);
  });
});
