/**
 * batch/v1 Job and CronJob served from data, after `pkg/registry/batch/{job,cronjob}/strategy.go` and
 * `pkg/apis/batch/v1/defaults.go`: a Job gets its generated selector and labels (`controller-uid`, `job-name`),
 * both get their defaults and the validation a learner meets first (a Job's pod template restartPolicy, a
 * CronJob's schedule). No controller runs them: Jobs never start pods here.
 */
import type { KubeObject } from "../../../../apimachinery/object.js";
import { isJsonObject, type JsonObject } from "../../json.js";
import type { FieldErrors } from "../../validation/field-errors.js";
import { defaultPodTemplate, objectAt, setIfAbsent } from "../defaults.js";
import type { KindSpec } from "../kind-spec.js";
import { at, immutableFields, validatePodTemplate } from "./fields.js";

const JOB_NAME_LABELS = ["job-name", "batch.kubernetes.io/job-name"];
const CONTROLLER_UID_LABELS = ["controller-uid", "batch.kubernetes.io/controller-uid"];

/** `SetDefaults_Job` (only what applies to a JobSpec; a CronJob's job template gets none of it). */
function defaultJobSpec(spec: JsonObject): void {
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setIfAbsent(spec, "parallelism", 1);
  setIfAbsent(spec, "backoffLimit", spec.backoffLimitPerIndex != null ? 2147483647 : 6);
  setIfAbsent(spec, "completionMode", "NonIndexed");
  setIfAbsent(spec, "suspend", false);
  setIfAbsent(spec, "podReplacementPolicy", spec.podFailurePolicy != null ? "Failed" : "TerminatingOrFailed");
  setIfAbsent(spec, "manualSelector", false);
  defaultPodTemplate(spec.template);
}

/** A Job's labels default to its pod template's (with the generated ones) when it has none. */
function copyTemplateLabels(job: KubeObject): void {
  const labels = at(job, "spec.template.metadata.labels");
  const meta = objectAt(job, "metadata");
  const own = meta.labels;
  if (isJsonObject(labels) && (!isJsonObject(own) || Object.keys(own).length === 0))
    meta.labels = { ...labels };
}

/**
 * The job strategy's `generateSelector`: unless `manualSelector`, the pod template gets `job-name` and
 * `controller-uid` labels (legacy and `batch.kubernetes.io/` forms) and the selector matches the uid.
 */
function generateSelector(job: KubeObject): void {
  const spec = objectAt(job, "spec");
  if (spec.manualSelector === true) return;
  const labels = objectAt(objectAt(objectAt(spec, "template"), "metadata"), "labels");
  for (const k of JOB_NAME_LABELS) setIfAbsent(labels, k, job.metadata?.name ?? "");
  for (const k of CONTROLLER_UID_LABELS) setIfAbsent(labels, k, job.metadata?.uid ?? "");
  const matchLabels = objectAt(objectAt(spec, "selector"), "matchLabels");
  setIfAbsent(matchLabels, "batch.kubernetes.io/controller-uid", job.metadata?.uid ?? "");
}

/** A Job's pod template may restart only OnFailure or Never (`validateJobSpec`), at `path`. */
function validateJobTemplate(obj: unknown, path: string, errs: FieldErrors): void {
  validatePodTemplate(obj, path, errs);
  const policy = at(obj, `${path}.spec.restartPolicy`);
  if (policy !== "OnFailure" && policy !== "Never") {
    errs.required(`${path}.spec.restartPolicy`, 'valid values: "OnFailure", "Never"');
  }
}

function validateJob(job: KubeObject, errs: FieldErrors, old: KubeObject | undefined): void {
  if (at(job, "spec.manualSelector") === true && !isJsonObject(at(job, "spec.selector"))) {
    errs.required("spec.selector");
  }
  validateJobTemplate(job, "spec.template", errs);
  immutableFields(job, old, errs, "spec.completions", "spec.selector", "spec.template");
}

const DESCRIPTORS = ["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"];

/** The schedule errors of `cron.ParseStandard` that matter: a descriptor, `@every <duration>`, or 5 fields. */
export function cronScheduleError(schedule: string): string | undefined {
  if (/(^|\s)(CRON_)?TZ=/.test(schedule)) {
    return "cannot use TZ or CRON_TZ in schedule, use timeZone field instead";
  }
  const trimmed = schedule.trim();
  if (trimmed.startsWith("@")) {
    if (DESCRIPTORS.includes(trimmed) || /^@every\s+\S+$/.test(trimmed)) return undefined;
    return `unrecognized descriptor: ${trimmed}`;
  }
  const fields = trimmed.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`;
  const bad = fields.find((f) => !/^[0-9A-Za-z*?/,-]+$/.test(f));
  return bad === undefined ? undefined : `failed to parse int from ${bad}`;
}

function validateCronJob(cron: KubeObject, errs: FieldErrors): void {
  const name = cron.metadata?.name ?? "";
  if (name.length > 52) errs.invalid("metadata.name", name, "must be no more than 52 characters");
  const schedule = at(cron, "spec.schedule");
  if (typeof schedule !== "string" || schedule === "") errs.required("spec.schedule");
  else {
    const why = cronScheduleError(schedule);
    if (why !== undefined) errs.invalid("spec.schedule", schedule, why);
  }
  validateJobTemplate(cron, "spec.jobTemplate.spec.template", errs);
}

/** The batch/v1 kinds served from data. */
export const BATCH_KINDS: readonly KindSpec[] = [
  {
    group: "batch",
    version: "v1",
    resource: "jobs",
    kind: "Job",
    namespaced: true,
    categories: ["all"],
    status: true,
    generation: "spec",
    fieldLabels: ["status.successful"],
    orphanByDefault: true,
    defaults: (job) => defaultJobSpec(objectAt(job, "spec")),
    prepareForCreate: (job) => {
      generateSelector(job);
      copyTemplateLabels(job);
    },
    prepareForUpdate: (job) => copyTemplateLabels(job),
    validate: validateJob,
  },
  {
    group: "batch",
    version: "v1",
    resource: "cronjobs",
    kind: "CronJob",
    namespaced: true,
    shortNames: ["cj"],
    categories: ["all"],
    status: true,
    generation: "spec",
    defaults: (cron) => {
      const spec = objectAt(cron, "spec");
      setIfAbsent(spec, "concurrencyPolicy", "Allow");
      setIfAbsent(spec, "suspend", false);
      setIfAbsent(spec, "successfulJobsHistoryLimit", 3);
      setIfAbsent(spec, "failedJobsHistoryLimit", 1);
      defaultPodTemplate(at(spec, "jobTemplate.spec.template"));
    },
    validate: validateCronJob,
  },
];
