/**
 * kube-controller-workbook: the Kubernetes controller machinery, client-go's concepts in TypeScript idiom.
 * This root entry point is the library a learner reads and an operator author imports: the floor
 * (`src/apimachinery`: objects, keys, selectors, Status errors), the clock, the client (ListWatch), the cache
 * (Reflector, DeltaFIFO, Indexer, informers), the workqueue, the controller runner, leader election, the
 * metadata helpers (finalizers, owner references) and `startCluster()`. Its surface is checked in:
 * `test/docs/api/root.txt`.
 *
 * The rest lives behind its own entry point:
 * - `kube-controller-workbook/control-plane`: the built-in controllers (garbage collector, namespace controller,
 *   controller manager, simulated nodes) and every cluster backend;
 * - `kube-controller-workbook/apiserver`: the embedded Kubernetes API server and its instruments;
 * - `kube-controller-workbook/workbook`: the course's fixtures (the fake cloud, the workbook's CRDs and clients);
 * - `kube-controller-workbook/viz`: pictures from live state for the notebooks;
 * - `kube-controller-workbook/grading`: lab and notebook checks;
 * - `kube-controller-workbook/questions`: the question bank and quiz logic.
 */

// apimachinery: k8s.io/apimachinery's types, keys, selectors and Status errors.
/**
 * The Status errors as k8s.io/apimachinery/pkg/api/errors has them, as one namespace: the constructors
 * (`errors.conflict(...)`, `errors.notFound(...)`) and every predicate (`errors.isTooManyRequests(err)`).
 */
export * as errors from "./apimachinery/errors.js";
export type {
  ErrorHandler,
  KubeObject,
  MetaObject,
  ObjectList,
  ObjectMeta,
  OwnerReference,
  RandomSource,
  Runnable,
  Status,
} from "./apimachinery/index.js";
export {
  defaultErrorHandler,
  FieldSelector,
  formatErrorReport,
  isAlreadyExists,
  isConflict,
  isExpired,
  isNotFound,
  joinKey,
  LabelSelector,
  metaNamespaceKey,
  parseFieldSelector,
  parseLabelSelector,
  StatusError,
  seededRandom,
  splitMetaNamespaceKey,
  toStatusError,
  untilAborted,
} from "./apimachinery/index.js";
export type {
  Delta,
  DeltaType,
  Indexers,
  IndexFunc,
  InformerSynced,
  KeyFunc,
  ReadonlyIndexer,
  ReflectorOptions,
  ReflectorStore,
  ResourceEventHandler,
  ResourceEventHandlerRegistration,
  SharedIndexInformerOptions,
  SharedInformerFactoryOptions,
  Store,
} from "./cache/index.js";
// cache: client-go's tools/cache.
export {
  DeletedFinalStateUnknown,
  DeltaFIFO,
  deletionHandlingMetaNamespaceKeyFunc,
  FilteringResourceEventHandler,
  fieldIndexName,
  Indexer,
  indexField,
  Lister,
  listByField,
  metaNamespaceIndexFunc,
  NAMESPACE_INDEX,
  NamespaceLister,
  OWNER_UID_INDEX,
  ownerUIDIndexFunc,
  Reflector,
  SharedIndexInformer,
  SharedInformerFactory,
  unwrapTombstone,
  waitForCacheSync,
} from "./cache/index.js";
export type {
  ListerWatcher,
  ListRequest,
  ListWatchEvent,
  ListWatchEventType,
  ResourceDescriptor,
  WatchRequest,
} from "./client/index.js";
// client: list and watch through @kubernetes/client-node.
export { BuiltinResources, ListWatch } from "./client/index.js";
export type { Clock, Timer } from "./clock/index.js";
// clock: k8s.io/utils/clock.
export { FakeClock, RealClock, realClock } from "./clock/index.js";
export type {
  Cluster,
  ClusterBackend,
  EmbeddedCluster,
  StartClusterOptions,
} from "./control-plane/cluster/index.js";
// cluster: where the controllers run (the backends themselves: `kube-controller-workbook/control-plane`).
export { startCluster } from "./control-plane/cluster/index.js";
export type {
  ConditionStatus,
  ControlleeExpectations,
  ControllerExpectationsOptions,
  ControllerOptions,
  EnqueueHandler,
  EnqueueHandlerOptions,
  EventRecorderOptions,
  EventType,
  MapFunc,
  OwnerType,
  Predicate,
  ReconcileReturn,
  Reconciler,
  StatusCondition,
} from "./controller/index.js";
// controller: the runner, results, conditions, events (controller-runtime's and client-go's shapes).
export {
  Controller,
  ControllerExpectations,
  EventRecorder,
  EXPECTATIONS_TIMEOUT_MS,
  enqueueHandler,
  enqueueRequestForOwner,
  enqueueRequestsFromMapFunc,
  findStatusCondition,
  isStatusConditionFalse,
  isStatusConditionPresentAndEqual,
  isStatusConditionTrue,
  isTerminalError,
  predicate,
  Result,
  removeStatusCondition,
  setStatusCondition,
  TerminalError,
  withPredicates,
} from "./controller/index.js";
export type {
  LeaderCallbacks,
  LeaderElectionConfig,
  LeaderElectionRecord,
  LeaseEndpoint,
  LeaseObject,
  ResourceLock,
} from "./leaderelection/index.js";
// leaderelection: client-go's tools/leaderelection.
export {
  DEFAULT_LEASE_DURATION_MS,
  DEFAULT_RENEW_DEADLINE_MS,
  DEFAULT_RETRY_PERIOD_MS,
  formatMicroTime,
  InMemoryLeaseStore,
  InMemoryLock,
  LeaderElector,
  LeaseLock,
} from "./leaderelection/index.js";
export type { FinalizerAction, FinalizersPatch } from "./meta/index.js";
// meta: finalizers and owner references.
export {
  AlreadyOwnedError,
  addFinalizer,
  FOREGROUND_FINALIZER,
  finalizer,
  getControllerOf,
  hasFinalizer,
  isBeingDeleted,
  isControlledBy,
  ORPHAN_FINALIZER,
  ownerReferenceTo,
  removeFinalizer,
  removeOwnerReference,
  setControllerReference,
  upsertOwnerReference,
} from "./meta/index.js";
export type {
  MetricsProvider,
  QueueOptions,
  RateLimiter,
  RateLimitingQueueOptions,
} from "./workqueue/index.js";
// workqueue: client-go's util/workqueue.
export {
  BucketRateLimiter,
  DelayingQueue,
  defaultControllerRateLimiter,
  InMemoryMetricsProvider,
  ItemExponentialFailureRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
  metricsProvider,
  Queue,
  RateLimitingQueue,
  setMetricsProvider,
  WithMaxWaitRateLimiter,
} from "./workqueue/index.js";
