import { describe, expect, it } from "vitest";
import { tokenAuthLine } from "../../../src/control-plane/cluster/envtest/credentials.js";
import {
  type ControlPlaneLayout,
  etcdFlags,
  kubeApiserverFlags,
  kubeControllerManagerFlags,
  toArgs,
} from "../../../src/control-plane/cluster/envtest/flags.js";

const layout: ControlPlaneLayout = {
  etcdDataDir: "/tmp/x/etcd",
  etcdClientPort: 40001,
  etcdPeerPort: 40002,
  apiserverPort: 40003,
  certDir: "/tmp/x/certs",
  servingCertFile: "/tmp/x/certs/apiserver.crt",
  servingKeyFile: "/tmp/x/certs/apiserver.key",
  tokenAuthFile: "/tmp/x/certs/tokens.csv",
  serviceAccountPublicKeyFile: "/tmp/x/certs/sa.pub",
  serviceAccountSigningKeyFile: "/tmp/x/certs/sa.key",
  kubeconfigFile: "/tmp/x/kubeconfig",
};

describe("envtest command lines", () => {
  it("runs etcd as one member on the chosen loopback ports", () => {
    expect(toArgs(etcdFlags(layout))).toEqual([
      "--name=default",
      "--data-dir=/tmp/x/etcd",
      "--listen-client-urls=http://127.0.0.1:40001",
      "--advertise-client-urls=http://127.0.0.1:40001",
      "--listen-peer-urls=http://127.0.0.1:40002",
      "--initial-advertise-peer-urls=http://127.0.0.1:40002",
      "--initial-cluster=default=http://127.0.0.1:40002",
    ]);
  });

  it("points kube-apiserver at etcd, binds loopback only and uses envtest's security settings", () => {
    const flags = kubeApiserverFlags(layout);
    expect(flags).toMatchObject({
      "etcd-servers": "http://127.0.0.1:40001",
      "secure-port": "40003",
      "bind-address": "127.0.0.1",
      "token-auth-file": "/tmp/x/certs/tokens.csv",
      "authorization-mode": "RBAC",
      "service-account-issuer": "https://127.0.0.1:40003",
      "service-account-key-file": "/tmp/x/certs/sa.pub",
      "service-account-signing-key-file": "/tmp/x/certs/sa.key",
      "service-cluster-ip-range": "10.0.0.0/24",
      "disable-admission-plugins": "ServiceAccount",
    });
  });

  it("lets extra flags override the defaults", () => {
    const flags = kubeApiserverFlags(layout, { "authorization-mode": "AlwaysAllow", v: "4" });
    expect(flags["authorization-mode"]).toBe("AlwaysAllow");
    expect(toArgs(flags)).toContain("--v=4");
    expect(toArgs(flags).filter((a) => a.startsWith("--authorization-mode="))).toHaveLength(1);
  });

  it("runs only the garbage collector and namespace controllers, without leader election or a port", () => {
    expect(kubeControllerManagerFlags(layout)).toEqual({
      kubeconfig: "/tmp/x/kubeconfig",
      controllers: "garbagecollector,namespace",
      "use-service-account-credentials": "false",
      "leader-elect": "false",
      "secure-port": "0",
    });
  });

  it("lets the controller list be overridden (the envtest option controllerManagerFlags), keeping the rest", () => {
    const flags = kubeControllerManagerFlags(layout, {
      controllers: "garbagecollector,namespace,deployment,replicaset",
    });
    expect(toArgs(flags)).toContain("--controllers=garbagecollector,namespace,deployment,replicaset");
    expect(toArgs(flags).filter((a) => a.startsWith("--controllers="))).toHaveLength(1);
    expect(flags["leader-elect"]).toBe("false");
  });

  it("writes a token file line in kube-apiserver's CSV format", () => {
    expect(tokenAuthLine("abc", "admin", ["system:masters", "devs"])).toBe(
      'abc,admin,admin,"system:masters,devs"\n',
    );
  });
});
