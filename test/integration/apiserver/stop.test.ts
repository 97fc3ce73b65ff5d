import { access } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { openWatch, request, startServer } from "./helpers.js";

describe("EmbeddedApiServer.stop", () => {
  it("closes watches and keep-alive connections, removes the kubeconfig dir, and is idempotent", async () => {
    const server = await startServer();
    const w = openWatch(server, "/api/v1/namespaces?watch=true");
    await w.head;
    expect((await request(server, "GET", "/healthz")).status).toBe(200);
    const path = server.kubeconfigPath;
    await access(path);
    await Promise.all([server.stop(), server.stop()]);
    await w.end;
    expect(w.ended).toBe(true);
    expect(server.openWatches).toBe(0);
    await expect(access(path)).rejects.toThrow();
    await expect(request(server, "GET", "/healthz")).rejects.toThrow();
    await server.stop();
    await expect(server.start()).rejects.toThrow(/after stop/);
  });
});
