import { describe, expect, it } from "vitest";
import { fieldOwnershipTable, ownedFields } from "../../../src/workbook/viz/field-ownership.js";

const object = {
  metadata: {
    managedFields: [
      {
        manager: "gitops",
        operation: "Apply",
        fieldsV1: { "f:spec": { "f:data": { "f:a": {} }, "f:replicas": {} } },
      },
      {
        manager: "configset-controller",
        operation: "Update",
        subresource: "status",
        fieldsV1: { "f:status": { ".": {}, "f:replicas": {} } },
      },
      {
        manager: "kubectl-edit",
        operation: "Update",
        fieldsV1: {
          "f:metadata": { "f:finalizers": { ".": {}, 'v:"x"': {} } },
          "f:spec": { "f:list": { 'k:{"name":"web"}': { ".": {}, "f:image": {} } } },
        },
      },
    ],
  },
};

describe("ownedFields", () => {
  it("lists each leaf a manager owns, with paths as kube-apiserver prints them", () => {
    expect(ownedFields(object)).toEqual([
      { path: '.metadata.finalizers[="x"]', manager: "kubectl-edit", operation: "Update", subresource: "" },
      { path: ".spec.data.a", manager: "gitops", operation: "Apply", subresource: "" },
      { path: '.spec.list[name="web"].image', manager: "kubectl-edit", operation: "Update", subresource: "" },
      { path: ".spec.replicas", manager: "gitops", operation: "Apply", subresource: "" },
      {
        path: ".status.replicas",
        manager: "configset-controller",
        operation: "Update",
        subresource: "status",
      },
    ]);
  });

  it("is empty for an object without managedFields", () => {
    expect(ownedFields({ metadata: {} })).toEqual([]);
  });
});

describe("fieldOwnershipTable", () => {
  it("names the subresource of a status write", () => {
    const table = fieldOwnershipTable(object);
    expect(table).toContain("| `.status.replicas` | configset-controller | Update /status |");
    expect(table).toContain("| `.spec.replicas` | gitops | Apply |");
  });
});
