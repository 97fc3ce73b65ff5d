/**
 * The protobuf schema generator: its pieces on small inputs, and the checked-in table regenerated from the
 * Kubernetes modules (through the Go module proxy) must equal the file in the repository. The second part
 * is skipped, with the reason, when Go is not installed.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  GENERATED_KINDS,
  GENERATED_MESSAGE_FLAGS,
  GENERATED_MESSAGES,
} from "../../../src/control-plane/apiserver/schema/generated/kubernetes-schemas.js";
import {
  buildSchemaTable,
  groupNameOf,
  renderSchemaModule,
  shortName,
} from "../../../src/control-plane/apiserver/schema/generator/generate.js";
import {
  parseGoField,
  parseGoPackage,
  tagValue,
} from "../../../src/control-plane/apiserver/schema/generator/go-struct-tags.js";
import {
  GENERATED_SCHEMA_PATH,
  generateSchemaModule,
} from "../../../src/control-plane/apiserver/schema/generator/main.js";
import {
  markersOf,
  parseProtoFile,
} from "../../../src/control-plane/apiserver/schema/generator/proto-files.js";
import { findGo } from "../../real-clients/build.js";

const PROTO = `
syntax = "proto2";
package k8s.io.api.demo.v1;
import "k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto";

// Widget is a demo kind.
message Widget {
  optional .k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta metadata = 1;
  optional WidgetSpec spec = 2;
}

// +structType=atomic
message WidgetSpec {
  // Number of parts.
  // +optional
  optional int32 parts = 1;

  // +listType=map
  // +listMapKey=name
  // +listMapKey=port
  repeated Part parts2 = 2;

  map<string, string> labels = 3;

  optional bytes blob = 4;

  optional Part inlined = 5;
}

message Part {
  optional string name = 1;
  optional int32 port = 2;
}
`;

const GO = `
package v1

type Widget struct {
	metav1.TypeMeta \`json:",inline"\`
	metav1.ObjectMeta \`json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"\`
	Spec WidgetSpec \`json:"spec" protobuf:"bytes,2,opt,name=spec"\`
}

type WidgetSpec struct {
	// Parts is a pointer.
	Parts *int32 \`json:"partCount,omitempty" protobuf:"varint,1,opt,name=parts"\`
	Parts2 []Part \`json:"parts,omitempty" protobuf:"bytes,2,rep,name=parts2"\`
	Labels map[string]string \`json:"labels,omitempty,omitzero" protobuf:"bytes,3,rep,name=labels"\`
	Blob []byte \`json:"blob" protobuf:"bytes,4,opt,name=blob"\`
	Part \`json:",inline" protobuf:"bytes,5,opt,name=inlined"\`
}

type Part struct {
	Name string \`json:"name" protobuf:"bytes,1,opt,name=name"\`
	Port int32 \`json:"port,omitempty" protobuf:"varint,2,opt,name=port"\`
}

type Names []string

func (p Part) MarshalJSON() ([]byte, error) { return nil, nil }
`;

const META_PROTO = `
syntax = "proto2";
package k8s.io.apimachinery.pkg.apis.meta.v1;
message ObjectMeta {
  optional string name = 1;
}
`;

describe("protobuf schema generator", () => {
  it("reads Go struct tags", () => {
    expect(tagValue(`json:"a,omitempty" protobuf:"bytes,3,opt,name=a"`, "protobuf")).toBe(
      "bytes,3,opt,name=a",
    );
    expect(
      parseGoField('\tReplicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`'),
    ).toEqual({
      number: 1,
      field: {
        goName: "Replicas",
        goType: "*int32",
        json: "replicas",
        omitempty: true,
        omitzero: false,
        inline: false,
        pointer: true,
      },
    });
    expect(parseGoField('\tmetav1.TypeMeta `json:",inline"`')).toBeUndefined();
    const pkg = parseGoPackage([GO]);
    expect(pkg.structs.get("WidgetSpec")?.get(5)).toMatchObject({ goName: "Part", inline: true, json: "" });
    expect([...pkg.sliceTypes]).toEqual(["Names"]);
    expect([...pkg.customJson]).toEqual(["Part"]);
  });

  it("reads proto messages and their comment markers", () => {
    expect(markersOf("Text.\n+optional\n+listMapKey=name\n+listMapKey=port")).toEqual([
      ["optional", ""],
      ["listMapKey", "name"],
      ["listMapKey", "port"],
    ]);
    const file = parseProtoFile(PROTO);
    expect(file.packageName).toBe("k8s.io.api.demo.v1");
    const spec = file.messages.find((m) => m.fullName === "k8s.io.api.demo.v1.WidgetSpec");
    expect(spec?.markers).toEqual([["structType", "atomic"]]);
    expect(spec?.fields.map((f) => [f.number, f.type, f.repeated, f.mapKey])).toEqual([
      [1, "int32", false, undefined],
      [2, "k8s.io.api.demo.v1.Part", true, undefined],
      [3, "string", false, "string"],
      [4, "bytes", false, undefined],
      [5, "k8s.io.api.demo.v1.Part", false, undefined],
    ]);
  });

  it("joins both into rows with JSON names, presence and merge markers", () => {
    expect(shortName("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta")).toBe("meta.v1.ObjectMeta");
    expect(shortName("k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON")).toBe(
      "apiextensions.v1.JSON",
    );
    expect(groupNameOf('const GroupName = "demo.example.com"')).toBe("demo.example.com");
    const table = buildSchemaTable([
      {
        pkg: { module: "k8s.io/api", dir: "demo/v1" },
        proto: PROTO,
        goFiles: [GO],
        register: 'const GroupName = "demo.example.com"',
      },
      { pkg: { module: "k8s.io/apimachinery", dir: "pkg/apis/meta/v1" }, proto: META_PROTO, goFiles: [] },
    ]);
    expect(table.messages.get("demo.v1.WidgetSpec")).toEqual([
      [1, "partCount", "int32", "ptr"],
      [2, "parts", "demo.v1.Part", "rep listType=map listMapKey=name,port"],
      [3, "labels", "map<string,string>", "omitzero"],
      [4, "blob", "bytes", "emit"],
      [5, "", "demo.v1.Part", "inline"],
    ]);
    expect(table.messageFlags.get("demo.v1.WidgetSpec")).toBe("structType=atomic");
    expect(table.messageFlags.get("demo.v1.Part")).toBe("customJSON");
    expect([...(table.kinds.get("demo.example.com/v1") ?? new Map())]).toEqual([
      ["Widget", "demo.v1.Widget"],
    ]);
    const text = renderSchemaModule(table, { "k8s.io/api": "v0.0.1" });
    expect(text).toContain('"demo.v1.Widget": [\n    [1, "metadata", "meta.v1.ObjectMeta", ""],');
  });

  it("refuses a field its Go struct does not declare, and a type no package declares", () => {
    const go = GO.replace(/Blob \[\]byte[^\n]*\n/, "");
    const pkg = { module: "k8s.io/api", dir: "demo/v1" };
    const meta = {
      pkg: { module: "k8s.io/apimachinery", dir: "pkg/apis/meta/v1" },
      proto: META_PROTO,
      goFiles: [],
    };
    expect(() => buildSchemaTable([{ pkg, proto: PROTO, goFiles: [go] }, meta])).toThrow(/no Go field .* 4/);
    expect(() => buildSchemaTable([{ pkg, proto: PROTO, goFiles: [GO] }])).toThrow(/meta\.v1\.ObjectMeta/);
  });

  it("the checked-in table serves the kinds and meta types the server decodes", () => {
    expect(GENERATED_KINDS.v1?.ConfigMap).toBe("core.v1.ConfigMap");
    expect(GENERATED_KINDS["apps/v1"]?.StatefulSet).toBe("apps.v1.StatefulSet");
    expect(GENERATED_KINDS["apiextensions.k8s.io/v1"]?.CustomResourceDefinition).toBe(
      "apiextensions.v1.CustomResourceDefinition",
    );
    expect(GENERATED_MESSAGES["meta.v1.DeleteOptions"]?.map((r) => r[1])).toEqual([
      "gracePeriodSeconds",
      "preconditions",
      "orphanDependents",
      "propagationPolicy",
      "dryRun",
      "ignoreStoreReadErrorWithClusterBreakingPotential",
    ]);
    expect(GENERATED_MESSAGE_FLAGS["meta.v1.Time"]).toBe("customJSON");
  });
});

const go = findGo();
describe.skipIf(!go)(`generated schemas are current${go ? "" : " (skipped: Go is not installed)"}`, () => {
  it(
    "regenerating from k8s.io/api, apimachinery and apiextensions-apiserver gives the checked-in file",
    async () => {
      const path = new URL(`../../../${GENERATED_SCHEMA_PATH}`, import.meta.url);
      expect(existsSync(path)).toBe(true);
      expect(await generateSchemaModule(go)).toBe(await readFile(path, "utf8"));
    },
    10 * 60_000,
  );
});
