// LAB 06, Go track (given, the same in labs/ and solutions/): the children half of the ConfigSet reconcile, as
// lab 05 solved it (adopt labelled orphans, delete the extra, update the drifted in place, create the missing
// under deterministic names), and the count of what the cache shows, which the status half reports.
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
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// Observation is what one reconcile saw: the status half turns it into status fields and conditions.
type Observation struct {
	// Replicas counts the children that exist and are controlled by the ConfigSet (in the cache).
	Replicas int32
	// ReadyReplicas counts those of them that carry spec.data.
	ReadyReplicas int32
	// Err is the failed write of the children half, or nil.
	Err error
}

// children lists the labelled ConfigMaps of the set's namespace from the cache: those that are the set's
// (orphans or controlled by it, not being deleted), oldest first, and the names every labelled one takes.
func (r *ConfigSetReconciler) children(ctx context.Context, set *workbookv1alpha1.ConfigSet) ([]*corev1.ConfigMap, map[string]bool, error) {
	var labelled corev1.ConfigMapList
	if err := r.List(ctx, &labelled, client.InNamespace(set.Namespace),
		client.HasLabels{workbookv1alpha1.ConfigSetLabel}); err != nil {
		return nil, nil, err
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
			continue
		}
		ours = append(ours, cm)
	}
	slices.SortFunc(ours, func(a, b *corev1.ConfigMap) int {
		return cmp.Or(a.CreationTimestamp.Compare(b.CreationTimestamp.Time), strings.Compare(a.Name, b.Name))
	})
	return ours, taken, nil
}

// countChildren is what the cache shows now; it may lag behind the writes reconcileChildren just made.
func (r *ConfigSetReconciler) countChildren(ctx context.Context, set *workbookv1alpha1.ConfigSet) (Observation, error) {
	ours, _, err := r.children(ctx, set)
	if err != nil {
		return Observation{}, err
	}
	var observed Observation
	for _, cm := range ours {
		if !metav1.IsControlledBy(cm, set) {
			continue
		}
		observed.Replicas++
		if maps.Equal(cm.Data, set.Spec.Data) {
			observed.ReadyReplicas++
		}
	}
	return observed, nil
}

// reconcileChildren brings the children in line with the spec and returns the first write that failed.
func (r *ConfigSetReconciler) reconcileChildren(ctx context.Context, set *workbookv1alpha1.ConfigSet) error {
	ours, taken, err := r.children(ctx, set)
	if err != nil {
		return err
	}
	want := int(set.Spec.Replicas)
	keep, extra := ours[:min(want, len(ours))], ours[min(want, len(ours)):]
	for _, cm := range extra {
		if err := r.Delete(ctx, cm, client.Preconditions{UID: &cm.UID}); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	for _, cm := range keep {
		adopted := metav1.IsControlledBy(cm, set)
		if adopted && maps.Equal(cm.Data, set.Spec.Data) {
			continue
		}
		next := cm.DeepCopy()
		next.Data = maps.Clone(set.Spec.Data)
		if !adopted {
			if err := controllerutil.SetControllerReference(set, next, r.Scheme); err != nil {
				return err
			}
		}
		if err := r.Update(ctx, next); err != nil {
			return err
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
		if err := controllerutil.SetControllerReference(set, child, r.Scheme); err != nil {
			return err
		}
		if err := r.Create(ctx, child); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
		missing--
	}
	return nil
}
