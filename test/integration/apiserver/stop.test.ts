import { access } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/clock/fake-clock.js";
import { openWatch, request, startServer } from "./helpers.js";

/** Counts of the active libuv resources that keep a process alive (sockets, servers, timers). */
function activeHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === "FSReqCallback" || kind === "CloseReq") continue;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

describe("EmbeddedApiServer.stop", () => {
  it("closes watches and keep-alive connections, removes the kubeconfig dir, and is idempotent", async () => {
    const handlesBefore = activeHandles();
    const clock = new FakeClock();
    const server = await startServer({ clock });
    const w = openWatch(server, "/api/v1/namespaces?watch=true");
    await w.head;
    expect(clock.pendingTimers()).toBeGreaterThan(0); // the watch's timeout
    expect((await request(server, "GET", "/healthz")).status).toBe(200);
    const path = server.kubeconfigPath;
    await access(path);
    await Promise.all([server.stop(), server.stop()]);
    await w.end;
    expect(w.ended).toBe(true);
    expect(clock.pendingTimers()).toBe(0);
    expect(server.openWatches).toBe(0);
    await expect(access(path)).rejects.toThrow();
    await expect(request(server, "GET", "/healthz")).rejects.toThrow();
    await server.stop();
    await expect(server.start()).rejects.toThrow(/after stop/);
    // Nothing left running: no server, socket or timer handle more than before start.
    await new Promise((r) => setTimeout(r, 50));
    for (const [kind, n] of Object.entries(activeHandles())) {
      expect(n, `${kind} handles after stop`).toBeLessThanOrEqual(handlesBefore[kind] ?? 0);
    }
  });
});
