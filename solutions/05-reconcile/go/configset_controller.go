// LAB 05, Go track (solution): the ConfigSet replica controller with controller-runtime. The level-triggered
// reconcile reads the desired state (the ConfigSet) and the actual state (its labelled ConfigMaps) from the
// manager's cache and fixes the difference, as the ReplicaSet controller does for Pods: adopt matching
// orphans, delete the extra, update the drifted in place, create the missing under deterministic names.
package main

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// ConfigSetReconciler keeps spec.replicas ConfigMaps for every ConfigSet.
type ConfigSetReconciler struct {
	client.Client // Get and List read the manager's cache; Create, Update and Delete go to the API server
	Scheme        *runtime.Scheme
}

// Reconcile brings the children of the ConfigSet req names in line with its spec.
func (r *ConfigSetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var set workbookv1alpha1.ConfigSet
	if err := r.Get(ctx, req.NamespacedName, &set); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err) // gone: the garbage collector takes its children
	}
	if !set.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	// Every labelled ConfigMap of the namespace: ours are labelled with this name; all of them take a name.
	var labelled corev1.ConfigMapList
	if err := r.List(ctx, &labelled, client.InNamespace(set.Namespace),
		client.HasLabels{workbookv1alpha1.ConfigSetLabel}); err != nil {
		return ctrl.Result{}, err
	}
	taken := map[string]bool{}
	var ours []*corev1.ConfigMap
	for i := range labelled.Items {
		cm := &labelled.Items[i]
		taken[cm.Name] = true
		if cm.Labels[workbookv1alpha1.ConfigSetLabel] != set.Name || !cm.DeletionTimestamp.IsZero() {
			continue
		}
		if owner := metav1.GetControllerOf(cm); owner != nil && owner.UID != set.UID {
			continue // controlled by another object (an older ConfigSet of the same name): not ours to touch
		}
		ours = append(ours, cm)
	}
	slices.SortFunc(ours, func(a, b *corev1.ConfigMap) int {
		return cmp.Or(a.CreationTimestamp.Compare(b.CreationTimestamp.Time), strings.Compare(a.Name, b.Name))
	})
	want := int(set.Spec.Replicas)
	keep, extra := ours[:min(want, len(ours))], ours[min(want, len(ours)):]

	for _, cm := range extra {
		// The UID precondition: delete the object we looked at, never a namesake made since.
		if err := r.Delete(ctx, cm, client.Preconditions{UID: &cm.UID}); client.IgnoreNotFound(err) != nil {
			return ctrl.Result{}, err
		}
	}
	for _, cm := range keep {
		adopted := metav1.IsControlledBy(cm, &set)
		if adopted && maps.Equal(cm.Data, set.Spec.Data) {
			continue // write only what differs: every write comes back as an event
		}
		next := cm.DeepCopy()
		next.Data = maps.Clone(set.Spec.Data)
		if !adopted {
			if err := controllerutil.SetControllerReference(&set, next, r.Scheme); err != nil {
				return ctrl.Result{}, err
			}
		}
		// It carries the cached resourceVersion: a 409 Conflict means the cache was behind; the retry reads again.
		if err := r.Update(ctx, next); err != nil {
			return ctrl.Result{}, err
		}
	}
	for i, missing := 0, want-len(keep); missing > 0; i++ {
		name := fmt.Sprintf("%s-%d", set.Name, i)
		if taken[name] {
			continue
		}
		child := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{
				Name:      name,
				Namespace: set.Namespace,
				Labels:    map[string]string{workbookv1alpha1.ConfigSetLabel: set.Name},
			},
			Data: maps.Clone(set.Spec.Data),
		}
		if err := controllerutil.SetControllerReference(&set, child, r.Scheme); err != nil {
			return ctrl.Result{}, err
		}
		// A deterministic name: a create the cache does not show yet answers AlreadyExists, "already done".
		if err := r.Create(ctx, child); err != nil && !apierrors.IsAlreadyExists(err) {
			return ctrl.Result{}, err
		}
		missing--
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the controller: a ConfigSet's events wake its own key (For), a ConfigMap's events
// wake the ConfigSet its controller ownerReference names (Owns).
func (r *ConfigSetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&workbookv1alpha1.ConfigSet{}).
		Owns(&corev1.ConfigMap{}).
		Complete(r)
}
