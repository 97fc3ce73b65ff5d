/**
 * Waiting for systemd inside the kind node before the first `docker exec`, kind's way: follow the container's
 * log until systemd reports the multi-user target (or the entrypoint reports cgroup v1, where the race below
 * cannot happen). On cgroup v2 an early exec lands in the container's root cgroup and the kubelet unit's
 * cgroup set-up then fails, so "is it up?" cannot be asked with exec.
 *
 * The Tty caveat: the node runs with a TTY (systemd wants one), so Docker sends the log as a raw stream. The
 * built-in `Wait.forLogMessage` demultiplexes 8-byte frame headers that are not there and misreads it; this
 * strategy reads the raw bytes and strips ANSI colour codes itself.
 */
import type { WaitStrategy } from "testcontainers";
import { type Clock, realClock } from "../../../clock/index.js";

/** kind's readiness pattern (matches both "Multi-User System." and the newer "multi-user.target - Multi-User System."). */
export const SYSTEMD_READY = /Reached target .*Multi-User System|detected cgroup v1/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is exactly what ANSI sequences start with.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * A matcher fed with raw log chunks; returns true once a complete line has matched {@link SYSTEMD_READY}.
 * Chunks may split lines anywhere; a trailing partial line is kept until the rest arrives.
 */
export function createSystemdReadyMatcher(pattern: RegExp = SYSTEMD_READY): (chunk: string) => boolean {
  let partial = "";
  let matched = false;
  return (chunk) => {
    if (matched) return true;
    const text = partial + chunk;
    const lines = text.split(/\r?\n|\r/);
    partial = lines.pop() ?? "";
    matched = lines.some((line) => pattern.test(line.replace(ANSI, "")));
    return matched;
  };
}

type DockerContainer = Parameters<WaitStrategy["waitUntilReady"]>[0];

/** A Testcontainers wait strategy that reads the raw (TTY) log until systemd is up. */
export class SystemdReadyWaitStrategy implements WaitStrategy {
  private timeoutMs = 120_000;
  private timeoutSet = false;

  constructor(private readonly clock: Clock = realClock) {}

  async waitUntilReady(container: DockerContainer): Promise<void> {
    const stream = (await container.logs({
      follow: true,
      stdout: true,
      stderr: true,
    })) as NodeJS.ReadableStream & {
      destroy?: () => void;
    };
    const feed = createSystemdReadyMatcher();
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        timer.stop();
        stream.removeAllListeners("data");
        stream.destroy?.();
        if (err) reject(err);
        else resolve();
      };
      const timer = this.clock.setTimer(this.timeoutMs, () =>
        done(
          new Error(
            `systemd in the kind node did not reach the multi-user target within ${this.timeoutMs} ms`,
          ),
        ),
      );
      stream.on("data", (chunk: Buffer | string) => {
        if (feed(chunk.toString())) done();
      });
      stream.once("error", (err: Error) => done(err));
      stream.once("end", () =>
        done(new Error("the kind node's log ended before systemd was up (did it exit?)")),
      );
    });
  }

  withStartupTimeout(startupTimeoutMs: number): this {
    this.timeoutMs = startupTimeoutMs;
    this.timeoutSet = true;
    return this;
  }

  isStartupTimeoutSet(): boolean {
    return this.timeoutSet;
  }

  getStartupTimeout(): number {
    return this.timeoutMs;
  }
}
