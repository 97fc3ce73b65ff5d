package controllers

import (
	"context"
	"fmt"

	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// snippet:begin 13

// FieldOwner is the field manager every apply of this controller names: managedFields records it as the owner
// of each field the controller sends, so keep it stable across versions of the controller.
const FieldOwner = client.FieldOwner("configset-controller")

// applyChild sends the whole desired child ConfigMap, and only the fields this controller owns. No Get first
// and no resourceVersion: the API server merges the fields into what is stored (or creates the ConfigMap),
// records FieldOwner as their owner, and removes the fields it owned and no longer sends. ForceOwnership
// takes back a field someone else changed: the controller owns these fields by design.
func (r *ConfigSetReconciler) applyChild(ctx context.Context, set *workbookv1alpha1.ConfigSet, i int) error {
	owner := metav1ac.OwnerReference().
		WithAPIVersion(workbookv1alpha1.GroupVersion.String()).
		WithKind("ConfigSet").
		WithName(set.Name).
		WithUID(set.UID).
		WithController(true).
		WithBlockOwnerDeletion(true)
	child := corev1ac.ConfigMap(fmt.Sprintf("%s-%d", set.Name, i), set.Namespace).
		WithLabels(map[string]string{workbookv1alpha1.ConfigSetLabel: set.Name}).
		WithOwnerReferences(owner).
		WithData(set.Spec.Data)
	return r.Apply(ctx, child, FieldOwner, client.ForceOwnership)
}

// snippet:end 13
