/**
 * The fake cloud's bucket API over HTTP, as a cloud provider serves its REST API, so a controller in another
 * process (the Go track of lab 07, labs/go-kit/cloud) calls the same {@link FakeCloud} a grader or a notebook
 * inspects in-process: the same counted calls, faults and latency.
 *
 * Routes (JSON bodies; errors answer the cloud's status with `{"code", "message"}`):
 * - `GET /v1/buckets` lists; `GET /v1/buckets/<name>` reads one (404 NotFound).
 * - `PUT /v1/buckets/<name>` with `{"region", "versioning"?, "tags"?}` creates (409 AlreadyExists), or answers
 *   the existing bucket with `?ifExists=return`, as S3's CreateBucket is a PUT of the bucket's name.
 * - `DELETE /v1/buckets/<name>` deletes and answers `{"deleted": true}` (404 NotFound), or `{"deleted": false}`
 *   for a missing bucket with `?ifMissing=ignore`.
 *
 * Bad input (unknown route, a body that is not a bucket spec) answers 400 BadRequest and changes nothing. Listens
 * on 127.0.0.1 only; {@link FakeCloudServer.stop} closes it and every connection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FakeCloudError } from "./errors.js";
import type { FakeCloud } from "./fake-cloud.js";
import type { CloudBucketSpec } from "./types.js";

/** Largest request body accepted (a bucket spec is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

class BadRequest extends Error {}

/** A running HTTP front of one {@link FakeCloud}. */
export class FakeCloudServer {
  private constructor(
    private readonly server: Server,
    /** Base URL, e.g. `http://127.0.0.1:41234`: what a client in another process is given. */
    readonly url: string,
  ) {}

  /** Serves `cloud` on a free port of 127.0.0.1; resolves once it listens. */
  static async start(cloud: FakeCloud): Promise<FakeCloudServer> {
    const server = createServer((req, res) => {
      serve(cloud, req, res).catch((err: unknown) => answerError(res, err));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new FakeCloudServer(server, `http://127.0.0.1:${port}`);
  }

  /** Stops listening and closes every connection (calls still waiting in the cloud are answered by it). */
  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }
}

async function serve(cloud: FakeCloud, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://cloud");
  const match = /^\/v1\/buckets(?:\/([^/]+))?$/.exec(url.pathname);
  if (!match) throw new BadRequest(`no route ${req.method} ${url.pathname}`);
  const name = match[1] === undefined ? undefined : decodeURIComponent(match[1]);
  if (name === undefined) {
    if (req.method !== "GET") throw new BadRequest(`${req.method} /v1/buckets: only GET lists`);
    return answer(res, 200, await cloud.listBuckets());
  }
  switch (req.method) {
    case "GET":
      return answer(res, 200, await cloud.getBucket(name));
    case "PUT": {
      const spec = bucketSpec(await readJson(req));
      const ifExists = url.searchParams.get("ifExists") === "return" ? "return" : "error";
      return answer(res, 200, await cloud.createBucket(name, spec, { ifExists }));
    }
    case "DELETE": {
      const ifMissing = url.searchParams.get("ifMissing") === "ignore" ? "ignore" : "error";
      return answer(res, 200, { deleted: await cloud.deleteBucket(name, { ifMissing }) });
    }
    default:
      throw new BadRequest(`${req.method} /v1/buckets/${name}: use GET, PUT or DELETE`);
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BadRequest(`body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BadRequest("the body is not JSON");
  }
}

/** The bucket spec in a PUT body, checked field by field. */
function bucketSpec(body: unknown): CloudBucketSpec {
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw new BadRequest("the body must be an object");
  const { region, versioning, tags } = body as Record<string, unknown>;
  if (typeof region !== "string" || region === "") throw new BadRequest("region must be a non-empty string");
  if (versioning !== undefined && typeof versioning !== "boolean")
    throw new BadRequest("versioning must be true or false");
  if (
    tags !== undefined &&
    (tags === null ||
      typeof tags !== "object" ||
      Object.values(tags as object).some((v) => typeof v !== "string"))
  )
    throw new BadRequest("tags must map strings to strings");
  const spec: CloudBucketSpec = { region, versioning: versioning === true };
  if (tags !== undefined) spec.tags = tags as Record<string, string>;
  return spec;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function answerError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof FakeCloudError) answer(res, err.status, { code: err.code, message: err.message });
  else if (err instanceof BadRequest) answer(res, 400, { code: "BadRequest", message: err.message });
  else answer(res, 500, { code: "InternalError", message: (err as Error)?.message ?? String(err) });
}
