import { describe, expect, it } from "vitest";
import { sourceMarkdown, sourceOf } from "../../../src/workbook/viz/source.js";

describe("sourceOf", () => {
  it("returns a top-level function with its TSDoc, up to its closing brace", () => {
    const text = sourceOf("src/controller/enqueue-handler.ts", "enqueueHandler");
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "/** Builds handlers that add the `namespace/name` key of every notified object to `queue`. */",
    );
    expect(lines[1]).toMatch(/^export function enqueueHandler\(/);
    expect(text).toContain("deletionHandlingMetaNamespaceKeyFunc");
    expect(lines.at(-1)).toBe("}");
  });

  it("follows a signature over several lines and returns a class member", () => {
    const set = sourceOf("src/meta/owner-references.ts", "setControllerReference");
    expect(set).toContain("upsertOwnerReference(obj, ref);");
    expect(set.split("\n").at(-1)).toBe("}");
    const write = sourceOf("src/controller/event-recorder.ts", "EventRecorder.write");
    expect(write.split("\n")[0]).toBe("  private async write(");
    expect(write).toContain("this.update(prior.event, now)");
    expect(write.split("\n").at(-1)).toBe("  }");
    expect(write).not.toContain("remember(key: string");
  });

  it("refuses a name the file does not declare", () => {
    expect(() => sourceOf("src/meta/owner-references.ts", "noSuchThing")).toThrow(/declares no noSuchThing/);
  });

  it("folds the code under a summary, with the link to the file inside the fold (a summary click opens it)", () => {
    const md = sourceMarkdown("src/meta/owner-references.ts", ["getControllerOf"], "getControllerOf");
    expect(md).toMatch(/^<details><summary>getControllerOf \(src\/meta\/owner-references.ts\)<\/summary>/);
    expect(md).toContain("From [src/meta/owner-references.ts](../src/meta/owner-references.ts):");
    expect(md.slice(0, md.indexOf("</summary>"))).not.toContain("<a ");
    expect(md).toContain("```ts\n/** ");
    expect(md).toContain("ref.controller === true");
    expect(md.endsWith("</details>")).toBe(true);
  });
});
