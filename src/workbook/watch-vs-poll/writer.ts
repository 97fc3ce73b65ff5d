import type { CoreV1Api, V1ConfigMap } from "@kubernetes/client-node";

/** The name of the `i`th object of a sweep: `obj-0000`, `obj-0001`, ... (sorted by name = sorted by index). */
export function objName(i: number): string {
  return `obj-${String(i).padStart(4, "0")}`;
}

/** One write a {@link ChangeWriter} sent: which object, its sequence number, and when (ms, `performance.now`). */
export interface Write {
  name: string;
  seq: number;
  sentAt: number;
}

/** Options of a {@link ChangeWriter}. */
export interface ChangeWriterOptions {
  /** Bytes of filler in each object's `data.payload`, so a LIST of many objects weighs what real ones do. */
  payloadBytes?: number;
  /** Objects created per round trip by {@link ChangeWriter.growTo} (default 50). */
  batch?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * "The rest of the world" of notebook 01: other clients writing ConfigMaps while a controller observes them. Every
 * write replaces the whole object (a PUT, what `kubectl replace` sends), so each one makes kube-apiserver store a
 * new resourceVersion and send one MODIFIED event to every watch of the namespace, while a LIST keeps returning
 * every object, changed or not. Each write is stamped with a sequence number in `data.seq` that only grows, over
 * the writer's whole life, so an observer can tell which version of an object it saw.
 */
export class ChangeWriter {
  private nextSeq = 0;
  private readonly payload: string;
  private readonly batch: number;

  constructor(
    private readonly core: CoreV1Api,
    options: ChangeWriterOptions = {},
  ) {
    this.payload = "x".repeat(options.payloadBytes ?? 200);
    this.batch = options.batch ?? 50;
  }

  /** The writer's objects in `namespace` (obj-NNNN), leaving out what a cluster adds there (kube-root-ca.crt). */
  async ours(namespace: string): Promise<V1ConfigMap[]> {
    const list = await this.core.listNamespacedConfigMap({ namespace });
    return list.items.filter((cm) => cm.metadata?.name?.startsWith("obj-"));
  }

  /** Creates obj-0000.. until `namespace` holds `count` of them (a batch at a time); never deletes. */
  async growTo(namespace: string, count: number): Promise<void> {
    const have = (await this.ours(namespace)).length;
    for (let i = have; i < count; i += this.batch) {
      const names = Array.from({ length: Math.min(this.batch, count - i) }, (_, j) => objName(i + j));
      await Promise.all(
        names.map((name) =>
          this.core.createNamespacedConfigMap({
            namespace,
            body: { metadata: { name }, data: { seq: "-1", payload: this.payload } },
          }),
        ),
      );
    }
  }

  /**
   * Sends `total` updates at `perSecond`, round-robin over the first `hot` objects, one after the other. A busy
   * machine sends them late (each waits for the previous answer), never fewer: the log says when each was sent.
   */
  async send(namespace: string, total: number, perSecond: number, hot: number): Promise<Write[]> {
    const log: Write[] = [];
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const wait = start + (i * 1000) / perSecond - performance.now();
      if (wait > 0) await sleep(wait);
      const name = objName(i % hot);
      const seq = this.nextSeq++;
      log.push({ name, seq, sentAt: performance.now() });
      await this.core.replaceNamespacedConfigMap({
        name,
        namespace,
        body: { metadata: { name }, data: { seq: String(seq), payload: this.payload } },
      });
    }
    return log;
  }
}
