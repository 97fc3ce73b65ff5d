// LAB 06, Go track (solution): the status half of the ConfigSet reconcile. The whole status is computed from
// the ConfigSet and the observation every time, for the generation this reconcile acted on, and written through
// the /status subresource only when it differs from the stored one.
package main

import (
	"context"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// updateStatus reports observed for set and writes it when it changed.
func (r *ConfigSetReconciler) updateStatus(ctx context.Context, set *workbookv1alpha1.ConfigSet, observed Observation) error {
	want := set.Spec.Replicas
	generation := set.Generation
	settled := observed.Replicas == want && observed.ReadyReplicas == want
	ready := observed.Err == nil && settled
	next := workbookv1alpha1.ConfigSetStatus{
		ObservedGeneration: generation,
		Replicas:           observed.Replicas,
		ReadyReplicas:      observed.ReadyReplicas,
		// metav1.Condition holds only values: a copy of the slice is a deep copy.
		Conditions: slices.Clone(set.Status.Conditions),
	}
	// SetStatusCondition moves LastTransitionTime only when a condition's status flips, so an unchanged
	// observation gives a status equal to the stored one.
	meta.SetStatusCondition(&next.Conditions, metav1.Condition{
		Type:               "Ready",
		Status:             conditionStatus(ready),
		Reason:             pick(ready, "AllReplicasReady", pick(observed.Err != nil, "ChildWriteFailed", "ReplicasNotReady")),
		Message:            fmt.Sprintf("%d/%d ConfigMaps ready", observed.ReadyReplicas, want),
		ObservedGeneration: generation,
	})
	meta.SetStatusCondition(&next.Conditions, metav1.Condition{
		Type:               "Progressing",
		Status:             conditionStatus(!settled),
		Reason:             pick(settled, "Stable", "Reconciling"),
		Message:            fmt.Sprintf("%d exist, %d wanted", observed.Replicas, want),
		ObservedGeneration: generation,
	})
	degraded := metav1.Condition{
		Type:               "Degraded",
		Status:             metav1.ConditionFalse,
		Reason:             "AsExpected",
		Message:            "the last reconcile had no errors",
		ObservedGeneration: generation,
	}
	if observed.Err != nil {
		degraded.Status, degraded.Reason, degraded.Message = metav1.ConditionTrue, "ChildWriteFailed", observed.Err.Error()
	}
	meta.SetStatusCondition(&next.Conditions, degraded)

	// An identical status is accepted by the server without a new resourceVersion: a request for nothing.
	if equality.Semantic.DeepEqual(next, set.Status) {
		return nil
	}
	updated := set.DeepCopy()
	updated.Status = next
	// It carries the cached resourceVersion: a 409 Conflict is returned, and the key is retried with backoff.
	return r.Status().Update(ctx, updated)
}

func conditionStatus(b bool) metav1.ConditionStatus {
	if b {
		return metav1.ConditionTrue
	}
	return metav1.ConditionFalse
}

func pick(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}
