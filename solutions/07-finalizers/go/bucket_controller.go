// LAB 07, Go track (solution): the Bucket controller keeps one bucket in the fake cloud for every Bucket object
// and deletes it before the object may go, exactly once. The finalizer goes on before the cloud bucket is made
// and comes off after it is gone; every step reads what is there now, never which event woke it up.
package main

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
	"github.com/kube-controller-workbook/labkit/cloud"
)

// BucketReconciler keeps a cloud bucket per Bucket and cleans it up behind the finalizer.
type BucketReconciler struct {
	client.Client // Get reads the manager's cache; Patch and Status().Patch go to the API server
	Cloud         *cloud.Client
}

// cloudBucketName is the cloud bucket of a Bucket: <namespace>-<name> (the grader looks for this name).
func cloudBucketName(b *workbookv1alpha1.Bucket) string { return b.Namespace + "-" + b.Name }

// Reconcile: being deleted -> clean up, then let go; otherwise the finalizer first, then the cloud bucket.
func (r *BucketReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var bucket workbookv1alpha1.Bucket
	if err := r.Get(ctx, req.NamespacedName, &bucket); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// Every finalizer change is a merge patch of the list we read, guarded by its resourceVersion, so another
	// controller's finalizer on the same object survives.
	patch := client.MergeFromWithOptions(bucket.DeepCopy(), client.MergeFromWithOptimisticLock{})
	if !bucket.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(&bucket, workbookv1alpha1.BucketFinalizer) {
			return ctrl.Result{}, nil // ours is gone: the rest is someone else's
		}
		// A bucket already gone (deleted out of band, or by an earlier try) is a finished cleanup.
		if _, err := r.Cloud.DeleteBucket(ctx, cloudBucketName(&bucket), true); err != nil {
			return ctrl.Result{}, err // the finalizer stays; retried with backoff
		}
		controllerutil.RemoveFinalizer(&bucket, workbookv1alpha1.BucketFinalizer)
		return ctrl.Result{}, r.Patch(ctx, &bucket, patch)
	}
	if controllerutil.AddFinalizer(&bucket, workbookv1alpha1.BucketFinalizer) {
		// Return: the cloud is touched only by a reconcile that sees the finalizer stored on the Bucket.
		return ctrl.Result{}, r.Patch(ctx, &bucket, patch)
	}
	id, err := r.ensureCloudBucket(ctx, &bucket)
	if err != nil {
		return ctrl.Result{}, err
	}
	if bucket.Status.BucketID == id {
		return ctrl.Result{}, nil // an identical status write is a request for nothing
	}
	statusPatch := client.MergeFrom(bucket.DeepCopy())
	bucket.Status.BucketID = id
	bucket.Status.ObservedGeneration = bucket.Generation
	return ctrl.Result{}, r.Status().Patch(ctx, &bucket, statusPatch)
}

// ensureCloudBucket asks the cloud (status.bucketId is a record, not the truth) and creates the bucket when it
// is missing; a create whose answer was lost finds its bucket the next time.
func (r *BucketReconciler) ensureCloudBucket(ctx context.Context, bucket *workbookv1alpha1.Bucket) (string, error) {
	name := cloudBucketName(bucket)
	found, err := r.Cloud.GetBucket(ctx, name)
	if err == nil {
		return found.ID, nil
	}
	if !cloud.IsNotFound(err) {
		return "", err
	}
	spec := cloud.Spec{Region: bucket.Spec.Region, Versioning: bucket.Spec.Versioning}
	made, err := r.Cloud.CreateBucket(ctx, name, spec, cloud.CreateOptions{ReturnExisting: true})
	if err != nil {
		return "", err
	}
	return made.ID, nil
}

// SetupWithManager registers the controller: every Bucket event reconciles that Bucket.
func (r *BucketReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&workbookv1alpha1.Bucket{}).Complete(r)
}
