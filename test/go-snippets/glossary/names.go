// Package glossary names every Go identifier of notebooks/GLOSSARY.md once, so the compiler checks that each one
// exists, with that meaning, in the pinned client-go and controller-runtime (a test checks the glossary's names
// appear in this module). Nothing runs it.
package glossary

import (
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/informers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/retry"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	ctrl "sigs.k8s.io/controller-runtime"
	crcache "sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/recorder"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
	"github.com/kube-controller-workbook/go-snippets/internal/controllers"
)

// Functions and values.
var (
	_ = apierrors.IsAlreadyExists
	_ = apierrors.IsConflict
	_ = apierrors.IsNotFound
	_ = apierrors.NewAlreadyExists
	_ = apierrors.NewConflict
	_ = apierrors.NewNotFound
	_ = cache.DeletionHandlingMetaNamespaceKeyFunc
	_ = cache.MetaNamespaceKeyFunc
	_ = cache.NewIndexer
	_ = cache.NewListWatchFromClient
	_ = cache.NewReflector
	_ = cache.SplitMetaNamespaceKey
	_ = client.IgnoreNotFound
	_ = client.MergeFrom
	_ = controllerutil.AddFinalizer
	_ = controllerutil.ContainsFinalizer
	_ = controllerutil.CreateOrUpdate
	_ = controllerutil.RemoveFinalizer
	_ = controllerutil.SetControllerReference
	_ = corev1.NamespaceNodeLease
	_ = ctrl.NewControllerManagedBy
	_ = fake.NewClientBuilder
	_ = handler.EnqueueRequestForOwner
	_ = handler.EnqueueRequestsFromMapFunc
	_ = handler.OnlyControllerOwner
	_ = predicate.And[client.Object]
	_ = predicate.NewPredicateFuncs
	_ = predicate.Not[client.Object]
	_ = predicate.Or[client.Object]
	_ = informers.NewSharedInformerFactoryWithOptions
	_ = leaderelection.RunOrDie
	_ = meta.FindStatusCondition
	_ = meta.SetStatusCondition
	_ = metav1.GetControllerOf
	_ = metav1.IsControlledBy
	_ = metav1.NewControllerRef
	_ = metrics.Registry
	_ = retry.RetryOnConflict
	_ = types.ApplyPatchType
	_ = types.MergePatchType
	_ = wait.PollUntilContextTimeout
	_ = workbookv1alpha1.AddToScheme
	_ = workbookv1alpha1.BucketFinalizer
	_ = workbookv1alpha1.ConfigSetLabel
	_ = workbookv1alpha1.GroupVersion
	_ = workqueue.DefaultTypedControllerRateLimiter[string]
	_ = workqueue.NewTyped[string]
	_ = workqueue.NewTypedItemExponentialFailureRateLimiter[string]
	_ = workqueue.NewTypedRateLimitingQueue[string]
)

// Types.
var (
	_ cache.DeletedFinalStateUnknown
	_ cache.FilteringResourceEventHandler
	_ cache.Indexer
	_ cache.Indexers
	_ *cache.ListWatch
	_ cache.ListerWatcher
	_ *cache.Reflector
	_ cache.ResourceEventHandlerFuncs
	_ cache.ResourceEventHandlerRegistration
	_ cache.SharedIndexInformer
	_ client.Client
	_ client.FieldIndexer
	_ client.MatchingFields
	_ client.MatchingLabels
	_ client.Object
	_ client.Reader
	_ clock.RealClock
	_ *clocktesting.FakeClock
	_ controller.Controller
	_ controller.TypedOptions[reconcile.Request]
	_ *controllers.MemoryCloud
	_ corelisters.ConfigMapLister
	_ crcache.Cache
	_ crcache.Informer
	_ ctrl.Options
	_ ctrl.Request
	_ ctrl.Result
	_ dynamic.Interface
	_ *envtest.Environment
	_ handler.EnqueueRequestForObject
	_ handler.MapFunc
	_ handler.Funcs
	_ informers.SharedInformerFactory
	_ interceptor.Funcs
	_ *leaderelection.LeaderElector
	_ manager.Manager
	_ apierrors.APIStatus
	_ metav1.Condition
	_ metav1.ManagedFieldsEntry
	_ metav1.Status
	_ metav1.Object
	_ predicate.AnnotationChangedPredicate
	_ predicate.GenerationChangedPredicate
	_ predicate.LabelChangedPredicate
	_ predicate.Predicate
	_ predicate.ResourceVersionChangedPredicate
	_ reconcile.Reconciler
	_ record.EventRecorder
	_ recorder.Provider
	_ resourcelock.Interface
	_ resourcelock.LeaderElectionRecord
	_ *resourcelock.LeaseLock
	_ *runtime.Scheme
	_ schema.GroupVersionResource
	_ types.NamespacedName
	_ workbookv1alpha1.Bucket
	_ workbookv1alpha1.ConfigSet
	_ workbookv1alpha1.ConfigSetStatus
	_ workqueue.MetricsProvider
	_ workqueue.TypedBucketRateLimiter[string]
	_ workqueue.TypedInterface[string]
	_ workqueue.TypedRateLimitingInterface[string]
)
