package controllers

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// snippet:begin 06

// updateStatus writes what the controller saw to the status subresource. A 409 Conflict means someone wrote
// first: read again and redo the change, a few times (retry.DefaultRetry: 5 tries, 10 ms apart).
func (r *ConfigSetReconciler) updateStatus(ctx context.Context, key types.NamespacedName, ready int32) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var set workbookv1alpha1.ConfigSet
		if err := r.APIReader.Get(ctx, key, &set); err != nil { // fresh from the server: the cache may lag
			return err
		}
		set.Status.ObservedGeneration = set.Generation // "this status describes that spec"
		set.Status.Replicas = ready
		set.Status.ReadyReplicas = ready
		status, reason := metav1.ConditionFalse, "Scaling"
		if ready == set.Spec.Replicas {
			status, reason = metav1.ConditionTrue, "AllReplicasReady"
		}
		// Sets lastTransitionTime only when the status flips; returns whether anything changed.
		meta.SetStatusCondition(&set.Status.Conditions, metav1.Condition{
			Type: "Ready", Status: status, Reason: reason, ObservedGeneration: set.Generation,
			Message: fmt.Sprintf("%d/%d ConfigMaps", ready, set.Spec.Replicas),
		})
		return r.Status().Update(ctx, &set) // sends resourceVersion: 409 if the object changed since the read
	})
}

// snippet:end 06
