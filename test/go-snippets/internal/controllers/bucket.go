package controllers

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// Cloud is what lives outside the cluster: the garbage collector cannot delete it, a finalizer must.
type Cloud interface {
	CreateBucket(ctx context.Context, region string) (id string, err error)
	DeleteBucket(ctx context.Context, id string) error // an id that is already gone is not an error
}

// snippet:begin 07

// BucketReconciler keeps one bucket in the cloud per Bucket object, and deletes it before the object goes.
type BucketReconciler struct {
	client.Client
	Cloud Cloud
}

// Reconcile: being deleted -> clean up, then release; otherwise put the finalizer on BEFORE creating outside.
func (r *BucketReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var bucket workbookv1alpha1.Bucket
	if err := r.Get(ctx, req.NamespacedName, &bucket); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !bucket.DeletionTimestamp.IsZero() { // deleted: the server waits for our finalizer to go
		if !controllerutil.ContainsFinalizer(&bucket, workbookv1alpha1.BucketFinalizer) {
			return ctrl.Result{}, nil
		}
		if err := r.Cloud.DeleteBucket(ctx, bucket.Status.BucketID); err != nil {
			return ctrl.Result{}, err // the finalizer stays; retried with backoff
		}
		controllerutil.RemoveFinalizer(&bucket, workbookv1alpha1.BucketFinalizer)
		return ctrl.Result{}, r.Update(ctx, &bucket) // the last finalizer gone: the server deletes it
	}
	if controllerutil.AddFinalizer(&bucket, workbookv1alpha1.BucketFinalizer) { // true when it was missing
		if err := r.Update(ctx, &bucket); err != nil {
			return ctrl.Result{}, err
		}
	}
	if bucket.Status.BucketID == "" {
		id, err := r.Cloud.CreateBucket(ctx, bucket.Spec.Region)
		if err != nil {
			return ctrl.Result{}, err
		}
		bucket.Status.BucketID = id
		bucket.Status.ObservedGeneration = bucket.Generation
		return ctrl.Result{}, r.Status().Update(ctx, &bucket)
	}
	return ctrl.Result{}, nil
}

// snippet:end 07

// SetupWithManager registers the Bucket controller with the manager.
func (r *BucketReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&workbookv1alpha1.Bucket{}).Complete(r)
}
