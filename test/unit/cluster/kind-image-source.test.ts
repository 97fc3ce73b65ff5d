import { describe, expect, it } from "vitest";
import { kindUnavailableReason } from "../../../src/control-plane/cluster/kind/availability.js";
import { DEFAULT_KIND_NODE_IMAGE } from "../../../src/control-plane/cluster/kind/image.js";
import {
  chooseKindImage,
  type ImageStore,
  KindImageUnavailableError,
} from "../../../src/control-plane/cluster/kind/image-source.js";
import { localNodeImage } from "../../../src/control-plane/cluster/kind/node-image/tag.js";

const NO_REGISTRY =
  'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host';

/** An engine holding `present`; pulls succeed only for `pullable`, else fail with the registry error. */
function store(present: string[], pullable: string[] = []) {
  const pulled: string[] = [];
  const images = new Set(present);
  const s: ImageStore = {
    exists: async (image) => images.has(image),
    pull: async (image) => {
      pulled.push(image);
      if (!pullable.includes(image)) throw new Error(NO_REGISTRY);
      images.add(image);
    },
  };
  return { store: s, pulled };
}

describe("choosing the kind node image", () => {
  it("uses the public kindest/node when present, without pulling", async () => {
    const { store: s, pulled } = store([DEFAULT_KIND_NODE_IMAGE]);
    expect(await chooseKindImage(s, { env: {} })).toEqual({
      image: DEFAULT_KIND_NODE_IMAGE,
      source: "public",
    });
    expect(pulled).toEqual([]);
  });

  it("pulls the public image when a registry answers, even if a local build exists", async () => {
    const { store: s, pulled } = store([localNodeImage()], [DEFAULT_KIND_NODE_IMAGE]);
    expect((await chooseKindImage(s, { env: {} })).source).toBe("public");
    expect(pulled).toEqual([DEFAULT_KIND_NODE_IMAGE]);
  });

  it("falls back to the locally built image when the pull fails, and says so with the reason", async () => {
    const lines: string[] = [];
    const { store: s } = store([localNodeImage()]);
    const choice = await chooseKindImage(s, { env: {}, log: (l) => lines.push(l) });
    expect(choice).toEqual({ image: localNodeImage(), source: "local" });
    expect(lines.join("\n")).toContain("cannot pull");
    expect(lines.join("\n")).toContain("no such host");
    expect(lines.join("\n")).toContain("workbook kind build-image");
  });

  it("fails naming the cause and every fix when nothing can be had", async () => {
    const { store: s } = store([]);
    const error = await chooseKindImage(s, { env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KindImageUnavailableError);
    const message = (error as Error).message;
    expect(message).toContain("no such host");
    for (const fix of [
      "workbook kind build-image",
      "WORKBOOK_KIND_IMAGE",
      "embedded",
      "envtest",
      "kubeconfig",
    ])
      expect(message).toContain(fix);
  });

  it("honours WORKBOOK_KIND_IMAGE and the option (option first), and never silently swaps a named image", async () => {
    const { store: s } = store(["mine:1", "other:2", localNodeImage()]);
    expect(await chooseKindImage(s, { env: { WORKBOOK_KIND_IMAGE: "mine:1" } })).toEqual({
      image: "mine:1",
      source: "requested",
    });
    expect(
      (await chooseKindImage(s, { env: { WORKBOOK_KIND_IMAGE: "mine:1" }, requested: "other:2" })).image,
    ).toBe("other:2");
    const error = await chooseKindImage(s, { env: { WORKBOOK_KIND_IMAGE: "missing:3" } }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toContain("missing:3");
    expect((error as Error).message).toContain("WORKBOOK_KIND_IMAGE");
  });

  it("availability: the runtime reason first, then the image reason, undefined when both are there", async () => {
    const down = async () => {
      throw new Error("Could not find a working container runtime strategy");
    };
    expect(await kindUnavailableReason({ probe: down, imageStore: store([]).store })).toMatch(
      /^no container runtime/,
    );
    expect(await kindUnavailableReason({ probe: async () => {}, imageStore: store([]).store })).toMatch(
      /^no node image: .*workbook kind build-image/,
    );
    expect(
      await kindUnavailableReason({ probe: async () => {}, imageStore: store([localNodeImage()]).store }),
    ).toBeUndefined();
  });
});
