import https from "node:https";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { generateServingCertificates } from "../../../src/control-plane/apiserver/tls.js";

function get(host: string, port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get({ host, port, ca, path: "/", agent: false }, (res) => {
        let body = "";
        res.on("data", (d) => {
          body += String(d);
        });
        res.on("end", () => resolve(body));
      })
      .on("error", reject);
  });
}

describe("generateServingCertificates", () => {
  it("produces a CA-signed serving certificate that verifies for 127.0.0.1, ::1 and localhost", async () => {
    const certs = await generateServingCertificates();
    const other = await generateServingCertificates();
    const server = https.createServer({ cert: certs.certPem, key: certs.keyPem }, (_req, res) =>
      res.end("ok"),
    );
    await new Promise<void>((r) => server.listen(0, "::", r));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await get("127.0.0.1", port, certs.caPem)).toBe("ok");
      expect(await get("localhost", port, certs.caPem)).toBe("ok");
      expect(await get("::1", port, certs.caPem)).toBe("ok");
      // A different CA must not verify this server: verification is real.
      await expect(get("127.0.0.1", port, other.caPem)).rejects.toThrow();
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
