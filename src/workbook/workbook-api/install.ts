/**
 * One call to make a cluster serve the workbook's kinds, and one to remove them: what `make install` /
 * `make uninstall` do in a kubebuilder project (`kubectl apply -f config/crd` and `kubectl delete -f`), plus the
 * wait a test suite does (envtest's `WaitForCRDs`): a CRD is usable only once its `Established` condition is
 * True and the new resource answers a LIST.
 */
import { createHash } from "node:crypto";
import { CustomObjectsApi, type KubeConfig } from "@kubernetes/client-node";
import { isAlreadyExists, isConflict, isNotFound } from "../../apimachinery/errors.js";
import { type CrdManifest, WORKBOOK_CRDS } from "./crds.js";

/** Annotation holding a hash of the manifest a CRD was installed from; equal hash = nothing to update. */
export const MANIFEST_HASH_ANNOTATION = "workbook.dev/manifest-sha256";

const CRD_REF = { group: "apiextensions.k8s.io", version: "v1", plural: "customresourcedefinitions" };

/** Options of {@link installWorkbookApi} and {@link uninstallWorkbookApi}. */
export interface WorkbookApiOptions {
  /** Give up (throw) after this long. Default 60 s. */
  timeoutMs?: number;
  /** Pause between two checks while waiting. Default 100 ms. */
  pollMs?: number;
  /** Which CRDs; default all of {@link WORKBOOK_CRDS}. */
  crds?: readonly CrdManifest[];
}

/** What {@link installWorkbookApi} did to each CRD: created, updated (manifest changed) or unchanged. */
export interface InstallResult {
  name: string;
  action: "created" | "updated" | "unchanged";
}

interface StoredCrd {
  metadata?: { resourceVersion?: string; deletionTimestamp?: string; annotations?: Record<string, string> };
  status?: { conditions?: { type?: string; status?: string }[] };
}

function hashOf(crd: CrdManifest): string {
  return createHash("sha256").update(JSON.stringify(crd)).digest("hex").slice(0, 32);
}

function withHash(crd: CrdManifest, resourceVersion?: string): CrdManifest {
  const metadata = {
    ...crd.metadata,
    annotations: { [MANIFEST_HASH_ANNOTATION]: hashOf(crd) },
    ...(resourceVersion ? { resourceVersion } : {}),
  };
  return { ...crd, metadata };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(what: string, timeoutMs: number, pollMs: number, ok: () => Promise<boolean>) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ok()) return;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(pollMs);
  }
}

async function readCrd(api: CustomObjectsApi, name: string): Promise<StoredCrd | undefined> {
  try {
    return (await api.getClusterCustomObject({ ...CRD_REF, name })) as StoredCrd;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function served(api: CustomObjectsApi, crd: CrdManifest): Promise<boolean> {
  const version = crd.spec.versions[0]?.name ?? "";
  try {
    await api.listCustomObjectForAllNamespaces({
      group: crd.spec.group,
      version,
      plural: crd.spec.names.plural,
      limit: 1,
    });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

function established(crd: StoredCrd | undefined): boolean {
  return (crd?.status?.conditions ?? []).some((c) => c.type === "Established" && c.status === "True");
}

/**
 * Creates or updates one CRD. Two installers at once (two notebooks on one cluster) are fine: a create that
 * answers 409 AlreadyExists, or an update that answers 409 Conflict, reads the CRD again and decides again.
 */
async function applyCrd(
  api: CustomObjectsApi,
  crd: CrdManifest,
  timeoutMs: number,
  pollMs: number,
): Promise<InstallResult> {
  const name = crd.metadata.name;
  for (let attempt = 1; ; attempt++) {
    let stored = await readCrd(api, name);
    if (stored?.metadata?.deletionTimestamp) {
      await until(`${name} to finish deleting`, timeoutMs, pollMs, async () => !(await readCrd(api, name)));
      stored = undefined;
    }
    try {
      if (!stored) {
        await api.createClusterCustomObject({ ...CRD_REF, body: withHash(crd) });
        return { name, action: "created" };
      }
      if (stored.metadata?.annotations?.[MANIFEST_HASH_ANNOTATION] === hashOf(crd)) {
        return { name, action: "unchanged" };
      }
      const body = withHash(crd, stored.metadata?.resourceVersion);
      await api.replaceClusterCustomObject({ ...CRD_REF, name, body });
      return { name, action: "updated" };
    } catch (err) {
      if (attempt >= 5 || !(isAlreadyExists(err) || isConflict(err))) throw err;
    }
  }
}

/**
 * Installs (or updates) the workbook's CRDs and waits until every kind is Established and served. Idempotent:
 * a second call finds the same manifest hash and changes nothing. A CRD still being deleted (an uninstall in
 * flight) is waited out, then created again. Works on every backend: it only speaks the Kubernetes API.
 */
export async function installWorkbookApi(
  kubeConfig: KubeConfig,
  options: WorkbookApiOptions = {},
): Promise<InstallResult[]> {
  const { timeoutMs = 60_000, pollMs = 100, crds = WORKBOOK_CRDS } = options;
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
  const results: InstallResult[] = [];
  for (const crd of crds) results.push(await applyCrd(api, crd, timeoutMs, pollMs));
  for (const crd of crds) {
    const name = crd.metadata.name;
    await until(`${name} to be Established`, timeoutMs, pollMs, async () =>
      established(await readCrd(api, name)),
    );
    await until(`${crd.spec.names.plural}.${crd.spec.group} to be served`, timeoutMs, pollMs, () =>
      served(api, crd),
    );
  }
  return results;
}

/**
 * Deletes the workbook's CRDs and waits until they are gone and no longer served. Deleting a CRD deletes
 * every object of its kind first; on a real cluster an object whose finalizer nobody removes keeps the CRD
 * Terminating (and this call times out), so stop Bucket controllers only after their Buckets are gone.
 * Idempotent: missing CRDs are fine.
 */
export async function uninstallWorkbookApi(
  kubeConfig: KubeConfig,
  options: WorkbookApiOptions = {},
): Promise<void> {
  const { timeoutMs = 60_000, pollMs = 100, crds = WORKBOOK_CRDS } = options;
  const api = kubeConfig.makeApiClient(CustomObjectsApi);
  for (const crd of crds) {
    try {
      await api.deleteClusterCustomObject({ ...CRD_REF, name: crd.metadata.name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  for (const crd of crds) {
    const name = crd.metadata.name;
    await until(`${name} to be deleted`, timeoutMs, pollMs, async () => !(await readCrd(api, name)));
    await until(
      `${crd.spec.names.plural}.${crd.spec.group} to stop being served`,
      timeoutMs,
      pollMs,
      async () => !(await served(api, crd)),
    );
  }
}
