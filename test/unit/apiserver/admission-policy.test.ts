/**
 * ValidatingAdmissionPolicy pieces the conformance scenarios do not reach: `CollectParams`' configuration errors
 * and selectors (against a fake parameter source), and whole writes through `Backend.webhookWrites` with a
 * cluster-scoped paramKind, a selector, parameterNotFoundAction Allow, and failurePolicy Ignore on a binding's
 * configuration error.
 */
import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../../src/apimachinery/object.js";
import {
  collectParams,
  ParamConfigError,
  type ParamObjects,
} from "../../../src/control-plane/apiserver/admission/policies/params.js";
import { createBackend } from "../../../src/control-plane/apiserver/backend.js";
import { compileAdmissionExpression } from "../../../src/control-plane/apiserver/validation/cel/compile.js";

function objects(namespaced: boolean, items: KubeObject[]): ParamObjects {
  const inNs = (ns: string | undefined) => items.filter((o) => o.metadata?.namespace === ns);
  return {
    namespaced,
    get: (ns, name) => inNs(ns).find((o) => o.metadata?.name === name),
    list: (ns) => inNs(ns),
  };
}

const KIND = { apiVersion: "v1", kind: "ConfigMap" };
const cm = (
  namespace: string | undefined,
  name: string,
  labels: Record<string, string> = {},
): KubeObject => ({
  metadata: { name, labels, ...(namespace ? { namespace } : {}) },
  data: { n: name },
});

describe("collectParams", () => {
  const store = objects(true, [
    cm("a", "one", { pick: "yes" }),
    cm("a", "two", { pick: "yes" }),
    cm("b", "one"),
  ]);
  const source = () => store;

  it("runs once with null params without a paramKind or without a paramRef", () => {
    expect(collectParams(undefined, undefined, "a", source)).toEqual([null]);
    expect(collectParams(KIND, undefined, "a", source)).toEqual([null]);
  });

  it("finds by name in the ref's namespace, else the request's, with apiVersion and kind set", () => {
    const byName = { name: "one", namespace: "", parameterNotFoundAction: "Deny" };
    expect(collectParams(KIND, byName, "b", source)).toEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "one", labels: {}, namespace: "b" },
        data: { n: "one" },
      },
    ]);
    const there = collectParams(KIND, { ...byName, namespace: "a" }, "b", source);
    expect(there.map((p) => p?.metadata)).toEqual([{ name: "one", labels: { pick: "yes" }, namespace: "a" }]);
  });

  it("a selector selects every matching object (one evaluation each)", () => {
    const ref = {
      name: "",
      namespace: "a",
      selector: { matchLabels: { pick: "yes" } },
      parameterNotFoundAction: "Deny",
    };
    expect(
      collectParams(KIND, ref, "", source).map((p) => (p?.data as { n?: string } | undefined)?.n),
    ).toEqual(["one", "two"]);
  });

  it("none found: Allow skips the binding, Deny is a configuration error", () => {
    const ref = { name: "missing", namespace: "", parameterNotFoundAction: "Allow" };
    expect(collectParams(KIND, ref, "a", source)).toEqual([]);
    expect(() => collectParams(KIND, { ...ref, parameterNotFoundAction: "Deny" }, "a", source)).toThrow(
      new ParamConfigError("no params found for policy binding with `Deny` parameterNotFoundAction"),
    );
  });

  it("refuses a namespace on a cluster-scoped kind, a namespaced kind for a cluster-scoped request, an unknown kind", () => {
    const ref = { name: "one", namespace: "", parameterNotFoundAction: "Deny" };
    expect(() => collectParams(KIND, ref, "", source)).toThrow(
      "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources",
    );
    const cluster = () => objects(false, [cm(undefined, "one")]);
    expect(() => collectParams(KIND, { ...ref, namespace: "a" }, "a", cluster)).toThrow(
      "paramRef.namespace must not be provided for a cluster-scoped `paramKind`",
    );
    expect(collectParams(KIND, ref, "a", cluster)).toHaveLength(1);
    expect(() => collectParams(KIND, ref, "a", () => undefined)).toThrow(
      "paramKind kind `&ParamKind{APIVersion:v1,Kind:ConfigMap,}` not known",
    );
  });
});

describe("compileAdmissionExpression", () => {
  it("declares only the variables given, and checks the result type when it is known", () => {
    expect(compileAdmissionExpression("object.x == 1", ["object"], "bool").error).toBeUndefined();
    expect(compileAdmissionExpression("params.x == 1", ["object"], "bool").error).toMatch(
      /^compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/,
    );
    expect(compileAdmissionExpression("'a'", ["object"], "bool").error).toBe(
      "must evaluate to bool but got string",
    );
    expect(compileAdmissionExpression("1", ["object"], "any").error).toBeUndefined();
  });
});

describe("policies in the embedded server's writes", () => {
  const VAP = { group: "admissionregistration.k8s.io", version: "v1" } as const;

  async function setup(policySpec: Record<string, unknown>, bindingSpec: Record<string, unknown>) {
    const backend = createBackend();
    const rt = (group: string, version: string, resource: string) => {
      const t = backend.findResource(group, version, resource);
      if (!t) throw new Error(`no ${resource}`);
      return t;
    };
    const policies = rt(VAP.group, VAP.version, "validatingadmissionpolicies");
    const bindings = rt(VAP.group, VAP.version, "validatingadmissionpolicybindings");
    await backend.webhookWrites.create(policies, undefined, {
      metadata: { name: "p" },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"] },
          ],
        },
        ...policySpec,
      },
    });
    await backend.webhookWrites.create(bindings, undefined, {
      metadata: { name: "b" },
      spec: { policyName: "p", validationActions: ["Deny"], ...bindingSpec },
    });
    const configMaps = rt("", "v1", "configmaps");
    const namespaces = rt("", "v1", "namespaces");
    const write = (name: string, a: string) =>
      backend.webhookWrites.create(configMaps, "default", { metadata: { name }, data: { a } });
    return { backend, write, namespaces };
  }

  it("a cluster-scoped paramKind (Namespace) by selector: every selected object must allow the write", async () => {
    const { backend, write, namespaces } = await setup(
      {
        paramKind: { apiVersion: "v1", kind: "Namespace" },
        validations: [
          {
            expression: "object.data.a != params.metadata.name",
            messageExpression: "'not ' + params.metadata.name",
          },
        ],
      },
      { paramRef: { selector: { matchLabels: { banned: "yes" } }, parameterNotFoundAction: "Allow" } },
    );
    // No Namespace selected yet: Allow skips the binding.
    await expect(write("first", "red")).resolves.toMatchObject({ metadata: { name: "first" } });
    for (const name of ["red", "blue"]) {
      await backend.webhookWrites.create(namespaces, undefined, {
        metadata: { name, labels: { banned: "yes" } },
      });
    }
    await expect(write("second", "blue")).rejects.toMatchObject({
      code: 422,
      message:
        "configmaps \"second\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: not blue",
    });
    await expect(write("third", "green")).resolves.toMatchObject({ metadata: { name: "third" } });
  });

  it("failurePolicy Ignore skips a binding whose parameters cannot be collected; Fail denies", async () => {
    const spec = {
      paramKind: { apiVersion: "v1", kind: "ConfigMap" },
      validations: [{ expression: "false" }],
    };
    const ref = { paramRef: { name: "missing", parameterNotFoundAction: "Deny" } };
    const ignoring = await setup({ ...spec, failurePolicy: "Ignore" }, ref);
    await expect(ignoring.write("x", "1")).resolves.toMatchObject({ metadata: { name: "x" } });
    const failing = await setup(spec, ref);
    await expect(failing.write("x", "1")).rejects.toMatchObject({
      code: 422,
      reason: "Invalid",
      message:
        "configmaps \"x\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    });
  });
});
