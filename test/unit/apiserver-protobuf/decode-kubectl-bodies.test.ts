/**
 * The bodies real kubectl sends decode to the JSON a `kubectl create -f` manifest of the same object would be
 * (the zero creationTimestamp kubectl writes is left out: k8s.io/apimachinery v0.34 tags it `omitzero`).
 */
import { describe, expect, it } from "vitest";
import { decodeKubernetesProtobuf } from "../../../src/control-plane/apiserver/serializer/protobuf/index.js";
import { kubectlBody } from "./kubectl-bodies.js";

describe("decoding kubectl 1.32's protobuf bodies", () => {
  it("create namespace", () => {
    expect(decodeKubernetesProtobuf(kubectlBody("namespace"))).toStrictEqual({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "demo" },
      spec: {},
      status: {},
    });
  });

  it("create configmap --from-literal", () => {
    expect(decodeKubernetesProtobuf(kubectlBody("configmap"))).toStrictEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "x", namespace: "demo" },
      data: { a: "b", c: "d" },
    });
  });

  it("create secret generic: data bytes become base64, the empty type is omitted", () => {
    expect(decodeKubernetesProtobuf(kubectlBody("secret"))).toStrictEqual({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s", namespace: "demo" },
      data: { k: Buffer.from("v").toString("base64") },
    });
  });

  it("create deployment: replicas, selector, template, container and port", () => {
    expect(decodeKubernetesProtobuf(kubectlBody("deployment"))).toStrictEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "demo", labels: { app: "web" } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: {
            containers: [{ name: "nginx", image: "nginx", ports: [{ containerPort: 80 }], resources: {} }],
          },
        },
        strategy: {},
      },
      status: {},
    });
  });

  it("create service clusterip: an int and a named targetPort", () => {
    expect(decodeKubernetesProtobuf(kubectlBody("service"))).toStrictEqual({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "s", namespace: "demo", labels: { app: "s" } },
      spec: {
        ports: [
          { name: "80-8080", protocol: "TCP", port: 80, targetPort: 8080 },
          { name: "443-https", protocol: "TCP", port: 443, targetPort: "https" },
        ],
        selector: { app: "s" },
        type: "ClusterIP",
      },
      status: { loadBalancer: {} },
    });
  });
});
