/**
 * Is a TCP port free to listen on? Asked before starting a server, so a taken port becomes one clear sentence
 * instead of a server's log lines (or, with Jupyter's default retries, a server quietly on another port).
 */
import { createServer } from "node:net";

/** The answer of {@link checkPort}: free, or why not (the error code: EADDRINUSE, EACCES, EADDRNOTAVAIL...). */
export type PortCheck = { free: true } | { free: false; code: string };

/**
 * Tries to listen on `host`:`port` and closes at once. `EADDRINUSE` means another process has it; any other
 * code (no permission for a low port, an address this machine does not have) is passed on as it is.
 */
export function checkPort(port: number, host: string): Promise<PortCheck> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) =>
      resolve({ free: false, code: err.code ?? err.message }),
    );
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve({ free: true })));
  });
}
