/**
 * API discovery: the documents kubectl and client-go's discovery client read to learn which groups,
 * versions and resources the server serves (`/api`, `/api/v1`, `/apis`, `/apis/<group>`,
 * `/apis/<group>/<version>`), plus `/version`. `/api` and `/apis` are also kept in the aggregated format
 * (`apidiscovery.k8s.io/v2`, see `aggregated-discovery.ts`) for clients that ask for it. Rebuilt whenever the backend's served set changes (a CRD becomes established), so a
 * new kind is resolvable by the next discovery refresh. Mirrors `k8s.io/apiserver/pkg/endpoints/discovery`.
 */
import type { ResourceType } from "../types.js";
import { aggregatedDiscovery } from "./aggregated-discovery.js";

/** The Kubernetes version the embedded server reports (`/version`). */
export const SERVER_VERSION = { major: "1", minor: "32", gitVersion: "v1.32.0-workbook" } as const;

/** Verbs a status-like subresource supports. */
const SUBRESOURCE_VERBS = ["get", "patch", "update"];
const FINALIZE_VERBS = ["update"];

interface GroupVersion {
  group: string;
  version: string;
  types: ResourceType[];
}

function groupVersions(types: ResourceType[]): GroupVersion[] {
  const byKey = new Map<string, GroupVersion>();
  for (const t of types) {
    const key = `${t.group}/${t.version}`;
    let gv = byKey.get(key);
    if (!gv) {
      gv = { group: t.group, version: t.version, types: [] };
      byKey.set(key, gv);
    }
    gv.types.push(t);
  }
  return [...byKey.values()];
}

function gvString(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

/** One `APIResourceList` entry per resource and one per subresource (`configmaps/status`). */
function resourceEntries(t: ResourceType): Record<string, unknown>[] {
  const main: Record<string, unknown> = {
    name: t.resource,
    singularName: t.singular,
    namespaced: t.namespaced,
    kind: t.kind,
    verbs: [...t.verbs],
  };
  if (t.shortNames.length > 0) main.shortNames = [...t.shortNames];
  if (t.categories && t.categories.length > 0) main.categories = [...t.categories];
  const subs = t.subresources.map((sub) => ({
    name: `${t.resource}/${sub}`,
    singularName: "",
    namespaced: t.namespaced,
    kind: t.kind,
    verbs: sub === "finalize" ? FINALIZE_VERBS : SUBRESOURCE_VERBS,
  }));
  return [main, ...subs];
}

/**
 * The discovery documents for one snapshot of served resources. Pure: the server builds a new one when the
 * served set changes and answers from it until then.
 */
export class DiscoveryDocuments {
  private readonly gvs: GroupVersion[];
  private readonly docs = new Map<string, string>();
  private readonly aggregatedDocs = new Map<string, string>();

  constructor(types: ResourceType[], serverAddress: string) {
    this.gvs = groupVersions(types);
    this.docs.set("/version", JSON.stringify(versionInfo()));
    this.docs.set(
      "/api",
      JSON.stringify({
        kind: "APIVersions",
        versions: this.gvs.filter((gv) => gv.group === "").map((gv) => gv.version),
        serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }],
      }),
    );
    this.aggregatedDocs.set("/api", aggregatedDiscovery(this.gvs, true));
    this.aggregatedDocs.set("/apis", aggregatedDiscovery(this.gvs, false));
    const groups = this.apiGroups();
    this.docs.set("/apis", JSON.stringify({ kind: "APIGroupList", apiVersion: "v1", groups }));
    for (const g of groups)
      this.docs.set(`/apis/${g.name}`, JSON.stringify({ kind: "APIGroup", apiVersion: "v1", ...g }));
    for (const gv of this.gvs) {
      const path = gv.group ? `/apis/${gv.group}/${gv.version}` : `/api/${gv.version}`;
      this.docs.set(
        path,
        JSON.stringify({
          kind: "APIResourceList",
          apiVersion: "v1",
          groupVersion: gvString(gv.group, gv.version),
          resources: gv.types.flatMap(resourceEntries),
        }),
      );
    }
  }

  /** The serialized document for a discovery path, or undefined if the path is not a discovery path. */
  lookup(path: string): string | undefined {
    return this.docs.get(path);
  }

  /** The aggregated discovery document (`APIGroupDiscoveryList`) of `/api` or `/apis`, else undefined. */
  lookupAggregated(path: string): string | undefined {
    return this.aggregatedDocs.get(path);
  }

  /** Group/versions served, for the OpenAPI index. */
  groupVersions(): Array<{ group: string; version: string; types: ResourceType[] }> {
    return this.gvs;
  }

  private apiGroups() {
    const names: string[] = [];
    for (const gv of this.gvs) if (gv.group !== "" && !names.includes(gv.group)) names.push(gv.group);
    return names.map((name) => {
      const versions = this.gvs
        .filter((gv) => gv.group === name)
        .map((gv) => ({ groupVersion: gvString(name, gv.version), version: gv.version }));
      return { name, versions, preferredVersion: versions[0] };
    });
  }
}

/** The `/version` body (`version.Info`). */
export function versionInfo(): Record<string, string> {
  return {
    ...SERVER_VERSION,
    gitCommit: "0000000000000000000000000000000000000000",
    gitTreeState: "clean",
    buildDate: "2026-01-01T00:00:00Z",
    goVersion: `node${process.versions.node}`,
    compiler: "workbook",
    platform: `${process.platform}/${process.arch}`,
  };
}
