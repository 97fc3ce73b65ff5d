// LAB 07, Go track (skeleton): the Bucket controller keeps one bucket in the fake cloud for every Bucket object
// and deletes it before the object may go, exactly once. Notebook 07 builds it step by step; the lab's README
// lists the requirements.
package main

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

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

// Reconcile brings one Bucket and its cloud bucket in line.
func (r *BucketReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// TODO 1: Get the Bucket; gone -> nothing to do (client.IgnoreNotFound).
	// TODO 2: being deleted (DeletionTimestamp set) and workbookv1alpha1.BucketFinalizer still on it: delete
	//         the cloud bucket (r.Cloud.DeleteBucket; a bucket already gone is a finished cleanup), and only
	//         then remove the finalizer (controllerutil.RemoveFinalizer, then r.Patch with
	//         client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{})). An error returns
	//         with the finalizer still on.
	// TODO 3: live and without the finalizer: add it (controllerutil.AddFinalizer + the same patch) and return;
	//         the cloud is touched only by a reconcile that sees the finalizer on the Bucket.
	// TODO 4: ask the cloud for cloudBucketName(bucket) (r.Cloud.GetBucket: status.bucketId is your record, not
	//         the truth) and create it when cloud.IsNotFound(err) (cloud.CreateOptions{ReturnExisting: true}).
	// TODO 5: write the bucket's ID to status.bucketId with r.Status().Patch, only when it differs.
	_, _, _ = ctx, req, cloudBucketName
	return ctrl.Result{}, nil
}

// SetupWithManager registers the controller: every Bucket event reconciles that Bucket.
func (r *BucketReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&workbookv1alpha1.Bucket{}).Complete(r)
}
