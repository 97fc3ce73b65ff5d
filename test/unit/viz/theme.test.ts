import { describe, expect, it } from "vitest";
import {
  mermaidFrontMatter,
  PALETTE,
  SERIES_INKS,
  STATE_NAMES,
  stateClassDef,
  stateClassDefs,
} from "../../../src/workbook/viz/index.js";

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** JupyterLab's page backgrounds (--jp-layout-color0) in its light and dark themes. */
const LIGHT_PAGE = "#ffffff";
const DARK_PAGE = "#111111";

describe("the palette", () => {
  it("the contrast helper agrees with WCAG's extremes", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#777777")).toBe(1);
  });

  it.each(STATE_NAMES)(
    "%s: text reads on its fill (>= 7:1) and its ink on both page themes (>= 3:1)",
    (name) => {
      const s = PALETTE[name];
      for (const colour of [s.fill, s.stroke, s.text, s.ink]) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
      expect(contrast(s.text, s.fill)).toBeGreaterThanOrEqual(7);
      expect(contrast(s.ink, LIGHT_PAGE)).toBeGreaterThanOrEqual(3);
      expect(contrast(s.ink, DARK_PAGE)).toBeGreaterThanOrEqual(3);
      expect(s.meaning.length).toBeGreaterThan(5);
    },
  );

  it("series inks read on both page themes and differ from each other", () => {
    for (const ink of SERIES_INKS) {
      expect(contrast(ink, LIGHT_PAGE)).toBeGreaterThanOrEqual(3);
      expect(contrast(ink, DARK_PAGE)).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(SERIES_INKS).size).toBe(SERIES_INKS.length);
  });

  it("gives every meaning its own fill and ink", () => {
    expect(new Set(STATE_NAMES.map((n) => PALETTE[n].fill)).size).toBe(STATE_NAMES.length);
    expect(new Set(STATE_NAMES.map((n) => PALETTE[n].ink)).size).toBe(STATE_NAMES.length);
  });

  it("writes classDef lines for static diagrams: focus thicker, deleting dashed", () => {
    expect(stateClassDef("converged")).toBe(
      "classDef converged fill:#d3f0d6,stroke:#2e7d32,color:#0b2e13,stroke-width:2px",
    );
    expect(stateClassDef("focus")).toContain("stroke-width:3px");
    expect(stateClassDef("deleting")).toContain("stroke-dasharray:6 3");
    expect(stateClassDefs()).toHaveLength(STATE_NAMES.length);
    expect(stateClassDefs(["error"])).toEqual([stateClassDef("error")]);
  });
});

describe("mermaidFrontMatter", () => {
  it("writes nested config as YAML, quoting strings and leaving out what is unset", () => {
    expect(
      mermaidFrontMatter({
        xyChart: { width: 500, height: undefined },
        themeVariables: { a: "#fff", b: true },
      }),
    ).toEqual([
      "---",
      "config:",
      "  xyChart:",
      "    width: 500",
      "  themeVariables:",
      '    a: "#fff"',
      "    b: true",
      "---",
    ]);
  });

  it("writes nothing for an empty config, and refuses bad keys and numbers", () => {
    expect(mermaidFrontMatter({})).toEqual([]);
    expect(mermaidFrontMatter({ xyChart: { width: undefined } })).toEqual([]);
    expect(() => mermaidFrontMatter({ "a b": 1 })).toThrow(/bad key/);
    expect(() => mermaidFrontMatter({ a: Number.POSITIVE_INFINITY })).toThrow(/finite/);
  });
});
