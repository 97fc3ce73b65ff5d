// LAB 08, Go track (skeleton): the decisions of a garbage collector for ConfigSets (the cluster's own is off).
// Each function runs again whenever something it depends on changes, so each may do one step and return; an
// error is retried with backoff. collector.go has the plumbing: d.ChildrenOf lists the cached ConfigMaps that
// reference a uid, d.Live reads from the API server itself.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// ReconcileOwner is called for every ConfigSet event.
//
// TODO, for a ConfigSet being deleted (owner.DeletionTimestamp set):
//   - with the finalizer metav1.FinalizerOrphanDependents ("orphan"): remove the owner's reference (by uid)
//     from each child, then the finalizer from the owner;
//   - with metav1.FinalizerDeleteDependents ("foregroundDeletion"): delete each child not yet being deleted,
//     and remove the finalizer only once no child whose reference has blockOwnerDeletion: true is left.
//
// Remove a finalizer with a patch that carries the resourceVersion you read
// (client.MergeFromWithOptions(owner.DeepCopy(), client.MergeFromWithOptimisticLock{})).
func ReconcileOwner(ctx context.Context, d *Deps, owner *workbookv1alpha1.ConfigSet) error {
	_, _, _ = ctx, d, owner
	return nil
}

// ReconcileChild is called for every ConfigMap event, and for the children of a ConfigSet that changed or went.
//
// TODO, background deletion: if the child references ConfigSets and none of them exists any more, delete the
// child. "Exists" is a GET by name (d.Live: the cache may lag) whose uid matches the reference's. Decide from
// the child as the server has it now (d.Live.Get it too, as kube's collector re-reads a dependent before
// deleting it): the cached copy may still carry a reference that an orphan step has just removed.
func ReconcileChild(ctx context.Context, d *Deps, child *corev1.ConfigMap) error {
	_, _, _ = ctx, d, child
	return nil
}
