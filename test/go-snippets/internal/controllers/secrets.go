package controllers

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// snippet:begin 14

// TLSSecretAnnotation names the Secret a ConfigSet reads its certificate from.
const TLSSecretAnnotation = "workbook.dev/tls-secret"

// tlsSecretField is the name of the field index: any string, used again in client.MatchingFields.
const tlsSecretField = "tlsSecret"

// SetupTLSSecretWatch reconciles a ConfigSet when its generation or its annotations change (status writes,
// label writes and resyncs are filtered out), and every ConfigSet that names a Secret when that Secret changes.
func SetupTLSSecretWatch(ctx context.Context, mgr ctrl.Manager, r reconcile.Reconciler) error {
	// The index: for every cached ConfigSet, the Secret it names (none: not indexed). controller-runtime files
	// each value under the object's namespace and under "all namespaces".
	err := mgr.GetFieldIndexer().IndexField(ctx, &workbookv1alpha1.ConfigSet{}, tlsSecretField,
		func(obj client.Object) []string {
			if name := obj.GetAnnotations()[TLSSecretAnnotation]; name != "" {
				return []string{name}
			}
			return nil
		})
	if err != nil {
		return err
	}
	// The map function: a Secret to the requests of the ConfigSets that name it, one index lookup in the cache.
	referrers := func(ctx context.Context, secret client.Object) []reconcile.Request {
		var sets workbookv1alpha1.ConfigSetList
		if err := mgr.GetClient().List(ctx, &sets, client.InNamespace(secret.GetNamespace()),
			client.MatchingFields{tlsSecretField: secret.GetName()}); err != nil {
			return nil
		}
		requests := make([]reconcile.Request, 0, len(sets.Items))
		for i := range sets.Items {
			requests = append(requests, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&sets.Items[i])})
		}
		return requests
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("configset-tls").
		For(&workbookv1alpha1.ConfigSet{}, builder.WithPredicates(
			predicate.Or(predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}))).
		Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(referrers)).
		Complete(r)
}

// snippet:end 14
