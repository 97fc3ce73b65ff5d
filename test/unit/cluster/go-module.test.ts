import { describe, expect, it } from "vitest";
import {
  BUILT_COMMANDS,
  renderGoMod,
  renderMain,
  stagingModulesFrom,
  versionLdflags,
} from "../../../src/control-plane/cluster/envtest/go-module.js";

// An excerpt in the shape of k8s.io/kubernetes' go.mod.
const kubernetesGoMod = `module k8s.io/kubernetes

go 1.24.0

require (
	k8s.io/api v0.0.0
	k8s.io/client-go v0.0.0
	github.com/spf13/cobra v1.9.1
)

replace (
	k8s.io/api => ./staging/src/k8s.io/api
	k8s.io/client-go => ./staging/src/k8s.io/client-go
	k8s.io/kube-aggregator => ./staging/src/k8s.io/kube-aggregator
)
`;

describe("the generated Go module for envtest binaries", () => {
  it("reads the staging modules from k8s.io/kubernetes' replace directives", () => {
    expect(stagingModulesFrom(kubernetesGoMod)).toEqual([
      "k8s.io/api",
      "k8s.io/client-go",
      "k8s.io/kube-aggregator",
    ]);
    expect(() => stagingModulesFrom("module example.com/x\n")).toThrow(/No staging replace directives/);
  });

  it("requires the pinned release and replaces each staging module with its published v0.X.Y", () => {
    const goMod = renderGoMod("v1.34.4", ["k8s.io/api", "k8s.io/client-go"]);
    expect(goMod).toContain("require k8s.io/kubernetes v1.34.4\n");
    expect(goMod).toContain("\tk8s.io/api => k8s.io/api v0.34.4\n");
    expect(goMod).toContain("\tk8s.io/client-go => k8s.io/client-go v0.34.4\n");
    expect(goMod.startsWith("module workbook.local/envtest\n")).toBe(true);
  });

  it("writes a main package per command that runs the upstream entry point", () => {
    expect(BUILT_COMMANDS).toEqual(["kube-apiserver", "kube-controller-manager", "etcd"]);
    const main = renderMain("kube-controller-manager");
    expect(main).toContain('"k8s.io/kubernetes/cmd/kube-controller-manager/app"');
    expect(main).toContain("os.Exit(cli.Run(app.NewControllerManagerCommand()))");
    expect(renderMain("kube-apiserver")).toContain("app.NewAPIServerCommand()");
    const etcd = renderMain("etcd");
    expect(etcd).toContain('"go.etcd.io/etcd/server/v3/etcdmain"');
    expect(etcd).toContain("etcdmain.Main(os.Args)");
    expect(etcd).not.toContain("component-base/cli");
  });

  it("stamps the version into k8s.io/component-base/version", () => {
    const flags = versionLdflags("1.34.4");
    expect(flags).toContain("-X k8s.io/component-base/version.gitVersion=v1.34.4");
    expect(flags).toContain("-X k8s.io/component-base/version.gitMinor=34");
  });
});
