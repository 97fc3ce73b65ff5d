// Package controllers holds the reconcilers of notebooks 05-08, written with controller-runtime. The regions
// between "snippet:begin NN" and "snippet:end NN" are the Go sections of those notebooks (a test compares them).
package controllers

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// snippet:begin 05

// ConfigSetReconciler keeps spec.replicas ConfigMaps for every ConfigSet.
type ConfigSetReconciler struct {
	client.Client               // reads from the manager's informer cache, writes to the API server
	APIReader     client.Reader // reads the API server directly (no cache)
	Scheme        *runtime.Scheme
}

// Reconcile gets a key, never an event: it reads the desired and the actual state and acts on the difference.
func (r *ConfigSetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var set workbookv1alpha1.ConfigSet
	if err := r.Get(ctx, req.NamespacedName, &set); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err) // gone: its ConfigMaps go with it (owner references)
	}
	var children corev1.ConfigMapList
	if err := r.List(ctx, &children, client.InNamespace(set.Namespace),
		client.MatchingLabels{workbookv1alpha1.ConfigSetLabel: set.Name}); err != nil {
		return ctrl.Result{}, err // an error: requeued with the rate limiter's backoff
	}
	want := map[string]bool{}
	for i := range int(set.Spec.Replicas) {
		child, err := r.desiredChild(&set, i)
		if err != nil {
			return ctrl.Result{}, err
		}
		want[child.Name] = true
		if err := r.Create(ctx, child); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, err
		}
	}
	for i := range children.Items {
		if !want[children.Items[i].Name] {
			if err := r.Delete(ctx, &children.Items[i]); client.IgnoreNotFound(err) != nil {
				return ctrl.Result{}, err
			}
		}
	}
	log.FromContext(ctx).Info("reconciled", "desired", set.Spec.Replicas, "found", len(children.Items))
	return ctrl.Result{}, r.updateStatus(ctx, req.NamespacedName, int32(len(want)))
}

// SetupWithManager: reconcile a ConfigSet when it changes (For) or when a ConfigMap it controls changes (Owns).
func (r *ConfigSetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&workbookv1alpha1.ConfigSet{}).
		Owns(&corev1.ConfigMap{}).
		Complete(r)
}

// snippet:end 05

func childName(set *workbookv1alpha1.ConfigSet, i int) string {
	return fmt.Sprintf("%s-%d", set.Name, i)
}
