// LAB 08, Go track (solution): the decisions of a garbage collector for ConfigSets (the cluster's own is off):
// what to do with a ConfigSet being deleted (foreground, orphan) and with a child whose owners may be gone
// (background). Each function runs again whenever something it depends on changes, so each may do one step
// and return; an error is retried with backoff.
package main

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// ReconcileOwner: only a ConfigSet being deleted with a policy finalizer needs work.
func ReconcileOwner(ctx context.Context, d *Deps, owner *workbookv1alpha1.ConfigSet) error {
	if owner.DeletionTimestamp.IsZero() {
		return nil
	}
	switch {
	case controllerutil.ContainsFinalizer(owner, metav1.FinalizerOrphanDependents):
		return orphan(ctx, d, owner)
	case controllerutil.ContainsFinalizer(owner, metav1.FinalizerDeleteDependents):
		return foreground(ctx, d, owner)
	}
	return nil
}

// foreground deletes the children, and lets the owner go once no blocking child is left.
func foreground(ctx context.Context, d *Deps, owner *workbookv1alpha1.ConfigSet) error {
	children, err := d.ChildrenOf(ctx, owner.Namespace, owner.UID)
	if err != nil {
		return err
	}
	blocking := 0
	for i := range children {
		child := &children[i]
		if ref := refTo(child, owner.UID); ref != nil && ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion {
			blocking++
		}
		if !child.DeletionTimestamp.IsZero() {
			continue
		}
		if err := d.Delete(ctx, child, client.Preconditions{UID: &child.UID}); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	// A deleted child leaves the cache with an event, which reconciles the owner again.
	if blocking > 0 {
		return nil
	}
	return dropFinalizer(ctx, d, owner, metav1.FinalizerDeleteDependents)
}

// orphan strips the owner's reference from every child, then lets the owner go.
func orphan(ctx context.Context, d *Deps, owner *workbookv1alpha1.ConfigSet) error {
	children, err := d.ChildrenOf(ctx, owner.Namespace, owner.UID)
	if err != nil {
		return err
	}
	for i := range children {
		child := &children[i]
		patch := client.MergeFromWithOptions(child.DeepCopy(), client.MergeFromWithOptimisticLock{})
		child.OwnerReferences = slices.DeleteFunc(child.OwnerReferences, func(ref metav1.OwnerReference) bool {
			return ref.UID == owner.UID
		})
		if err := d.Patch(ctx, child, patch); err != nil {
			return err
		}
	}
	return dropFinalizer(ctx, d, owner, metav1.FinalizerOrphanDependents)
}

// dropFinalizer removes finalizer with a merge patch that carries the resourceVersion the owner was read at.
func dropFinalizer(ctx context.Context, d *Deps, owner *workbookv1alpha1.ConfigSet, finalizer string) error {
	patch := client.MergeFromWithOptions(owner.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.RemoveFinalizer(owner, finalizer)
	return d.Patch(ctx, owner, patch)
}

// refTo is the child's reference to uid, or nil.
func refTo(child *corev1.ConfigMap, uid types.UID) *metav1.OwnerReference {
	for i := range child.OwnerReferences {
		if child.OwnerReferences[i].UID == uid {
			return &child.OwnerReferences[i]
		}
	}
	return nil
}

// ownerExists: the ConfigSet ref names exists with ref's uid (a live GET, not the cache, which may lag).
func ownerExists(ctx context.Context, d *Deps, namespace string, ref metav1.OwnerReference) (bool, error) {
	var owner workbookv1alpha1.ConfigSet
	err := d.Live.Get(ctx, types.NamespacedName{Namespace: namespace, Name: ref.Name}, &owner)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return owner.UID == ref.UID, nil
}

// ReconcileChild: background deletion. A child none of whose ConfigSet owners exists any more is deleted.
func ReconcileChild(ctx context.Context, d *Deps, child *corev1.ConfigMap) error {
	// Decide from the child as it is now (a live GET, as kube's collector re-reads a dependent before it
	// deletes it): the cached copy may still carry a reference that the orphan step has just removed.
	var latest corev1.ConfigMap
	if err := d.Live.Get(ctx, client.ObjectKeyFromObject(child), &latest); err != nil {
		return client.IgnoreNotFound(err)
	}
	if latest.UID != child.UID {
		return nil // a namesake made since: not the child this event was about
	}
	child = &latest
	if !child.DeletionTimestamp.IsZero() {
		return nil
	}
	owned := false
	for _, ref := range child.OwnerReferences {
		if ref.Kind != "ConfigSet" {
			continue
		}
		owned = true
		exists, err := ownerExists(ctx, d, child.Namespace, ref)
		if err != nil || exists {
			return err
		}
	}
	if !owned {
		return nil
	}
	err := d.Delete(ctx, child, client.Preconditions{UID: &child.UID})
	return client.IgnoreNotFound(err)
}
