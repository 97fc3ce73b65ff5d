import { ApiException, KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import {
  alreadyExists,
  conflict,
  ExpiredError,
  expired,
  isAlreadyExists,
  isConflict,
  isConnectionRefused,
  isExpired,
  isNotFound,
  isTooLargeResourceVersion,
  isTooManyRequests,
  notFound,
  StatusError,
  toStatusError,
} from "../../../src/apimachinery/errors.js";
import { ListWatch } from "../../../src/client/list-watch.js";
import { BuiltinResources } from "../../../src/client/resource-descriptor.js";

const status410 = {
  kind: "Status",
  code: 410,
  reason: "Expired",
  message: "too old resource version: 5 (9)",
};

describe("Status errors", () => {
  it("is one family: what the server builds is what the client's predicates read", () => {
    const target = { group: "", resource: "configmaps", name: "a" };
    expect(notFound(target)).toBeInstanceOf(StatusError);
    expect(isNotFound(notFound(target))).toBe(true);
    expect(isConflict(conflict(target))).toBe(true);
    expect(isAlreadyExists(alreadyExists(target))).toBe(true);
    expect(isConflict(alreadyExists(target))).toBe(false);
    expect(expired("too old resource version: 1 (5)")).toBeInstanceOf(ExpiredError);
    // The same Status, sent over the wire as text and read back by client-node, is the same error again.
    const wire = new ApiException(404, "Not Found", JSON.stringify(notFound(target).status), {});
    expect(toStatusError(wire)?.status).toEqual(notFound(target).status);
    expect(isNotFound(wire)).toBe(true);
  });

  it("parses client-node's ApiException (Status body as text) into a typed error", () => {
    const e = toStatusError(
      new ApiException(410, "Unsuccessful HTTP Request", JSON.stringify(status410), {}),
    );
    expect(e).toBeInstanceOf(ExpiredError);
    expect(e).toMatchObject({ code: 410, reason: "Expired", message: "too old resource version: 5 (9)" });
    const conflict = toStatusError(
      new ApiException(409, "x", '{"kind":"Status","code":409,"reason":"Conflict"}', {}),
    );
    expect(conflict).toBeInstanceOf(StatusError);
    expect(conflict).not.toBeInstanceOf(ExpiredError);
  });

  it("understands client-node Watch errors (statusCode, no body) and in-stream Status objects", () => {
    const watchErr = Object.assign(new Error("Gone"), { statusCode: 410 });
    expect(isExpired(watchErr)).toBe(true);
    expect(isExpired(status410)).toBe(true);
    expect(isTooManyRequests(Object.assign(new Error("Too Many Requests"), { statusCode: 429 }))).toBe(true);
    expect(isExpired(new Error("plain"))).toBe(false);
    expect(toStatusError("weird")).toBeUndefined();
    expect(toStatusError(new Error("ECONNRESET"))).toBeUndefined();
  });

  it("recognises a too-large resourceVersion by cause or message", () => {
    const byCause = {
      kind: "Status",
      code: 504,
      reason: "Timeout",
      details: { causes: [{ reason: "ResourceVersionTooLarge" }] },
    };
    expect(isTooLargeResourceVersion(byCause)).toBe(true);
    expect(
      isTooLargeResourceVersion({
        kind: "Status",
        code: 504,
        message: "Too large resource version: 9, current: 3",
      }),
    ).toBe(true);
    expect(isTooLargeResourceVersion({ kind: "Status", code: 504, message: "timeout" })).toBe(false);
  });

  it("detects connection refused from a real failed request", async () => {
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: "c", server: "https://127.0.0.1:1", skipTLSVerify: true },
      { name: "u" },
    );
    const lw = new ListWatch(kc, BuiltinResources.configMaps);
    const err = await lw.list({}).catch((e: unknown) => e);
    expect(isConnectionRefused(err)).toBe(true);
    const werr = await lw.watch({}, () => {}, new AbortController().signal).catch((e: unknown) => e);
    expect(isConnectionRefused(werr)).toBe(true);
    await lw.close();
  });
});
