import { joinKey } from "../apimachinery/keys.js";
import type { MetaObject } from "../apimachinery/object.js";
import { parseLabelSelector } from "../apimachinery/selectors/label-selector.js";
import { NAMESPACE_INDEX } from "./index-funcs.js";
import type { ReadonlyIndexer } from "./indexer.js";

/**
 * Which objects a lister returns: a label selector string (`app=web,tier!=db`), an equality map
 * (`{ app: "web" }`, like `matchLabels`), or anything with `matches(labels)`.
 */
export type ListerSelector =
  | string
  | Readonly<Record<string, string>>
  | { matches(labels: Record<string, string>): boolean };

function toMatcher(selector: ListerSelector | undefined): (labels: Record<string, string>) => boolean {
  if (selector === undefined) return () => true;
  if (typeof selector === "string") {
    const parsed = parseLabelSelector(selector);
    return (labels) => parsed.matches(labels);
  }
  if (typeof (selector as { matches?: unknown }).matches === "function") {
    const s = selector as { matches(labels: Record<string, string>): boolean };
    return (labels) => s.matches(labels);
  }
  const wanted = Object.entries(selector as Record<string, string>);
  return (labels) => wanted.every(([k, v]) => labels[k] === v);
}

function select<T extends MetaObject>(objects: T[], selector: ListerSelector | undefined): T[] {
  if (selector === undefined) return objects;
  const matches = toMatcher(selector);
  return objects.filter((o) => matches(o.metadata?.labels ?? {}));
}

/**
 * Reads an informer's cache the way controllers do: client-go's generated listers (`ConfigMapLister`). Every read
 * is local: no API call. The objects are the cache's own: never mutate them (copy first).
 */
export class Lister<T extends MetaObject = MetaObject> {
  constructor(private readonly indexer: ReadonlyIndexer<T>) {}

  /** Every cached object matching `selector` (all of them without one), across namespaces. */
  list(selector?: ListerSelector): T[] {
    return select(this.indexer.list(), selector);
  }

  /** One object by namespace and name (namespace `""` for cluster-scoped objects); undefined if not cached. */
  get(namespace: string, name: string): T | undefined {
    if (!name) throw new Error("Lister.get needs a name");
    return this.indexer.getByKey(joinKey(namespace, name));
  }

  /** A view restricted to one namespace (client-go's `ConfigMaps(namespace)`), served by the namespace index. */
  namespace(namespace: string): NamespaceLister<T> {
    return new NamespaceLister(this.indexer, namespace);
  }
}

/** A {@link Lister} scoped to one namespace. */
export class NamespaceLister<T extends MetaObject = MetaObject> {
  constructor(
    private readonly indexer: ReadonlyIndexer<T>,
    readonly namespaceName: string,
  ) {}

  /** Objects of this namespace matching `selector`. */
  list(selector?: ListerSelector): T[] {
    return select(this.indexer.byIndex(NAMESPACE_INDEX, this.namespaceName), selector);
  }

  /** One object of this namespace by name. */
  get(name: string): T | undefined {
    if (!name) throw new Error("NamespaceLister.get needs a name");
    return this.indexer.getByKey(joinKey(this.namespaceName, name));
  }
}
