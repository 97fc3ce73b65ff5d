import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import type { EngineClient } from "../../../src/control-plane/cluster/kind/engine.js";
import type { ImageStore } from "../../../src/control-plane/cluster/kind/image-source.js";
import {
  chooseReaper,
  OWNER_HOST_LABEL,
  OWNER_PID_LABEL,
  ownerLabels,
  removeOrphanedNodes,
} from "../../../src/control-plane/cluster/kind/reaper.js";

function store(present: string[], pullError?: string): ImageStore & { pulls: string[] } {
  const pulls: string[] = [];
  return {
    pulls,
    exists: async (image) => present.includes(image),
    pull: async (image) => {
      pulls.push(image);
      if (pullError) throw new Error(pullError);
    },
  };
}

describe("chooseReaper", () => {
  it("keeps Ryuk when its image is present, without pulling", async () => {
    const env: NodeJS.ProcessEnv = {};
    const s = store(["testcontainers/ryuk:0.14.0"]);
    expect(await chooseReaper(s, { env })).toBe("ryuk");
    expect(s.pulls).toEqual([]);
    expect(env.TESTCONTAINERS_RYUK_DISABLED).toBeUndefined();
  });

  it("keeps Ryuk when its image can be pulled", async () => {
    const env: NodeJS.ProcessEnv = {};
    expect(await chooseReaper(store([]), { env })).toBe("ryuk");
    expect(env.TESTCONTAINERS_RYUK_DISABLED).toBeUndefined();
  });

  it("disables Ryuk and says why when its image cannot be had", async () => {
    const env: NodeJS.ProcessEnv = { RYUK_CONTAINER_IMAGE: "mirror/ryuk:1" };
    const lines: string[] = [];
    const s = store([], "lookup registry-1.docker.io: no such host");
    expect(await chooseReaper(s, { env, log: (l) => lines.push(l) })).toBe("explicit");
    expect(s.pulls).toEqual(["mirror/ryuk:1"]);
    expect(env.TESTCONTAINERS_RYUK_DISABLED).toBe("true");
    expect(lines.join("\n")).toMatch(
      /mirror\/ryuk:1 cannot be had \(lookup registry-1.docker.io: no such host\)/,
    );
  });

  it("respects an explicit TESTCONTAINERS_RYUK_DISABLED either way without asking the engine", async () => {
    const s = store([], "unreachable");
    expect(await chooseReaper(s, { env: { TESTCONTAINERS_RYUK_DISABLED: "true" } })).toBe("explicit");
    expect(await chooseReaper(s, { env: { TESTCONTAINERS_RYUK_DISABLED: "false" } })).toBe("ryuk");
    expect(s.pulls).toEqual([]);
  });
});

describe("removeOrphanedNodes", () => {
  it("removes only this host's labelled nodes whose process has ended, with their volumes", async () => {
    const removed: Array<{ id: string; opts: unknown }> = [];
    const containers = [
      { Id: "dead-here", Labels: { [OWNER_PID_LABEL]: "111", [OWNER_HOST_LABEL]: hostname() } },
      { Id: "alive-here", Labels: { [OWNER_PID_LABEL]: "222", [OWNER_HOST_LABEL]: hostname() } },
      { Id: "dead-elsewhere", Labels: { [OWNER_PID_LABEL]: "111", [OWNER_HOST_LABEL]: "other-host" } },
      { Id: "garbled", Labels: { [OWNER_PID_LABEL]: "x", [OWNER_HOST_LABEL]: hostname() } },
    ];
    let filters = "";
    const client = {
      listContainers: async (opts: { filters: string }) => {
        filters = opts.filters;
        return containers;
      },
      getContainer: (id: string) => ({
        remove: async (opts: unknown) => {
          removed.push({ id, opts });
        },
      }),
    } as unknown as EngineClient;
    const ids = await removeOrphanedNodes(client, { alive: (pid) => pid === 222 });
    expect(ids).toEqual(["dead-here"]);
    expect(removed).toEqual([{ id: "dead-here", opts: { force: true, v: true } }]);
    expect(JSON.parse(filters)).toEqual({ label: [OWNER_PID_LABEL] });
  });

  it("labels a node with this process's pid and host", () => {
    expect(ownerLabels(42)).toEqual({ [OWNER_PID_LABEL]: "42", [OWNER_HOST_LABEL]: hostname() });
  });
});
