// LAB 05, Go track (skeleton): the ConfigSet replica controller with controller-runtime. The same
// requirements as the TypeScript lab (README.md); the names side by side are in the README's Go section.
package main

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ConfigSetReconciler keeps spec.replicas ConfigMaps for every ConfigSet.
type ConfigSetReconciler struct {
	client.Client // Get and List read the manager's cache; Create, Update and Delete go to the API server
	Scheme        *runtime.Scheme
}

// Reconcile brings the children of the ConfigSet req names in line with its spec. It gets a key, never an
// event: read the desired and the actual state, and act on the difference.
func (r *ConfigSetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// TODO 1: Get the ConfigSet (workbookv1alpha1.ConfigSet, from labkit/api/v1alpha1); gone or being
	//         deleted: return (its children go with it, through their ownerReferences).
	// TODO 2: List the ConfigMaps of req.Namespace labelled workbook.dev/configset=<name>
	//         (workbookv1alpha1.ConfigSetLabel). Yours: not being deleted, and controlled by this ConfigSet
	//         (metav1.GetControllerOf) or by nobody (an orphan to adopt).
	// TODO 3: keep spec.replicas of them (oldest first) and delete the rest; give each kept one
	//         controllerutil.SetControllerReference and data equal to spec.data with an Update, only if it differs.
	// TODO 4: create the missing ones named <name>-<i> (a name no ConfigMap has), labelled, with
	//         SetControllerReference and spec.data; AlreadyExists means "already done".
	// Any failed write: return the error, and the controller retries the key with backoff.
	return ctrl.Result{}, nil
}

// SetupWithManager registers the controller: which events wake which key.
func (r *ConfigSetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	// TODO 5: ctrl.NewControllerManagedBy(mgr): For the ConfigSet, Owns its ConfigMaps (a child's event
	//         wakes the ConfigSet its controller ownerReference names), Complete(r).
	return nil
}
