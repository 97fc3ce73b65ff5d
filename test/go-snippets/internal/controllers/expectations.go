package controllers

import (
	"context"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// snippet:begin 16

// ExpectationsTimeout is how long an unmet expectation blocks its owner (kube-controller-manager: 5 minutes).
const ExpectationsTimeout = 5 * time.Minute

// Expectations counts, per owner, the creates the cache has not shown yet. controller-runtime has no such type:
// this is kube-controller-manager's ControllerExpectations, cut down to creations.
type Expectations struct {
	mu      sync.Mutex
	pending map[types.NamespacedName]expected
}

type expected struct {
	adds int
	set  time.Time
}

// ExpectCreations records that the reconcile of key is about to create adds objects.
func (e *Expectations) ExpectCreations(key types.NamespacedName, adds int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pending == nil {
		e.pending = map[types.NamespacedName]expected{}
	}
	e.pending[key] = expected{adds: adds, set: time.Now()}
}

// CreationObserved lowers the count: the cache showed one of key's creates, or a create failed.
func (e *Expectations) CreationObserved(key types.NamespacedName) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if exp, ok := e.pending[key]; ok {
		exp.adds--
		e.pending[key] = exp
	}
}

// Satisfied reports whether key may act: nothing pending, everything seen, or the record is too old.
func (e *Expectations) Satisfied(key types.NamespacedName) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	exp, ok := e.pending[key]
	return !ok || exp.adds <= 0 || time.Since(exp.set) > ExpectationsTimeout
}

// GeneratedChildrenReconciler keeps spec.replicas ConfigMaps with server-generated names (GenerateName, as the
// ReplicaSet controller names Pods). It cannot lean on AlreadyExists, as the deterministic names of 05 do.
type GeneratedChildrenReconciler struct {
	client.Client
	Scheme       *runtime.Scheme
	Expectations *Expectations
}

// Reconcile counts children in the cache only when its own creates have all been seen.
func (r *GeneratedChildrenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var set workbookv1alpha1.ConfigSet
	if err := r.Get(ctx, req.NamespacedName, &set); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !r.Expectations.Satisfied(req.NamespacedName) {
		return ctrl.Result{}, nil // creates still on their way to the cache; their events enqueue us again
	}
	var children corev1.ConfigMapList
	if err := r.List(ctx, &children, client.InNamespace(set.Namespace),
		client.MatchingLabels{workbookv1alpha1.ConfigSetLabel: set.Name}); err != nil {
		return ctrl.Result{}, err
	}
	missing := int(set.Spec.Replicas) - len(children.Items)
	if missing <= 0 {
		return ctrl.Result{}, nil
	}
	r.Expectations.ExpectCreations(req.NamespacedName, missing)
	for i := range missing {
		child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			GenerateName: set.Name + "-",
			Namespace:    set.Namespace,
			Labels:       map[string]string{workbookv1alpha1.ConfigSetLabel: set.Name},
		}}
		err := controllerutil.SetControllerReference(&set, child, r.Scheme)
		if err == nil {
			err = r.Create(ctx, child)
		}
		if err != nil {
			for range missing - i { // this create and the ones never tried will not be seen
				r.Expectations.CreationObserved(req.NamespacedName)
			}
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager lowers the expectation in the ConfigMap create handler, which runs after the cache holds it.
func (r *GeneratedChildrenReconciler) SetupWithManager(mgr ctrl.Manager) error {
	ownerOf := func(obj client.Object) (reconcile.Request, bool) {
		ref := metav1.GetControllerOf(obj)
		if ref == nil || ref.Kind != "ConfigSet" {
			return reconcile.Request{}, false
		}
		return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: obj.GetNamespace(), Name: ref.Name}}, true
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("configset-generated").
		For(&workbookv1alpha1.ConfigSet{}).
		Watches(&corev1.ConfigMap{}, handler.Funcs{
			CreateFunc: func(_ context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
				if req, ok := ownerOf(e.Object); ok {
					r.Expectations.CreationObserved(req.NamespacedName)
					q.Add(req)
				}
			},
			DeleteFunc: func(_ context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
				if req, ok := ownerOf(e.Object); ok {
					q.Add(req)
				}
			},
		}).
		Complete(r)
}

// snippet:end 16
