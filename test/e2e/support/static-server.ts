/**
 * A static file server on loopback for the site test: serves a folder as a web host would (index.html for a
 * folder, content types by extension, 404 otherwise) and records every path asked for.
 */
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** A running static server. */
export interface StaticServer {
  /** `http://127.0.0.1:PORT` */
  readonly base: string;
  /** Paths that were asked for and not found. */
  readonly missing: string[];
  close(): Promise<void>;
}

/** Serves `dir` on 127.0.0.1 at a free port. */
export async function serveFolder(dir: string): Promise<StaticServer> {
  const missing: string[] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir + sep) && file !== dir) {
      res.writeHead(403).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      missing.push(path);
      res.writeHead(404).end("not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    missing,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
