/**
 * Which node image the kind backend runs, and getting it into the engine. The order:
 *
 * 1. an image named explicitly (the `image` option or `WORKBOOK_KIND_IMAGE`): used if present, else pulled;
 * 2. the public kindest/node, if present or pullable (a machine with a registry: nothing to build);
 * 3. the image `workbook kind build-image` made on this machine, when the public one cannot be pulled.
 *
 * Each fallback is said out loud through `log`, and when nothing works the error names the cause (the engine's
 * own message, kept at the end) and the fixes: build the image, name one, or use another backend. The engine is
 * reached through a tiny {@link ImageStore} so the choice can be tested without Docker.
 */
import { DEFAULT_KIND_NODE_IMAGE, resolveKindImage } from "./image.js";
import { localNodeImage } from "./node-image/tag.js";

/** What the choice needs from a container engine. */
export interface ImageStore {
  /** Is the image present in the engine? */
  exists(image: string): Promise<boolean>;
  /** Pulls the image; rejects with the engine's reason. */
  pull(image: string): Promise<void>;
}

/** The image chosen and why. */
export interface KindImageChoice {
  image: string;
  /** `requested`: option or environment; `public`: kindest/node; `local`: built here by `workbook kind build-image`. */
  source: "requested" | "public" | "local";
}

/** Options of {@link chooseKindImage}. */
export interface ChooseKindImageOptions {
  /** The `image` option of the backend (wins over the environment). */
  requested?: string;
  /** Environment to read `WORKBOOK_KIND_IMAGE` from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** The public image (default {@link DEFAULT_KIND_NODE_IMAGE}). */
  publicImage?: string;
  /** The locally built image (default {@link localNodeImage}). */
  localImage?: string;
  log?: (line: string) => void;
}

/** No usable node image: the message names the cause and the fixes. */
export class KindImageUnavailableError extends Error {
  override readonly name = "KindImageUnavailableError";
  constructor(
    readonly image: string,
    readonly engineReason: string,
    fixes: string,
  ) {
    super(
      `The kind node image ${image} is not available: it is not in the container engine and pulling it failed. ${fixes} (engine said: ${engineReason})`,
    );
  }
}

function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).trim();
}

async function presentOrPulled(store: ImageStore, image: string): Promise<string | undefined> {
  if (await store.exists(image)) return undefined;
  try {
    await store.pull(image);
    return undefined;
  } catch (err) {
    return reasonOf(err) || "pull failed";
  }
}

/** Picks the node image (see the module comment) and makes sure the engine has it. */
export async function chooseKindImage(
  store: ImageStore,
  options: ChooseKindImageOptions = {},
): Promise<KindImageChoice> {
  const env = options.env ?? process.env;
  const log = options.log ?? (() => {});
  const requested = options.requested ?? env.WORKBOOK_KIND_IMAGE;
  if (requested !== undefined && requested.trim() !== "") {
    const image = resolveKindImage(requested, {});
    const cause = await presentOrPulled(store, image);
    if (cause === undefined) return { image, source: "requested" };
    throw new KindImageUnavailableError(
      image,
      cause,
      "It was asked for by name (the image option or WORKBOOK_KIND_IMAGE): check the name, load or build it " +
        "(`workbook kind build-image` makes a node image here), or unset it to let the backend choose.",
    );
  }
  const publicImage = options.publicImage ?? DEFAULT_KIND_NODE_IMAGE;
  const localImage = options.localImage ?? localNodeImage();
  const cause = await presentOrPulled(store, publicImage);
  if (cause === undefined) return { image: publicImage, source: "public" };
  if (await store.exists(localImage)) {
    log(
      `kind: cannot pull ${publicImage} (${cause}); using ${localImage}, built here by \`workbook kind build-image\``,
    );
    return { image: localImage, source: "local" };
  }
  throw new KindImageUnavailableError(
    publicImage,
    cause,
    `Fix: build a node image on this machine with \`workbook kind build-image\` (no registry needed; it becomes ` +
      `${localImage}), or set WORKBOOK_KIND_IMAGE to a node image the engine has, or use another backend: ` +
      "WORKBOOK_CLUSTER=embedded (nothing to install), envtest (real kube-apiserver, see `workbook envtest build`) " +
      "or kubeconfig (a cluster you already have).",
  );
}
