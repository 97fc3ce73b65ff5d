/**
 * Grader of lab 14-webhook: the learner's validating and defaulting admission webhooks for StaticSite, graded on
 * what the API server does with them in place, never on the code: which writes are refused and with what
 * message, what is stored after defaulting, which requests reach the webhooks at all (recorded by the given
 * server's `onReview` hook), what happens to writes once the learner's server is stopped, and the two settings
 * that only show when a server hangs (timeoutSeconds, read back from the registered configurations).
 */
import {
  AdmissionregistrationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1MutatingWebhook,
  type V1ValidatingWebhook,
} from "@kubernetes/client-node";
import { isNotFound, toStatusError } from "../../apimachinery/errors.js";
import { resolveBackend } from "../../control-plane/cluster/index.js";
import { defineLab, eventually } from "../grading/index.js";
import {
  type StaticSite,
  type StaticSiteSpec,
  staticSiteClient,
  WorkbookResources,
} from "../workbook-api/index.js";
import { gradingCluster, importLab, type Scenario, withScenario } from "./support/index.js";

/**
 * The parts of an AdmissionReview request the grader reads (the lab's server hands it the whole `AdmissionRequest`
 * of control-plane/admission/webhook-server.ts, which a grader does not import: graders sit beside the control
 * plane, not on it).
 */
export interface ReviewRequest {
  operation: string;
  resource: { resource: string };
  subResource?: string;
  name?: string;
  namespace?: string;
  object?: { metadata?: { name?: string } } | null;
}

/** What `labs/14-webhook/webhook.ts` exports (given complete). */
export interface WebhookModule {
  startSiteWebhook(options: {
    kubeConfig: KubeConfig;
    name: string;
    onReview?: (webhook: "validate" | "mutate", request: ReviewRequest) => void;
  }): Promise<{ stopServer(): Promise<void>; stop(): Promise<void> }>;
}

/** One cluster for every check this worker runs, with the workbook's CRDs installed and served. */
const cluster = gradingCluster({ prefix: "lab14", workbookApi: true });

/** The longest a new configuration may take to be in effect (kube-apiserver reads them through an informer). */
const IN_EFFECT_MS = 15_000;

/** The namespace the webhooks must leave alone. */
const KUBE_SYSTEM = "kube-system";

/** A namespace's zone (the lab's README): its sites' domains live in it. */
const zoneOf = (namespace: string): string => `${namespace}.sites.example`;

/** The outcome of one write: what the API server stored (or would store), or the Status it refused with. */
type Outcome = { stored: StaticSite; refused?: undefined } | { stored?: undefined; refused: Refusal };

/** A refusal as the client sees it. */
interface Refusal {
  code: number;
  message: string;
}

function refusalOf(err: unknown): Refusal {
  const status = toStatusError(err);
  if (!status) throw err;
  return { code: status.code, message: status.message };
}

/** A review the learner's server received, and which of its two webhooks it was for. */
interface Review {
  webhook: "validate" | "mutate";
  request: ReviewRequest;
}

/** "UPDATE staticsites/status kube-system/x (validate)": one review, for a message. */
function describeReview({ webhook, request }: Review): string {
  const resource = request.subResource
    ? `${request.resource.resource}/${request.subResource}`
    : request.resource.resource;
  const name = request.name ?? request.object?.metadata?.name ?? "";
  return `${request.operation} ${resource} ${request.namespace ?? ""}/${name} (${webhook})`;
}

/** A check's world: a fresh namespace, the learner's webhook registered under the namespace's name. */
class WebhookScenario implements Scenario {
  readonly reviews: Review[] = [];
  readonly sites: ReturnType<typeof staticSiteClient>;
  readonly core: CoreV1Api;
  private readonly custom: CustomObjectsApi;
  private readonly cleanups: (() => Promise<unknown>)[] = [];
  webhook?: Awaited<ReturnType<WebhookModule["startSiteWebhook"]>>;

  private constructor(
    readonly kubeConfig: KubeConfig,
    readonly namespace: string,
  ) {
    this.sites = staticSiteClient(kubeConfig);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.custom = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  /** Opens the scenario and waits until the API server calls the learner's webhooks for a site here. */
  static async open(dir: string, label: string): Promise<WebhookScenario> {
    const lab = await importLab<WebhookModule>(dir, "webhook.js");
    const c = await cluster.get();
    const s = new WebhookScenario(c.kubeConfig, await cluster.newNamespace(label));
    s.webhook = await lab.startSiteWebhook({
      kubeConfig: c.kubeConfig,
      name: s.namespace,
      onReview: (webhook, request) => s.reviews.push({ webhook, request }),
    });
    await s.inEffect();
    return s;
  }

  get zone(): string {
    return zoneOf(this.namespace);
  }

  /**
   * Dry-run creates of a valid site until both webhooks have seen one: the configurations are in effect. A
   * dry run stores nothing, and calls only webhooks that declare no side effects.
   */
  private async inEffect(): Promise<void> {
    let probe = 0;
    await eventually(
      async () => {
        const mark = this.reviews.length;
        const name = `probe-${probe++}`;
        const outcome = await this.create({ name, spec: { replicas: 1, content: "probe" }, dryRun: true });
        if (outcome.refused)
          throw new Error(`a dry-run create of a valid site was refused: ${outcome.refused.message}`);
        const seen = new Set(
          this.reviews
            .slice(mark)
            .filter((r) => (r.request.name ?? r.request.object?.metadata?.name) === name)
            .map((r) => r.webhook),
        );
        const missing = (["validate", "mutate"] as const).filter((w) => !seen.has(w));
        if (missing.length > 0)
          throw new Error(
            `a StaticSite create in ${this.namespace} reached ${seen.size === 0 ? "neither webhook" : `only /${[...seen][0]}`}; no review arrived at ${missing.map((w) => `/${w}`).join(" or ")}`,
          );
        return true;
      },
      { timeout: IN_EFFECT_MS, interval: 200, description: "both webhooks called for a StaticSite create" },
    );
  }

  /** POSTs a site (in this namespace unless told), as a user would; a refusal is returned, not thrown. */
  async create(site: {
    name: string;
    spec: StaticSiteSpec;
    namespace?: string;
    dryRun?: boolean;
  }): Promise<Outcome> {
    const { group, version, plural, kind } = WorkbookResources.staticSites;
    const namespace = site.namespace ?? this.namespace;
    try {
      const stored = (await this.custom.createNamespacedCustomObject({
        group,
        version,
        plural,
        namespace,
        body: {
          apiVersion: `${group}/${version}`,
          kind,
          metadata: { name: site.name, namespace },
          spec: site.spec,
        },
        dryRun: site.dryRun ? "All" : undefined,
      })) as StaticSite;
      if (namespace !== this.namespace && !site.dryRun)
        this.cleanups.push(() => this.sites.delete(namespace, site.name).catch(() => {}));
      return { stored };
    } catch (err) {
      return { refused: refusalOf(err) };
    }
  }

  /** A merge patch of a site's spec; a refusal is returned, not thrown. */
  async patchSpec(name: string, spec: Partial<StaticSiteSpec> | Record<string, unknown>): Promise<Outcome> {
    return this.sites.patch(this.namespace, name, { spec }).then(
      (stored): Outcome => ({ stored }),
      (err): Outcome => ({ refused: refusalOf(err) }),
    );
  }

  /** The stored site, or undefined. */
  async get(name: string): Promise<StaticSite | undefined> {
    return this.sites.get(this.namespace, name).catch((err) => {
      if (isNotFound(err)) return undefined;
      throw err;
    });
  }

  /** Creates a site that must be accepted; throws with the refusal otherwise. */
  async mustCreate(name: string, spec: StaticSiteSpec, why: string): Promise<StaticSite> {
    const outcome = await this.create({ name, spec });
    if (outcome.refused)
      throw new Error(
        `${why}: creating ${name} ${JSON.stringify(spec)} was refused: ${outcome.refused.message}`,
      );
    return outcome.stored;
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups) await cleanup();
    await this.webhook?.stop();
  }
}

/**
 * Throws unless `outcome` is the validating webhook's denial (a 4xx whose message kube-apiserver wrote as
 * `admission webhook "..." denied the request: ...`) naming `field`.
 */
function expectDenied(outcome: Outcome, field: string, what: string): void {
  if (!outcome.refused) throw new Error(`${what} was accepted`);
  const { code, message } = outcome.refused;
  if (!message.includes("denied the request"))
    throw new Error(`${what} was refused, but not by a webhook's answer (${code}): ${message}`);
  if (code < 400 || code >= 500)
    throw new Error(
      `${what} was refused with ${code}, an error rather than a denial (did the handler throw?): ${message}`,
    );
  if (!message.includes(field))
    throw new Error(`${what} was denied with a message that does not name ${field}: ${message}`);
}

/** The requirement every other check builds on. */
const CALLED =
  "the webhooks are called: a StaticSite create in the learner's namespace reaches both the validating (/validate) and the mutating (/mutate) webhook, and a valid site is stored";

/** Why a check cannot run on this backend, else undefined. */
function unreachable(): string | undefined {
  const backend = resolveBackend();
  if (backend === "embedded" || backend === "envtest") return undefined;
  return `the ${backend} cluster's API server does not share this machine's 127.0.0.1, where the learner's webhook server listens`;
}

/** Grader of labs/14-webhook: validating and defaulting admission webhooks for StaticSite. */
export default defineLab({
  title:
    "admission webhooks for StaticSite: rules the schema cannot state, a computed default, a safe outage",
  checks(dir) {
    const notApplicable = unreachable();
    const checks = [
      {
        requirement: CALLED,
        hint: "in siteWebhookConfigurations give both webhooks a rule: operations CREATE and UPDATE, apiGroups workbook.dev, apiVersions v1alpha1, resources staticsites",
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "called"), async (s) => {
            await s.mustCreate("web", { replicas: 2, content: "hello" }, "a valid site must be stored");
          }),
      },
      {
        requirement:
          "a site that would serve nothing is refused: spec.replicas > 0 with an empty spec.content is denied (4xx, a message naming spec.content) on create and on update, and is not stored; replicas 0 with empty content is accepted",
        hint: "a rule across two fields: deny when replicas > 0 and content is empty, allow replicas 0; the rule must also run on UPDATE (rules operations, and the handler looks at every request.object)",
        needs: [CALLED],
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "empty"), async (s) => {
            expectDenied(
              await s.create({ name: "blank", spec: { replicas: 2, content: "" } }),
              "spec.content",
              "creating a site with 2 replicas and no content",
            );
            if (await s.get("blank")) throw new Error("the refused site blank was stored anyway");
            await s.mustCreate(
              "parked",
              { replicas: 0, content: "" },
              "a site with no replicas needs no content",
            );
            expectDenied(
              await s.patchSpec("parked", { replicas: 3 }),
              "spec.content",
              "scaling the empty site parked to 3 replicas",
            );
            await s.mustCreate("live", { replicas: 1, content: "hi" }, "a valid site must be stored");
            expectDenied(
              await s.patchSpec("live", { content: "" }),
              "spec.content",
              "emptying the content of live (1 replica)",
            );
            const live = await s.get("live");
            if (live?.spec.content !== "hi")
              throw new Error(
                `after the refused update, live has content ${JSON.stringify(live?.spec.content)}`,
              );
          }),
      },
      {
        requirement:
          "a site cannot claim another namespace's domain: spec.domain must be the namespace's zone <namespace>.sites.example or a name under it; any other domain is denied with a message naming spec.domain",
        hint: "compare spec.domain with zoneOf(request.namespace): equal, or ending in '.' + zone (with the dot: the zone of namespace 'a' is not a suffix of 'ba.sites.example' by accident)",
        needs: [CALLED],
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "zone"), async (s) => {
            const spec = (domain: string) => ({ replicas: 1, content: "hi", domain });
            expectDenied(
              await s.create({ name: "shop", spec: spec("shop.elsewhere.sites.example") }),
              "spec.domain",
              "a site with the domain shop.elsewhere.sites.example (namespace elsewhere's zone)",
            );
            const neighbour = `shop.other${s.zone}`;
            expectDenied(
              await s.create({ name: "shop", spec: spec(neighbour) }),
              "spec.domain",
              `a site with the domain ${neighbour} (the zone of namespace other${s.namespace}, whose name ends like this one)`,
            );
            await s.mustCreate("www", spec(`www.${s.zone}`), "a name under the namespace's zone is its own");
            await s.mustCreate("apex", spec(s.zone), "the zone itself is the namespace's own");
          }),
      },
      {
        requirement:
          "a domain, once set, does not change: an update that changes spec.domain (set by the user or by the default) is denied with a message naming spec.domain and the stored site keeps its domain; an update of the content is accepted",
        hint: "on UPDATE compare request.object with request.oldObject (the stored site): the object alone cannot tell what the domain was",
        needs: [CALLED],
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "immutable"), async (s) => {
            await s.mustCreate(
              "shop",
              { replicas: 1, content: "v1", domain: `shop.${s.zone}` },
              "a valid site",
            );
            expectDenied(
              await s.patchSpec("shop", { domain: `store.${s.zone}` }),
              "spec.domain",
              `changing the domain of shop from shop.${s.zone} to store.${s.zone}`,
            );
            const shop = await s.get("shop");
            if (shop?.spec.domain !== `shop.${s.zone}`)
              throw new Error(`after the refused update shop has the domain ${shop?.spec.domain}`);
            const edited = await s.patchSpec("shop", { content: "v2" });
            if (edited.refused)
              throw new Error(`a content edit of shop was refused: ${edited.refused.message}`);
            await s.mustCreate("plain", { replicas: 1, content: "v1" }, "a valid site");
            expectDenied(
              await s.patchSpec("plain", { domain: `moved.${s.zone}` }),
              "spec.domain",
              "changing the defaulted domain of plain",
            );
          }),
      },
      {
        requirement:
          "a site without spec.domain is stored with the default <name>.<namespace>.sites.example, a site that sets its own domain keeps it, and a whole-object update (PUT) that leaves spec.domain out is accepted and keeps the domain",
        hint: "defaultSite answers patchResponseFromRaw(request.object, copy with spec.domain) when the domain is missing, and only then; the mutating webhook must see UPDATE too, or a PUT without the domain reaches validation with no domain at all. Changing request.object in place and answering allowed() sends no patch: nothing changes",
        needs: [CALLED],
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "defaults"), async (s) => {
            const want = `plain.${s.zone}`;
            await s.mustCreate("plain", { replicas: 1, content: "v1" }, "a valid site");
            const plain = await s.get("plain");
            if (plain?.spec.domain !== want)
              throw new Error(
                `plain was created without a domain and is stored with spec.domain ${JSON.stringify(plain?.spec.domain)}, want ${JSON.stringify(want)}`,
              );
            await s.mustCreate(
              "blog",
              { replicas: 1, content: "v1", domain: `journal.${s.zone}` },
              "a valid site",
            );
            const blog = await s.get("blog");
            if (blog?.spec.domain !== `journal.${s.zone}`)
              throw new Error(
                `blog was created with the domain journal.${s.zone} and is stored with ${blog?.spec.domain}`,
              );
            if (!plain) return;
            const { domain: _dropped, ...specWithoutDomain } = plain.spec;
            const replaced = await s.sites
              .update({ ...plain, spec: { ...specWithoutDomain, content: "v2" } })
              .then(
                (stored): Outcome => ({ stored }),
                (err): Outcome => ({ refused: refusalOf(err) }),
              );
            if (replaced.refused)
              throw new Error(
                `a PUT of plain that leaves spec.domain out (content v2) was refused: ${replaced.refused.message}`,
              );
            const after = await s.get("plain");
            if (after?.spec.domain !== want || after.spec.content !== "v2")
              throw new Error(
                `after a PUT without spec.domain, plain is stored with domain ${JSON.stringify(after?.spec.domain)} and content ${after?.spec.content}, want ${want} and v2`,
              );
          }),
      },
      {
        requirement:
          "the webhooks see only what they must: no review arrives for a StaticSite written in kube-system, a ConfigMap in the learner's namespace, a site's status write, or a site's delete",
        hint: "rules: resources staticsites only (not staticsites/* or *, which take in /status), operations CREATE and UPDATE (not DELETE or *), apiGroups workbook.dev; a namespaceSelector that leaves out kube-system (the label kubernetes.io/metadata.name, NotIn)",
        needs: [CALLED],
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "scope"), async (s) => {
            await s.mustCreate("web", { replicas: 1, content: "v1" }, "a valid site");
            const mark = s.reviews.length;
            const system = await s.create({
              name: s.namespace,
              namespace: KUBE_SYSTEM,
              spec: { replicas: 1, content: "v1" },
            });
            if (system.refused)
              throw new Error(`a valid StaticSite in kube-system was refused: ${system.refused.message}`);
            await s.core.createNamespacedConfigMap({
              namespace: s.namespace,
              body: { metadata: { name: "settings" }, data: { a: "1" } },
            });
            await s.sites.patchStatus(s.namespace, "web", { status: { replicas: 1 } });
            await s.sites.delete(s.namespace, "web");
            const extra = s.reviews.slice(mark);
            if (extra.length > 0)
              throw new Error(
                `the webhooks were called for ${extra.length} request(s) they should never see: ${extra.map(describeReview).join("; ")}`,
              );
          }),
      },
      {
        requirement:
          "when the webhook server is down, StaticSite writes in the learner's namespace are refused (no site gets in unchecked), while a StaticSite in kube-system, a ConfigMap in the learner's namespace and the delete of a site still go through",
        hint: "failurePolicy Fail on the validating webhook: Ignore would store whatever arrives while the server is down. Fail is safe only with the exemptions: kube-system left out by the namespaceSelector, other kinds and DELETE left out by the rules",
        needs: [CALLED],
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "outage"), async (s) => {
            await s.mustCreate("before", { replicas: 1, content: "v1" }, "a valid site");
            await s.webhook?.stopServer();
            const bad = await s.create({ name: "blank", spec: { replicas: 2, content: "" } });
            if (bad.stored || (await s.get("blank")))
              throw new Error(
                "with the webhook server stopped, a site with 2 replicas and no content was stored: the API server skipped the webhook",
              );
            const system = await s.create({
              name: s.namespace,
              namespace: KUBE_SYSTEM,
              spec: { replicas: 1, content: "v1" },
            });
            if (system.refused)
              throw new Error(
                `with the webhook server stopped, a StaticSite in kube-system was refused: ${system.refused.message}`,
              );
            const configMap = await s.core
              .createNamespacedConfigMap({
                namespace: s.namespace,
                body: { metadata: { name: "settings" }, data: { a: "1" } },
              })
              .then(
                () => undefined,
                (err) => refusalOf(err),
              );
            if (configMap)
              throw new Error(
                `with the webhook server stopped, a ConfigMap in ${s.namespace} was refused: ${configMap.message}`,
              );
            const deleted = await s.sites.delete(s.namespace, "before").then(
              () => undefined,
              (err) => refusalOf(err),
            );
            if (deleted)
              throw new Error(
                `with the webhook server stopped, deleting the site before was refused: ${deleted.message}`,
              );
          }),
      },
      {
        requirement:
          "the webhooks answer fast or not at all: every webhook has timeoutSeconds at most 5 (the default is 10) and sideEffects None, and a dry-run create is validated and defaulted but stores nothing",
        hint: "set timeoutSeconds (1 to 5) on both webhooks: a hung server holds every site write that long; sideEffects None is what lets the API server call the webhooks on a dry run",
        needs: [CALLED],
        timeout: 30_000,
        run: () =>
          withScenario(WebhookScenario.open(dir, "settings"), async (s) => {
            const api = s.kubeConfig.makeApiClient(AdmissionregistrationV1Api);
            const hooks: (V1ValidatingWebhook | V1MutatingWebhook)[] = [
              ...((await api.readValidatingWebhookConfiguration({ name: s.namespace })).webhooks ?? []),
              ...((await api.readMutatingWebhookConfiguration({ name: s.namespace })).webhooks ?? []),
            ];
            for (const hook of hooks) {
              if ((hook.timeoutSeconds ?? 10) > 5)
                throw new Error(
                  `webhook ${hook.name} has timeoutSeconds ${hook.timeoutSeconds ?? 10}, want at most 5`,
                );
              if (hook.sideEffects !== "None")
                throw new Error(`webhook ${hook.name} declares sideEffects ${hook.sideEffects}, want None`);
            }
            expectDenied(
              await s.create({ name: "blank", spec: { replicas: 2, content: "" }, dryRun: true }),
              "spec.content",
              "a dry-run create of a site with 2 replicas and no content",
            );
            const dry = await s.create({ name: "dry", spec: { replicas: 1, content: "v1" }, dryRun: true });
            if (dry.refused)
              throw new Error(`a dry-run create of a valid site was refused: ${dry.refused.message}`);
            if (dry.stored.spec.domain !== `dry.${s.zone}`)
              throw new Error(
                `a dry-run create of dry answered spec.domain ${JSON.stringify(dry.stored.spec.domain)}, want dry.${s.zone}`,
              );
            if (await s.get("dry")) throw new Error("a dry-run create stored the site dry");
          }),
      },
    ];
    return notApplicable ? checks.map((check) => ({ ...check, notApplicable })) : checks;
  },
  teardown: () => cluster.stop(),
});
