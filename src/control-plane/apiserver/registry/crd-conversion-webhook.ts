/**
 * `spec.conversion.strategy: Webhook`, as apiextensions-apiserver's `webhookConverter`
 * (`pkg/apiserver/conversion/webhook_converter.go`) converts: each object that is not in the version asked is
 * sent in a ConversionReview v1 (`request.uid`, `desiredAPIVersion`, `objects`) to the CRD's
 * `conversion.webhook.clientConfig` over HTTPS (the admission webhooks' client, `admission/webhooks/post.ts`), and
 * the answer is checked as kube checks it: a ConversionReview v1 for the same uid, `result.status: Success`, as
 * many objects as were sent, each in the desired apiVersion with the same kind, name, namespace and uid. Of the
 * answer's metadata only labels and annotations are kept (`restoreObjectMeta`); the rest is the original's. The
 * converted object is then pruned to the target version's schema, as for strategy None. Failures are 500s worded
 * `conversion webhook for <group/version, Kind=Kind> ...`, as kube-apiserver's.
 *
 * The registry store is synchronous and a webhook is an HTTP call, so a request that needs a conversion runs in
 * rounds ({@link WebhookConversion.run}), like the admission webhooks' passes: a conversion needed before anything
 * is written (a body to store, the live object a patch starts from) that is not known yet stops the round with
 * {@link ConversionPending}; the webhook is called, its answer remembered for the request, and the round runs
 * again. Objects read after the write (the answer of a write, GET and LIST) are handed back in the version they
 * are stored in ("deferred") and converted after the round, so nothing is written twice.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { failure, StatusError } from "../../../apimachinery/errors.js";
import type { KubeObject } from "../../../apimachinery/object.js";
import { postWebhook, type WebhookEndpoint } from "../admission/webhooks/post.js";
import { cloneJson, isJsonObject, type JsonObject, MAX_BODY_DEPTH, nestedDeeperThan } from "../json.js";
import { SharedWatchEvent } from "../storage/watch-event.js";
import type { WatchEvent, WatchSink } from "../types.js";
import { coerceToSchema, type SchemasByApiVersion, storedDefaulted } from "./crd-conversion.js";

/** kube-apiserver's conversion webhook client has no per-CRD timeout; client-go sends `?timeout=30s`. */
const CONVERSION_TIMEOUT_SECONDS = 30;

/** Rounds a request may take before giving up (each round converts what the previous one found missing). */
const MAX_ROUNDS = 8;

/** A conversion the current round needs and does not have yet: the round stops and the webhook is called. */
export class ConversionPending extends Error {
  constructor() {
    super("a conversion webhook call is needed");
  }
}

/** What one request has converted so far, and what its current round still needs. */
class ConversionSession {
  readonly converted = new Map<string, KubeObject>();
  readonly pending = new Map<string, { obj: KubeObject; target: string }>();
  /** While true, reads hand objects back unconverted; {@link WebhookConversion.run} converts them afterwards. */
  deferred = false;
}

const sessions = new AsyncLocalStorage<ConversionSession>();

/**
 * Runs `fn` with reads of webhook-converted kinds deferred: used for the answer of a write, read after the
 * write committed, which must never stop the round.
 */
export function deferringConversion<T>(fn: () => T): T {
  const session = sessions.getStore();
  if (!session || session.deferred) return fn();
  session.deferred = true;
  try {
    return fn();
  } finally {
    session.deferred = false;
  }
}

/** The part of an object the webhook's answer depends on: all but metadata other than labels and annotations. */
function cacheKey(obj: KubeObject, target: string): string {
  const meta = obj.metadata ?? {};
  return `${target}\n${JSON.stringify({ ...obj, metadata: { labels: meta.labels, annotations: meta.annotations } })}`;
}

/** `restoreObjectMeta`: the original's metadata with the answer's labels and annotations. */
function restoreObjectMeta(original: KubeObject, converted: KubeObject): KubeObject {
  const meta: JsonObject = cloneJson((original.metadata ?? {}) as JsonObject);
  const answered = (converted.metadata ?? {}) as JsonObject;
  for (const field of ["labels", "annotations"]) {
    if (answered[field] === undefined || answered[field] === null) delete meta[field];
    else meta[field] = answered[field];
  }
  return { ...converted, metadata: meta };
}

/** A CRD's conversion webhook and its versions' schemas. */
export class WebhookConversion {
  private readonly endpoint: WebhookEndpoint;

  constructor(
    readonly group: string,
    readonly kind: string,
    clientConfig: JsonObject,
    private readonly schemas: SchemasByApiVersion,
  ) {
    this.endpoint = { timeoutSeconds: CONVERSION_TIMEOUT_SECONDS };
    if (typeof clientConfig.url === "string") this.endpoint.url = clientConfig.url;
    if (isJsonObject(clientConfig.service)) this.endpoint.service = clientConfig.service;
    if (typeof clientConfig.caBundle === "string" && clientConfig.caBundle !== "") {
      this.endpoint.caBundle = Buffer.from(clientConfig.caBundle, "base64").toString("utf8");
    }
  }

  /** `GroupVersionKind.String()` of an object's apiVersion and this kind. */
  private gvk(apiVersion: string | undefined): string {
    return `${apiVersion ?? ""}, Kind=${this.kind}`;
  }

  /**
   * How a stored object reads at `target`: defaulted in the version it is stored in, then converted. In a
   * request's round the conversion comes from the webhook (or stops the round); outside one, or deferred, the
   * object is handed back in its stored version for {@link run} or {@link watchSink} to convert.
   */
  readConverter(target: string): (stored: KubeObject) => KubeObject {
    return (stored) => {
      const defaulted = storedDefaulted(stored, this.schemas);
      if (defaulted.apiVersion === target) return defaulted;
      const session = sessions.getStore();
      if (!session || session.deferred) return defaulted;
      return this.known(session, defaulted, target);
    };
  }

  /**
   * How an object written through `served` is stored: as it is when that is the storage version, otherwise
   * converted to `storage` by the webhook. (The store labels an update with the stored object's apiVersion
   * before this runs; the body's shape is the served version's.)
   */
  writeConverter(served: string, storage: string): (obj: KubeObject) => KubeObject {
    return (obj) => {
      if (served === storage) return obj.apiVersion === storage ? obj : { ...obj, apiVersion: storage };
      const session = sessions.getStore();
      const shaped = obj.apiVersion === served ? obj : { ...obj, apiVersion: served };
      if (!session) {
        throw failure(500, "", `conversion webhook for ${this.gvk(served)} failed: not called in-process`);
      }
      return this.known(session, shaped, storage);
    };
  }

  /** The conversion of `obj` this request already has, or a {@link ConversionPending} that asks for it. */
  private known(session: ConversionSession, obj: KubeObject, target: string): KubeObject {
    const key = cacheKey(obj, target);
    const converted = session.converted.get(key);
    if (converted) return coerceToSchema(restoreObjectMeta(obj, converted), this.schemas.get(target));
    session.pending.set(key, { obj, target });
    throw new ConversionPending();
  }

  /**
   * Runs one request's store calls in rounds until no conversion is missing, then converts what the result
   * holds in another version than `target` (an object, or a list's items). `deferred` for reads (GET, LIST):
   * everything is converted afterwards, one webhook call per object as the storage decodes them.
   */
  async run<T>(target: string, deferred: boolean, fn: () => T | Promise<T>): Promise<T> {
    const session = new ConversionSession();
    session.deferred = deferred;
    for (let round = 1; ; round++) {
      session.pending.clear();
      let result: T;
      try {
        result = await sessions.run(session, fn);
      } catch (err) {
        if (!(err instanceof ConversionPending)) throw err;
        if (round >= MAX_ROUNDS) throw failure(500, "", `conversion of ${this.kind} did not settle`);
        for (const [key, { obj, target: to }] of session.pending) {
          session.converted.set(key, await this.call(obj, to));
        }
        continue;
      }
      return (await this.finish(result, target)) as T;
    }
  }

  /** Converts the objects of a result that are not in `target`. */
  private async finish(result: unknown, target: string): Promise<unknown> {
    if (!isJsonObject(result)) return result;
    if (Array.isArray(result.items)) {
      const items = await Promise.all((result.items as KubeObject[]).map((o) => this.toTarget(o, target)));
      return { ...result, items };
    }
    return this.toTarget(result as KubeObject, target);
  }

  private async toTarget(obj: KubeObject, target: string): Promise<KubeObject> {
    if (obj.kind !== this.kind || obj.apiVersion === target) return obj;
    const converted = await this.call(obj, target);
    return coerceToSchema(restoreObjectMeta(obj, converted), this.schemas.get(target));
  }

  /**
   * A watch sink that converts each event's object before passing it on, in order; a conversion that fails
   * ends the watch with an ERROR event carrying the 500.
   */
  watchSink(target: string, sink: WatchSink): WatchSink {
    let chain: Promise<void> = Promise.resolve();
    let failed = false;
    const pass = (ev: WatchEvent) => {
      if (failed) return;
      if (ev.type === "BOOKMARK" || ev.type === "ERROR" || ev.object.apiVersion === target) {
        chain = chain.then(() => {
          if (!failed) sink.event(ev);
        });
        return;
      }
      const converting = this.toTarget(ev.object, target);
      chain = chain.then(async () => {
        try {
          const object = await converting;
          if (!failed) sink.event(SharedWatchEvent.fromObject(ev.type, object));
        } catch (err) {
          if (failed) return;
          failed = true;
          const status = err instanceof StatusError ? err.status : failure(500, "", String(err)).status;
          sink.event(SharedWatchEvent.fromObject("ERROR", status as unknown as KubeObject));
          sink.close();
        }
      });
    };
    return {
      event: pass,
      close: () => {
        chain = chain.then(() => {
          if (!failed) sink.close();
        });
      },
    };
  }

  /** One ConversionReview for one object (`webhookConverter.Convert`), checked; resolves with the answer's object. */
  private async call(obj: KubeObject, target: string): Promise<KubeObject> {
    const gvk = this.gvk(obj.apiVersion);
    const fail = (why: string) => failure(500, "", `conversion webhook for ${gvk} ${why}`);
    const uid = randomUUID();
    const review = {
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      request: { uid, desiredAPIVersion: target, objects: [obj] },
    };
    let answer: unknown;
    try {
      answer = await postWebhook(this.endpoint, review);
    } catch (err) {
      throw fail(`failed: ${(err as Error).message}`);
    }
    const objects = convertedObjectsOf(uid, answer, (why) => fail(`failed: ${why}`));
    if (objects.length !== 1) throw fail(`returned ${objects.length} objects, expected 1`);
    const converted = objects[0];
    if (!isJsonObject(converted)) throw fail("returned invalid object: it is not a JSON object");
    // The answer is walked below (copied, pruned): bounded as a request body is.
    if (nestedDeeperThan(converted, MAX_BODY_DEPTH)) {
      throw fail(`returned invalid object: nested deeper than ${MAX_BODY_DEPTH} levels`);
    }
    const out = converted as KubeObject;
    if (out.apiVersion !== target) {
      throw fail(
        `returned invalid object at index 0: invalid groupVersion (expected ${target}, received ${out.apiVersion ?? ""})`,
      );
    }
    if (out.kind !== obj.kind) {
      throw fail(
        `returned invalid object at index 0: invalid kind (expected ${obj.kind}, received ${out.kind ?? ""})`,
      );
    }
    const same = (field: "name" | "namespace" | "uid", label: string) => {
      const e = obj.metadata?.[field] ?? "";
      const a = out.metadata?.[field] ?? "";
      if (e !== a) throw fail(`returned invalid object: must have the same ${label}: ${e} != ${a}`);
    };
    same("name", "name");
    same("namespace", "namespace");
    same("uid", "UID");
    if (!isJsonObject(out.metadata))
      throw fail("returned invalid metadata: missing metadata in converted object");
    for (const field of ["labels", "annotations"] as const) {
      const values = out.metadata[field];
      if (values === undefined || values === null) continue;
      if (!isJsonObject(values))
        throw fail(`returned invalid metadata: invalid metadata.${field} in converted object`);
      for (const [k, v] of Object.entries(values)) {
        if (typeof v !== "string") {
          throw fail(
            `returned invalid metadata: metadata.${field}[${k}] must be a string in converted object`,
          );
        }
      }
    }
    return out;
  }
}

/** `getConvertedObjectsFromResponse` for ConversionReview v1. */
function convertedObjectsOf(uid: string, answer: unknown, fail: (why: string) => StatusError): unknown[] {
  const body = isJsonObject(answer) ? answer : {};
  if (body.apiVersion !== "apiextensions.k8s.io/v1" || body.kind !== "ConversionReview") {
    const [g, v] = String(body.apiVersion ?? "").includes("/")
      ? String(body.apiVersion).split("/")
      : ["", String(body.apiVersion ?? "")];
    throw fail(
      `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${g}/${v}, Kind=${String(body.kind ?? "")}`,
    );
  }
  const response = body.response;
  if (!isJsonObject(response)) throw fail("no response provided");
  if (response.uid !== uid) {
    throw fail(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? "")}`);
  }
  const result = isJsonObject(response.result) ? response.result : {};
  if (result.status !== "Success") {
    if (typeof result.message === "string" && result.message !== "") throw fail(result.message);
    throw fail(`response.result.status was '${String(result.status ?? "")}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}
