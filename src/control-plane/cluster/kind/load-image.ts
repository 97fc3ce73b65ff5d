/**
 * Loading an image from the local engine into a running kind node, what `kind load docker-image` does: the
 * image is streamed out of Docker (`docker save`) straight into the node's containerd (`ctr --namespace k8s.io
 * images import -`), the namespace the kubelet's CRI uses. A Pod on the node can then run it with
 * `imagePullPolicy: IfNotPresent` (or Never) and no registry.
 */
import { spawn } from "node:child_process";
import { docker } from "./node-image/docker-cli.js";

/** Options of {@link loadImageIntoNode}. */
export interface LoadImageOptions {
  /** Node container id or name (default: the only running container labelled as a kind control plane). */
  node?: string;
  log?: (line: string) => void;
}

/** The running kind node containers (id and name), from the label kind and this backend put on them. */
export async function runningKindNodes(): Promise<Array<{ id: string; name: string }>> {
  const out = await docker([
    "ps",
    "--filter",
    "label=io.x-k8s.kind.role=control-plane",
    "--format",
    "{{.ID}} {{.Names}}",
  ]);
  return out
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const [id = "", name = ""] = l.trim().split(/\s+/);
      return { id, name };
    });
}

/** Streams `image` into the node's containerd; resolves with where it went and how long it took. */
export async function loadImageIntoNode(
  image: string,
  options: LoadImageOptions = {},
): Promise<{ image: string; node: string; ms: number }> {
  const started = Date.now();
  let node: string;
  if (options.node) node = options.node;
  else {
    const nodes = await runningKindNodes();
    if (nodes.length !== 1)
      throw new Error(
        nodes.length === 0
          ? "No running kind node found (start one with WORKBOOK_CLUSTER=kind)."
          : `${nodes.length} kind nodes are running (${nodes.map((n) => n.name).join(", ")}): choose one with --node.`,
      );
    node = (nodes[0] as { name: string }).name;
  }
  try {
    await docker(["image", "inspect", "--format", "{{.Id}}", image]);
  } catch {
    throw new Error(
      `The engine has no image ${image}: build or tag it first (docker images lists what it has).`,
    );
  }
  options.log?.(`kind load: ${image} -> ${node}`);
  await new Promise<void>((resolve, reject) => {
    const save = spawn("docker", ["save", image], { stdio: ["ignore", "pipe", "pipe"] });
    const load = spawn(
      "docker",
      ["exec", "-i", node, "ctr", "--namespace", "k8s.io", "images", "import", "-"],
      {
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let errors = "";
    save.stderr.on("data", (c: Buffer) => {
      errors += c.toString();
    });
    load.stderr.on("data", (c: Buffer) => {
      errors += c.toString();
    });
    load.stdout.on("data", (c: Buffer) => {
      for (const line of c.toString().split("\n")) if (line.trim()) options.log?.(`  ${line}`);
    });
    save.stdout.pipe(load.stdin);
    save.once("error", reject);
    load.once("error", reject);
    let saveCode: number | null = null;
    save.once("exit", (code) => {
      saveCode = code;
    });
    load.once("exit", (code) => {
      if (code === 0 && (saveCode === 0 || saveCode === null)) resolve();
      else
        reject(
          new Error(
            `Loading ${image} into ${node} failed (save ${saveCode}, import ${code}): ${errors.trim()}`,
          ),
        );
    });
  });
  return { image, node, ms: Date.now() - started };
}
