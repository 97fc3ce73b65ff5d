import { describe, expect, it } from "vitest";
import {
  AlreadyOwnedError,
  getControllerOf,
  isControlledBy,
  removeOwnerReference,
  setControllerReference,
} from "../../../src/meta/index.js";

const owner = (name: string, uid: string, namespace = "ns") => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name, namespace, uid },
});

describe("owner references", () => {
  it("setControllerReference adds a controller ref with blockOwnerDeletion, and is idempotent", () => {
    const pod: { metadata: { name: string; namespace: string; ownerReferences?: any[] } } = {
      metadata: { name: "p", namespace: "ns" },
    };
    setControllerReference(owner("web", "u1"), pod);
    setControllerReference(owner("web", "u1"), pod);
    expect(pod.metadata.ownerReferences).toEqual([
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: "web",
        uid: "u1",
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(getControllerOf(pod)?.name).toBe("web");
    expect(isControlledBy(pod, owner("web", "u1"))).toBe(true);
    expect(isControlledBy(pod, owner("web", "other-uid"))).toBe(false);
  });

  it("refuses to adopt an object controlled by another owner (AlreadyOwnedError), keeps non-controller refs", () => {
    const pod = {
      metadata: {
        name: "p",
        namespace: "ns",
        ownerReferences: [
          { apiVersion: "v1", kind: "ConfigMap", name: "cm", uid: "c" },
          { apiVersion: "apps/v1", kind: "Deployment", name: "web", uid: "u1", controller: true },
        ],
      },
    };
    const err = (() => {
      try {
        setControllerReference(owner("api", "u2"), pod);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AlreadyOwnedError);
    expect((err as Error).message).toBe("Object ns/p is already owned by another Deployment controller web");
    expect(pod.metadata.ownerReferences).toHaveLength(2);
  });

  it("rejects owners the garbage collector would consider invalid, and owners without uid", () => {
    const pod = { metadata: { name: "p", namespace: "ns" } };
    expect(() => setControllerReference(owner("web", "u1", "other"), pod)).toThrow(/cross-namespace/);
    expect(() => setControllerReference(owner("web", "u1"), { metadata: { name: "pv" } })).toThrow(
      /cluster-scoped/,
    );
    expect(() =>
      setControllerReference({ apiVersion: "v1", kind: "X", metadata: { name: "n" } }, pod),
    ).toThrow(/uid/);
    const ns = { apiVersion: "v1", kind: "Namespace", metadata: { name: "ns", uid: "n1" } };
    setControllerReference(ns, pod, { ownerNamespaced: false });
    expect(getControllerOf(pod)?.kind).toBe("Namespace");
  });

  it("removeOwnerReference removes by uid (or group/kind/name) and reports whether it changed", () => {
    const pod = {
      metadata: {
        name: "p",
        ownerReferences: [
          { apiVersion: "apps/v1", kind: "Deployment", name: "web", uid: "u1" },
          { apiVersion: "v1", kind: "ConfigMap", name: "cm", uid: "c" },
        ],
      },
    };
    expect(removeOwnerReference(pod, { apiVersion: "v1", kind: "ConfigMap", name: "cm", uid: "zzz" })).toBe(
      false,
    );
    expect(removeOwnerReference(pod, owner("web", "u1"))).toBe(true);
    expect(pod.metadata.ownerReferences.map((r) => r.name)).toEqual(["cm"]);
    expect(removeOwnerReference(pod, { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "cm" } })).toBe(
      true,
    );
    expect(pod.metadata.ownerReferences).toEqual([]);
  });
});
