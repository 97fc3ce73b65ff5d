import { describe, expect, it } from "vitest";
import { apiError, recorder, setup } from "./helpers.js";

const deployment = {
  metadata: { name: "web" },
  spec: {
    selector: { matchLabels: { app: "web" } },
    template: {
      metadata: { labels: { app: "web" } },
      spec: {
        containers: [
          { name: "app", image: "nginx" },
          { name: "side", image: "busybox:1.36" },
        ],
      },
    },
  },
};

describe("server-side defaults", () => {
  it("fills Deployment and pod template defaults, so re-sending the undefaulted spec is a no-op", () => {
    const { backend, deployments } = setup();
    const d = backend.create(deployments, "default", deployment);
    const spec = d.spec as Record<string, any>;
    expect(spec.replicas).toBe(1);
    expect(spec.strategy).toEqual({
      type: "RollingUpdate",
      rollingUpdate: { maxUnavailable: "25%", maxSurge: "25%" },
    });
    expect(spec.revisionHistoryLimit).toBe(10);
    expect(spec.progressDeadlineSeconds).toBe(600);
    const pod = spec.template.spec;
    expect(pod).toMatchObject({
      restartPolicy: "Always",
      dnsPolicy: "ClusterFirst",
      terminationGracePeriodSeconds: 30,
    });
    expect(pod.containers.map((c: { imagePullPolicy: string }) => c.imagePullPolicy)).toEqual([
      "Always",
      "IfNotPresent",
    ]);
    expect(pod.containers[0].terminationMessagePath).toBe("/dev/termination-log");
    const sink = recorder();
    backend.watch(deployments, "default", { resourceVersion: d.metadata!.resourceVersion! }, sink);
    const again = backend.update(deployments, "default", "web", { ...deployment, metadata: { name: "web" } });
    expect(again.metadata?.resourceVersion).toBe(d.metadata?.resourceVersion);
    expect(sink.events).toHaveLength(0);
  });

  it("allocates a ClusterIP to Services (immutable), none to headless ones, and requires ports", () => {
    const { backend, rt } = setup();
    const services = rt("", "v1", "services");
    const a = backend.create(services, "default", {
      metadata: { name: "a" },
      spec: { ports: [{ port: 80 }] },
    });
    const b = backend.create(services, "default", {
      metadata: { name: "b" },
      spec: { ports: [{ port: 80 }] },
    });
    const specA = a.spec as Record<string, any>;
    expect(specA.clusterIP).toMatch(/^10\.96\.\d+\.\d+$/);
    expect((b.spec as Record<string, any>).clusterIP).not.toBe(specA.clusterIP);
    expect(specA).toMatchObject({
      type: "ClusterIP",
      sessionAffinity: "None",
      clusterIPs: [specA.clusterIP],
    });
    expect(specA.ports).toEqual([{ port: 80, protocol: "TCP", targetPort: 80 }]);
    const kept = backend.update(services, "default", "a", {
      metadata: { name: "a" },
      spec: { ports: [{ port: 81 }] },
    });
    expect((kept.spec as Record<string, any>).clusterIP).toBe(specA.clusterIP);
    const moved = apiError(() =>
      backend.update(services, "default", "a", {
        metadata: { name: "a" },
        spec: { clusterIP: "10.0.0.1", ports: [{ port: 81 }] },
      }),
    );
    expect(moved.code).toBe(422);
    const headless = backend.create(services, "default", {
      metadata: { name: "h" },
      spec: { clusterIP: "None" },
    });
    expect((headless.spec as Record<string, any>).clusterIP).toBe("None");
    expect(
      apiError(() => backend.create(services, "default", { metadata: { name: "noports" }, spec: {} })).code,
    ).toBe(422);
    expect(
      apiError(() =>
        backend.create(services, "default", { metadata: { name: "1abc" }, spec: { ports: [{ port: 1 }] } }),
      ).code,
    ).toBe(422);
  });

  it("pods: only images (and a few scheduling fields) may change after create", () => {
    const { backend, pods } = setup();
    const p = backend.create(pods, "default", {
      metadata: { name: "p" },
      spec: { containers: [{ name: "c", image: "busybox:1" }] },
    });
    const spec = p.spec as { containers: { name: string; image: string }[] };
    const image = backend.update(pods, "default", "p", {
      ...p,
      spec: { ...spec, containers: [{ ...spec.containers[0]!, image: "busybox:2" }] },
    });
    expect((image.spec as typeof spec).containers[0]!.image).toBe("busybox:2");
    const renamed = apiError(() =>
      backend.update(pods, "default", "p", {
        ...image,
        spec: { ...spec, containers: [{ ...spec.containers[0]!, name: "d" }] },
      }),
    );
    expect(renamed.code).toBe(422);
    expect(renamed.status.details?.causes?.[0]?.message).toContain("pod updates may not change fields");
    const labelled = backend.update(pods, "default", "p", {
      ...image,
      metadata: { ...image.metadata, labels: { a: "b" } },
    });
    expect(labelled.metadata?.labels).toEqual({ a: "b" });
  });
});
