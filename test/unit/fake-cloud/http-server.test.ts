import { afterEach, describe, expect, it } from "vitest";
import { FakeCloud, FakeCloudServer } from "../../../src/workbook/fake-cloud/index.js";

describe("FakeCloudServer: the fake cloud's bucket API over HTTP", () => {
  let cloud: FakeCloud;
  let server: FakeCloudServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
    cloud?.stop();
  });

  async function start(): Promise<string> {
    cloud = new FakeCloud();
    server = await FakeCloudServer.start(cloud);
    return server.url;
  }

  const call = async (url: string, method: string, body?: unknown) => {
    const res = await fetch(url, {
      method,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("creates, reads and deletes through the same counted calls as the in-process API", async () => {
    const url = await start();
    const made = await call(`${url}/v1/buckets/ns-photos`, "PUT", { region: "eu-west-1" });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: "ns-photos", region: "eu-west-1", versioning: false });
    expect(cloud.peek("ns-photos")?.id).toBe(made.body.id);

    expect((await call(`${url}/v1/buckets/ns-photos`, "GET")).body.id).toBe(made.body.id);
    expect(await call(`${url}/v1/buckets/ns-photos`, "PUT", { region: "eu-west-1" })).toMatchObject({
      status: 409,
      body: { code: "AlreadyExists" },
    });
    const again = await call(`${url}/v1/buckets/ns-photos?ifExists=return`, "PUT", { region: "eu-west-1" });
    expect(again).toMatchObject({ status: 200, body: { id: made.body.id } });

    expect(await call(`${url}/v1/buckets/ns-photos`, "DELETE")).toEqual({
      status: 200,
      body: { deleted: true },
    });
    expect(cloud.has("ns-photos")).toBe(false);
    expect((await call(`${url}/v1/buckets/ns-photos`, "DELETE")).body.code).toBe("NotFound");
    expect(await call(`${url}/v1/buckets/ns-photos?ifMissing=ignore`, "DELETE")).toEqual({
      status: 200,
      body: { deleted: false },
    });
    expect(cloud.calls.count({ verb: "create", effective: true })).toBe(1);
    expect(cloud.calls.count({ verb: "delete", effective: true })).toBe(1);
  });

  it("answers the cloud's faults with their status and code", async () => {
    const url = await start();
    cloud.failNext("create", 1);
    expect(await call(`${url}/v1/buckets/b`, "PUT", { region: "r" })).toMatchObject({
      status: 500,
      body: { code: "InternalError" },
    });
    cloud.setDown(true);
    expect((await call(`${url}/v1/buckets`, "GET")).status).toBe(503);
  });

  it("refuses bad input with 400 and changes nothing", async () => {
    const url = await start();
    for (const body of [
      "{not json",
      [],
      { region: "" },
      { region: "r", versioning: "yes" },
      { region: "r", tags: { a: 1 } },
    ])
      expect(await call(`${url}/v1/buckets/b`, "PUT", body)).toMatchObject({
        status: 400,
        body: { code: "BadRequest" },
      });
    expect((await call(`${url}/v2/things`, "GET")).status).toBe(400);
    expect((await call(`${url}/v1/buckets`, "DELETE")).status).toBe(400);
    expect(cloud.bucketNames()).toEqual([]);
    expect(cloud.calls.total()).toBe(0);
  });

  it("stops listening on stop()", async () => {
    const url = await start();
    await server!.stop();
    server = undefined;
    await expect(fetch(`${url}/v1/buckets`)).rejects.toThrow();
  });
});
