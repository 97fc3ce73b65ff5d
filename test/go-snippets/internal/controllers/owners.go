package controllers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// snippet:begin 08

// desiredChild is the i-th ConfigMap of a ConfigSet, with a controller ownerReference back to the set: the
// garbage collector deletes it when the set goes, and Owns() maps its events to the set's key.
func (r *ConfigSetReconciler) desiredChild(set *workbookv1alpha1.ConfigSet, i int) (*corev1.ConfigMap, error) {
	child := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name: childName(set, i), Namespace: set.Namespace,
			Labels: map[string]string{workbookv1alpha1.ConfigSetLabel: set.Name},
		},
		Data: set.Spec.Data,
	}
	// controller: true, blockOwnerDeletion: true; fails if another controller already controls it.
	err := controllerutil.SetControllerReference(set, child, r.Scheme)
	return child, err
}

// isOurs: is this ConfigMap controlled by this ConfigSet (same UID, not only the same name)?
func isOurs(set *workbookv1alpha1.ConfigSet, child *corev1.ConfigMap) bool {
	return metav1.IsControlledBy(child, set)
}

// deleteConfigSet deletes a set and says what happens to its children: Background (the default here) deletes
// the set now and the children after; Foreground deletes the children first; Orphan keeps them.
func deleteConfigSet(ctx context.Context, c client.Client, set *workbookv1alpha1.ConfigSet,
	policy metav1.DeletionPropagation) error {
	return c.Delete(ctx, set, client.PropagationPolicy(policy))
}

// snippet:end 08
