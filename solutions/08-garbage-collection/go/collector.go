// LAB 08, Go track (given, the same in labs/ and solutions/): the plumbing of a garbage collector for
// ConfigSets and their ConfigMap children, two controllers on one manager. Events are mapped so that every
// decision gets another look when something it depends on changes, as in the TypeScript collector.ts:
//   - a ConfigSet event reconciles the ConfigSet (ReconcileOwner) and every cached child that references its
//     uid (ReconcileChild): its deletion is what makes those children garbage;
//   - a ConfigMap event reconciles the ConfigMap and every ConfigSet it references (a foreground owner
//     re-checks its children when one of them changes or goes).
//
// You should not need to change this file.
package main

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// ownerUIDField indexes cached ConfigMaps by the uid of every owner they reference (a field index of the
// manager's cache, as the real collector keeps a graph of owners to dependents).
const ownerUIDField = ".metadata.ownerReferences.uid"

// Deps is what the decisions may use.
type Deps struct {
	client.Client               // Get and List read the manager's cache; writes go to the API server
	Live          client.Reader // reads from the API server itself (mgr.GetAPIReader()), never stale
}

// ChildrenOf lists the cached ConfigMaps of namespace that carry an ownerReference with uid.
func (d *Deps) ChildrenOf(ctx context.Context, namespace string, uid types.UID) ([]corev1.ConfigMap, error) {
	var list corev1.ConfigMapList
	err := d.List(ctx, &list, client.InNamespace(namespace), client.MatchingFields{ownerUIDField: string(uid)})
	return list.Items, err
}

// SetupCollector registers the index and the two controllers with the manager.
func SetupCollector(mgr ctrl.Manager) error {
	deps := &Deps{Client: mgr.GetClient(), Live: mgr.GetAPIReader()}
	if err := mgr.GetFieldIndexer().IndexField(context.Background(), &corev1.ConfigMap{}, ownerUIDField,
		func(o client.Object) []string {
			var uids []string
			for _, ref := range o.GetOwnerReferences() {
				uids = append(uids, string(ref.UID))
			}
			return uids
		}); err != nil {
		return err
	}

	// The owners' controller: a ConfigSet's own events, and the ConfigSets each ConfigMap references.
	owners := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var owner workbookv1alpha1.ConfigSet
		if err := deps.Get(ctx, req.NamespacedName, &owner); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		return reconcile.Result{}, ReconcileOwner(ctx, deps, &owner)
	})
	referencedSets := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
		var out []reconcile.Request
		for _, ref := range o.GetOwnerReferences() {
			if ref.Kind == "ConfigSet" {
				out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: ref.Name}})
			}
		}
		return out
	})
	if err := ctrl.NewControllerManagedBy(mgr).Named("owners").
		For(&workbookv1alpha1.ConfigSet{}).
		Watches(&corev1.ConfigMap{}, referencedSets).
		Complete(owners); err != nil {
		return err
	}

	// The children's controller: a ConfigMap's own events, and the children of a ConfigSet that changed or went.
	children := reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
		var child corev1.ConfigMap
		if err := deps.Get(ctx, req.NamespacedName, &child); err != nil {
			return reconcile.Result{}, client.IgnoreNotFound(err)
		}
		return reconcile.Result{}, ReconcileChild(ctx, deps, &child)
	})
	childrenOfSet := handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
		kids, err := deps.ChildrenOf(ctx, o.GetNamespace(), o.GetUID())
		if err != nil {
			return nil
		}
		out := make([]reconcile.Request, 0, len(kids))
		for _, kid := range kids {
			out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&kid)})
		}
		return out
	})
	return ctrl.NewControllerManagedBy(mgr).Named("children").
		For(&corev1.ConfigMap{}).
		Watches(&workbookv1alpha1.ConfigSet{}, childrenOfSet).
		Complete(children)
}
