// LAB 10, Go track (skeleton): the StaticSite reconcile, level-triggered and idempotent. It reads the site and
// its children from the manager's cache, never asks which event woke it, and does whatever is still missing.
// Running it twice in a row does nothing the second time. Notebooks 05 to 07 cover each step; the lab's README
// lists what the grader checks.
package main

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
	"github.com/kube-controller-workbook/labkit/cloud"
)

// SiteReconciler keeps every StaticSite's bucket, children and status.
type SiteReconciler struct {
	client.Client // Get and List read the manager's cache; writes go to the API server
	Scheme        *runtime.Scheme
	Cloud         *cloud.Client
	Recorder      events.EventRecorder
}

// bucketName is the bucket that holds a site's content: <namespace>-<name> (the grader looks for this name).
func bucketName(site *workbookv1alpha1.StaticSite) string { return site.Namespace + "-" + site.Name }

// childName is the name of a site's i-th child.
func childName(site *workbookv1alpha1.StaticSite, i int) string {
	return fmt.Sprintf("%s-%d", site.Name, i)
}

// Reconcile brings the StaticSite req names, its bucket and its children in line. An error is retried with
// backoff.
func (r *SiteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// TODO, in this order:
	// 1. Get the site (r.Get reads the cache); gone -> nothing to do (client.IgnoreNotFound).
	// 2. Finalizer protocol, each change a r.Patch with client.MergeFromWithOptions(original,
	//    client.MergeFromWithOptimisticLock{}):
	//    - live without workbookv1alpha1.StaticSiteFinalizer: add it (controllerutil.AddFinalizer), return;
	//    - being deleted with it: r.Cloud.DeleteBucket(ctx, bucketName(site), true) (a missing bucket counts as
	//      deleted), then remove it; an error returns with the finalizer still on.
	// 3. Live site: ensure the bucket exists (r.Cloud.GetBucket; CreateBucket when cloud.IsNotFound(err), with
	//    cloud.CreateOptions{ReturnExisting: true}). If the cloud fails: conditions Degraded=True, Ready=False,
	//    a Warning Event (r.Recorder.Eventf(site, nil, corev1.EventTypeWarning, ...)), write the status, then
	//    return the error.
	// 4. Children: ConfigMaps named childName(site, i) for i < spec.replicas, labelled
	//    workbookv1alpha1.StaticSiteLabel=<site>, with a controller ownerReference to the site
	//    (controllerutil.SetControllerReference) and Data["index.html"] = spec.content. List them with r.List
	//    (the cache, by label), then create the missing (AlreadyExists means it is there), update the changed
	//    in place (r.Update: same UID), delete the extra ones.
	// 5. Status: observedGeneration, replicas, readyReplicas, bucketId, conditions Ready/Progressing/Degraded
	//    (meta.SetStatusCondition). Write it with r.Status().Update only when it changed
	//    (equality.Semantic.DeepEqual): every write comes back as an event.
	_, _, _ = ctx, req, bucketName
	_ = childName
	return ctrl.Result{}, nil
}

// SetupWithManager registers the controller: a site's events wake its own key.
func (r *SiteReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// TODO 7: a child's events must wake its owner: the key of its controller ownerReference (Owns).
	return ctrl.NewControllerManagedBy(mgr).
		For(&workbookv1alpha1.StaticSite{}).
		Named("staticsite").
		Complete(r)
}
