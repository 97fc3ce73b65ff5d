/**
 * Free loopback ports for etcd and kube-apiserver, found the way envtest's `addr.Suggest` does: bind port 0,
 * read the port the kernel picked, release it. Another process could grab it in between; the window is small
 * and start-up fails loudly if it happens.
 */
import { createServer } from "node:net";

/** Asks the kernel for a free TCP port on 127.0.0.1. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("could not get a free port"))));
    });
  });
}

/** `count` distinct free ports. */
export async function freeLoopbackPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freeLoopbackPort());
  return [...ports];
}
