/**
 * What the lab graders (src/workbook/graders/NN-topic.ts) share, in one place: the scenario each check opens and
 * closes, the lazily started cluster a grading worker checks against, the split-brain trials of leader election,
 * and a replica's own proxy to the API server. Not an entry point of the package: only the graders import it.
 */

export {
  type Belief,
  CandidateProcess,
  type CandidateProcessOptions,
  Election,
  type ElectionPlace,
  overlappingBeliefs,
} from "./candidate-process.js";
export { GoLabController, sumSamples } from "./go-track.js";
export { type GradingCluster, type GradingClusterOptions, gradingCluster } from "./grading-cluster.js";
export {
  loopingCandidate,
  runTrial,
  runTrials,
  TRIAL_LEASE,
  TRIAL_TIMINGS,
  type TrialCandidate,
  type TrialCandidateFactory,
  type TrialContext,
  type TrialOutcome,
  type TrialTimings,
} from "./lease-trials.js";
export { type LeaseRequest, monotonicMs, ReplicaProxy } from "./replica-proxy.js";
export { countRequests, requestsByVerb } from "./request-counts.js";
export {
  importLab,
  type LabController,
  type LabControllerOptions,
  type Scenario,
  sleep,
  withScenario,
} from "./scenario.js";
export {
  ConfigSetScenario,
  openTrackScenario,
  QUIET_MS,
  TrackScenario,
  type TrackScenarioPlace,
  type WaitFor,
} from "./track-scenario.js";
export {
  type ControllerTrack,
  type GradedController,
  type LaunchExtras,
  openTrack,
  prepareTrack,
} from "./tracks.js";
