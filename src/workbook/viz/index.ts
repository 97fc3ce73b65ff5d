/**
 * Pictures from live state for the notebooks: mermaid builders (flowcharts, xy charts, request bars), markdown
 * tables, and display helpers that render in JupyterLab through tslab and print markdown everywhere else.
 */

export * from "./data-path.js";
export * from "./display.js";
export * from "./field-ownership.js";
export * from "./flowchart.js";
export * from "./front-matter.js";
export * from "./lease-timeline.js";
export * from "./mermaid-text.js";
export * from "./metrics-chart.js";
export * from "./ownership-tree.js";
export * from "./pipeline.js";
export * from "./source.js";
export * from "./table.js";
export * from "./theme.js";
export * from "./workqueue.js";
export * from "./xychart.js";
