/**
 * The docker CLI calls the node image build makes (import, build, save, inspect, remove). Building needs
 * nothing from a registry: `docker import` turns a root filesystem tarball into an image, and `docker build`
 * only starts from images already here.
 */
import { runCommand } from "./run-command.js";

/** The docker CLI, with BuildKit off (the legacy builder works with a plain engine, no buildx plugin). */
export function docker(args: string[], log?: (line: string) => void, input?: Buffer): Promise<string> {
  return runCommand("docker", args, { env: { ...process.env, DOCKER_BUILDKIT: "0" }, log, input });
}

/** The labels of a local image, or `undefined` when the engine does not have it. */
export async function imageLabels(image: string): Promise<Record<string, string> | undefined> {
  try {
    const out = await docker(["image", "inspect", "--format", "{{json .Config.Labels}}", image]);
    return (JSON.parse(out.trim() || "null") as Record<string, string> | null) ?? {};
  } catch {
    return undefined;
  }
}
