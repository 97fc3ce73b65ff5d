import { canonicalElement, compareElements, type PathElement, PathElementError } from "./path-element.js";

const decoded = new WeakMap<object, FieldSet>();

/** One node of the trie: whether its own path is in the set, and the paths below it. */
interface Node {
  member: boolean;
  children: Map<PathElement, Node>;
}

function newNode(): Node {
  return { member: false, children: new Map() };
}

/**
 * A set of field paths, as structured-merge-diff's `fieldpath.Set`: the fields a manager owns, or the fields
 * an update added, changed or removed. Stored as a trie keyed by {@link PathElement}; its JSON form is exactly
 * `managedFields[].fieldsV1`: each key a path element, `{}` for a member without children, and `".": {}` inside
 * an object when the path itself is a member and has children too.
 *
 * Sets are values: the set operations return new sets and never modify their inputs.
 */
export class FieldSet {
  /** The fieldsV1 JSON, once computed (a set never changes after it is shared). */
  private encoded: Record<string, unknown> | undefined;

  private constructor(private readonly root: Node) {}

  /** The empty set. */
  static empty(): FieldSet {
    return new FieldSet(newNode());
  }

  /**
   * Reads a fieldsV1 object (`FieldsToSet`). Throws {@link PathElementError} for anything that is not one:
   * a non-object value, an unknown path element prefix, a key or value element that is not JSON.
   */
  static fromFieldsV1(json: unknown): FieldSet {
    // Stored objects are frozen and shared by every read: decode each stored fieldsV1 once.
    if (json !== null && typeof json === "object") {
      const cached = decoded.get(json);
      if (cached) return cached;
    }
    const set = FieldSet.parse(json);
    if (json !== null && typeof json === "object" && Object.isFrozen(json)) decoded.set(json, set);
    return set;
  }

  private static parse(json: unknown): FieldSet {
    const read = (value: unknown): Node => {
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        throw new PathElementError("fieldsV1 must be a JSON object");
      }
      const node = newNode();
      for (const [key, child] of Object.entries(value)) {
        if (key === ".") {
          read(child);
          node.member = true;
          continue;
        }
        const childNode = read(child);
        // `{}` is a member without children.
        if (childNode.children.size === 0) childNode.member = true;
        node.children.set(canonicalElement(key), childNode);
      }
      return node;
    };
    const root = read(json);
    root.member = false;
    const set = new FieldSet(root);
    // A stored (frozen) fieldsV1 was written by this encoder: it is its own encoding.
    if (json !== null && typeof json === "object" && Object.isFrozen(json)) {
      set.encoded = json as Record<string, unknown>;
    }
    return set;
  }

  /** Adds a path (and nothing for the empty path, which names the whole object). Mutates: only for builders. */
  insert(path: readonly PathElement[]): this {
    if (path.length === 0) return this;
    this.encoded = undefined;
    let node = this.root;
    for (const pe of path) {
      let next = node.children.get(pe);
      if (!next) {
        next = newNode();
        node.children.set(pe, next);
      }
      node = next;
    }
    node.member = true;
    return this;
  }

  /** Whether a path is a member. */
  has(path: readonly PathElement[]): boolean {
    const node = this.find(path);
    return path.length > 0 && node?.member === true;
  }

  /** Whether any member lies strictly below `path`. */
  hasDescendants(path: readonly PathElement[]): boolean {
    const node = this.find(path);
    return node !== undefined && node.children.size > 0;
  }

  private find(path: readonly PathElement[]): Node | undefined {
    let node: Node | undefined = this.root;
    for (const pe of path) {
      node = node.children.get(pe);
      if (!node) return undefined;
    }
    return node;
  }

  /** True when the set has no member. */
  isEmpty(): boolean {
    return this.root.children.size === 0;
  }

  /** The paths below one path element, as a set of their own (empty when there are none). */
  child(pe: PathElement): FieldSet {
    const node = this.root.children.get(pe);
    if (!node) return FieldSet.empty();
    const root = newNode();
    for (const [k, v] of node.children) root.children.set(k, v);
    return new FieldSet(root);
  }

  /** The top-level path elements: whether each is a member, and the set below it. */
  entries(): [PathElement, boolean, FieldSet][] {
    return [...this.root.children.keys()].map((pe) => [
      pe,
      this.root.children.get(pe)!.member,
      this.child(pe),
    ]);
  }

  /** Every member of either set. */
  union(other: FieldSet): FieldSet {
    const merge = (a: Node | undefined, b: Node | undefined): Node => {
      const out = newNode();
      out.member = (a?.member ?? false) || (b?.member ?? false);
      const keys = new Set([...(a?.children.keys() ?? []), ...(b?.children.keys() ?? [])]);
      for (const k of keys) out.children.set(k, merge(a?.children.get(k), b?.children.get(k)));
      return out;
    };
    return new FieldSet(merge(this.root, other.root));
  }

  /** The members of this set that are not members of `other` (`Set.Difference`: paths, not subtrees). */
  difference(other: FieldSet): FieldSet {
    const diff = (a: Node, b: Node | undefined): Node | undefined => {
      const out = newNode();
      out.member = a.member && !(b?.member ?? false);
      for (const [k, child] of a.children) {
        const d = b ? diff(child, b.children.get(k)) : child;
        if (d) out.children.set(k, d);
      }
      return out.member || out.children.size > 0 ? out : undefined;
    };
    return new FieldSet(diff(this.root, other.root) ?? newNode());
  }

  /** The members of both sets. */
  intersection(other: FieldSet): FieldSet {
    const both = (a: Node, b: Node): Node | undefined => {
      const out = newNode();
      out.member = a.member && b.member;
      for (const [k, child] of a.children) {
        const o = b.children.get(k);
        const d = o ? both(child, o) : undefined;
        if (d) out.children.set(k, d);
      }
      return out.member || out.children.size > 0 ? out : undefined;
    };
    return new FieldSet(both(this.root, other.root) ?? newNode());
  }

  /** This set without the subtree under the top-level field `name` (a reset-fields filter: `status`). */
  withoutField(name: string): FieldSet {
    const key = `f:${name}`;
    if (!this.root.children.has(key)) return this;
    const root = newNode();
    for (const [k, child] of this.root.children) if (k !== key) root.children.set(k, child);
    return new FieldSet(root);
  }

  /** Only the subtree under the top-level field `name`. */
  onlyField(name: string): FieldSet {
    const key = `f:${name}`;
    const root = newNode();
    const child = this.root.children.get(key);
    if (child) root.children.set(key, child);
    return new FieldSet(root);
  }

  /** Every member path, in structured-merge-diff's order (parents before their children). */
  paths(): PathElement[][] {
    const out: PathElement[][] = [];
    const walk = (node: Node, prefix: PathElement[]): void => {
      for (const k of [...node.children.keys()].sort(compareElements)) {
        const child = node.children.get(k)!;
        const path = [...prefix, k];
        if (child.member) out.push(path);
        walk(child, path);
      }
    };
    walk(this.root, []);
    return out;
  }

  /** The fieldsV1 JSON of the set (`SetToFields`), keys in structured-merge-diff's order. */
  toFieldsV1(): Record<string, unknown> {
    this.encoded ??= this.encode();
    return this.encoded;
  }

  private encode(): Record<string, unknown> {
    const emit = (node: Node, includeSelf: boolean): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      if (includeSelf && node.member && node.children.size > 0) out["."] = {};
      for (const k of [...node.children.keys()].sort(compareElements)) {
        out[k] = emit(node.children.get(k)!, true);
      }
      return out;
    };
    return emit(this.root, false);
  }
}
