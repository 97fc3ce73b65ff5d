// LAB 06, Go track (given, the same in labs/ and solutions/): the ConfigSet reconcile in two halves, the
// children (children.go, lab 05's answer) and then the status (status.go, yours). A failed children write is
// handed to the status half, then returned, so controller-runtime retries the key with backoff.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// ConfigSetReconciler keeps spec.replicas ConfigMaps for every ConfigSet and reports them in its status.
type ConfigSetReconciler struct {
	client.Client // Get and List read the manager's cache; writes (and Status() writes) go to the API server
	Scheme        *runtime.Scheme
}

// Reconcile brings the children of the ConfigSet req names in line with its spec, then reports what it saw.
func (r *ConfigSetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var set workbookv1alpha1.ConfigSet
	if err := r.Get(ctx, req.NamespacedName, &set); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !set.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	childErr := r.reconcileChildren(ctx, &set)
	observed, err := r.countChildren(ctx, &set)
	if err != nil {
		return ctrl.Result{}, err
	}
	observed.Err = childErr
	if err := r.updateStatus(ctx, &set, observed); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, childErr
}

// SetupWithManager: a ConfigSet's events wake its own key, a ConfigMap's events the ConfigSet that controls it.
func (r *ConfigSetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&workbookv1alpha1.ConfigSet{}).
		Owns(&corev1.ConfigMap{}).
		Complete(r)
}
