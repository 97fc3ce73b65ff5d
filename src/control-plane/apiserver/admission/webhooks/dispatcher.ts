/**
 * The two webhook dispatchers of kube-apiserver's admission chain (k8s.io/apiserver plugin/webhook/mutating and
 * validating `dispatcher.go`), over the webhooks {@link shouldCallHook} selects:
 *
 * Mutating (`MutatingAdmissionWebhook`), in order (configurations by name, webhooks as listed), one at a time:
 * 1. each webhook sees the object as the previous ones left it; a JSON Patch answer is applied to it;
 * 2. an error calling the webhook (unreachable, timeout, bad answer) is skipped under failurePolicy `Ignore`
 *    and fails the request with 500 InternalError under `Fail`; a rejection always fails it;
 * 3. reinvocation: when a webhook changed the object, every earlier webhook with reinvocationPolicy `IfNeeded`
 *    is called once more, in order, after the first round (`reinvocationcontext.go`); there is no third round.
 *
 * Validating (`ValidatingAdmissionWebhook`): every selected webhook is called at once; the first error to come
 * back fails the request (rejection or, under `Fail`, the calling error as 500).
 *
 * Warnings from any answer go to the response's `Warning` headers.
 */
import { internalError, type StatusError } from "../../../../apimachinery/errors.js";
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject, jsonEqual } from "../../json.js";
import { applyJsonPatch, parseJsonPatch } from "../../patch/json-patch.js";
import { CallingWebhookError, callWebhook, rejectionError } from "./call.js";
import type { Webhook } from "./configuration.js";
import { type AdmissionAttributes, type NamespaceLabels, shouldCallHook } from "./matching.js";

/** What a dispatch needs from the server besides the request. */
export interface DispatchContext {
  /** A namespace's labels, undefined when it does not exist. */
  namespaceLabels: NamespaceLabels;
  /** Collects the answers' warnings. */
  warnings: string[];
}

/** Records warnings once each, as kube-apiserver's warning recorder does (a repeated text is dropped). */
function warn(ctx: DispatchContext, texts: readonly string[]): void {
  for (const t of texts) if (!ctx.warnings.includes(t)) ctx.warnings.push(t);
}

/** `apierrors.NewInternalError(err)` for a calling error under failurePolicy Fail. */
function failClosed(err: CallingWebhookError): StatusError {
  return internalError(err.message);
}

/** One call of a mutating webhook: the object after its patch, or the same object; throws to fail the request. */
async function callMutating(
  hook: Webhook,
  a: AdmissionAttributes,
  ctx: DispatchContext,
): Promise<KubeObject | undefined> {
  let answer: Awaited<ReturnType<typeof callWebhook>>;
  try {
    answer = await callWebhook(hook, a, true);
  } catch (err) {
    if (err instanceof CallingWebhookError) {
      if (hook.failurePolicy === "Ignore") return a.object;
      throw failClosed(err);
    }
    throw err;
  }
  warn(ctx, answer.warnings);
  if (!answer.allowed) throw rejectionError(hook.name, answer.result);
  if (answer.patch === undefined || (Array.isArray(answer.patch) && answer.patch.length === 0))
    return a.object;
  if (answer.patchType !== "JSONPatch") {
    const err = new CallingWebhookError(
      hook.name,
      `unsupported patch type ${JSON.stringify(answer.patchType)}`,
    );
    if (hook.failurePolicy === "Ignore") return a.object;
    throw failClosed(err);
  }
  let ops: ReturnType<typeof parseJsonPatch>;
  try {
    ops = parseJsonPatch(answer.patch);
  } catch (err) {
    const e = new CallingWebhookError(
      hook.name,
      `received undecodable patch in webhook response: ${(err as Error).message}`,
    );
    if (hook.failurePolicy === "Ignore") return a.object;
    throw failClosed(e);
  }
  if (ops.length === 0) return a.object;
  if (a.object === undefined) {
    throw internalError(
      `admission webhook ${JSON.stringify(hook.name)} attempted to modify the object, which is not supported for this operation`,
    );
  }
  // A patch that does not apply fails the request whatever the failurePolicy (it is not a calling error).
  let patched: unknown;
  try {
    patched = applyJsonPatch(a.object, ops);
  } catch (err) {
    throw internalError((err as Error).message);
  }
  if (!isJsonObject(patched)) throw internalError("the patched object is not a JSON object");
  return patched as KubeObject;
}

/**
 * Runs the mutating webhooks; resolves with the object they leave (the same object when none changed it), or
 * rejects with the Status that fails the request.
 */
export async function dispatchMutating(
  hooks: readonly Webhook[],
  attrs: AdmissionAttributes,
  ctx: DispatchContext,
): Promise<KubeObject | undefined> {
  let a = attrs;
  let previouslyInvoked = new Set<string>();
  const reinvoke = new Set<string>();
  let changedAny = false;
  for (const round of [0, 1]) {
    if (round === 1 && (!changedAny || reinvoke.size === 0)) break;
    for (const hook of hooks) {
      if (!shouldCallHook(hook, a, ctx.namespaceLabels)) continue;
      if (round === 1 && !reinvoke.has(hook.uid)) continue;
      const before = a.object;
      const after = await callMutating(hook, a, ctx);
      const changed = after !== before && !jsonEqual(after, before);
      if (changed) {
        a = { ...a, object: after };
        changedAny = true;
        for (const uid of previouslyInvoked) reinvoke.add(uid);
        previouslyInvoked = new Set();
      }
      if (hook.reinvocationPolicy === "IfNeeded") previouslyInvoked.add(hook.uid);
    }
  }
  return a.object;
}

/** Runs the validating webhooks in parallel; rejects with the first failure to come back. */
export async function dispatchValidating(
  hooks: readonly Webhook[],
  attrs: AdmissionAttributes,
  ctx: DispatchContext,
): Promise<void> {
  const selected = hooks.filter((h) => shouldCallHook(h, attrs, ctx.namespaceLabels));
  if (selected.length === 0) return;
  const errors: unknown[] = [];
  await Promise.all(
    selected.map(async (hook) => {
      try {
        const answer = await callWebhook(hook, attrs, false);
        warn(ctx, answer.warnings);
        if (!answer.allowed) errors.push(rejectionError(hook.name, answer.result));
      } catch (err) {
        if (err instanceof CallingWebhookError) {
          if (hook.failurePolicy !== "Ignore") errors.push(failClosed(err));
          return;
        }
        errors.push(err);
      }
    }),
  );
  if (errors.length > 0) throw errors[0];
}
