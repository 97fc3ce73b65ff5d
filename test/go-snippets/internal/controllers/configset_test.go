// The tests of notebook 15 (Testing a controller): the ConfigSet reconciler of notebooks 05-06 under
// controller-runtime's fake client with an interceptor (layer 1), and the whole controller on envtest (layer 2).
// `go vet` compiles them; `go test` runs the first always and the second when KUBEBUILDER_ASSETS names the
// envtest binaries (`setup-envtest use -p path`).
package controllers

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

func testScheme(t *testing.T) *runtime.Scheme {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := workbookv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	return scheme
}

func newTestConfigSet(namespace string) *workbookv1alpha1.ConfigSet {
	return &workbookv1alpha1.ConfigSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: namespace},
		Spec:       workbookv1alpha1.ConfigSetSpec{Replicas: 3, Data: map[string]string{"colour": "blue"}},
	}
}

func listChildren(ctx context.Context, c client.Reader, set *workbookv1alpha1.ConfigSet) ([]corev1.ConfigMap, error) {
	var children corev1.ConfigMapList
	err := c.List(ctx, &children, client.InNamespace(set.Namespace),
		client.MatchingLabels{workbookv1alpha1.ConfigSetLabel: set.Name})
	return children.Items, err
}

// snippet:begin 15

// Layer 1: Reconcile called directly, on controller-runtime's fake client (an in-memory tracker that answers
// AlreadyExists, Conflict and NotFound like the API server), with an interceptor refusing two status updates.
func TestReconcileWithFakeClient(t *testing.T) {
	ctx := context.Background()
	scheme := testScheme(t)
	set := newTestConfigSet("unit")
	conflicts := 2
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(set).WithStatusSubresource(set).
		WithInterceptorFuncs(interceptor.Funcs{
			SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object,
				opts ...client.SubResourceUpdateOption) error {
				if conflicts > 0 { // fault injection: the cache was behind, as far as the reconciler knows
					conflicts--
					return apierrors.NewConflict(workbookv1alpha1.GroupVersion.WithResource("configsets").GroupResource(),
						obj.GetName(), errors.New("injected"))
				}
				return c.SubResource(sub).Update(ctx, obj, opts...)
			},
		}).Build()
	r := &ConfigSetReconciler{Client: c, APIReader: c, Scheme: scheme}
	req := ctrl.Request{NamespacedName: client.ObjectKeyFromObject(set)}
	for pass := 1; pass <= 2; pass++ { // the second pass finds nothing to do
		if _, err := r.Reconcile(ctx, req); err != nil {
			t.Fatalf("pass %d: %v", pass, err)
		}
	}
	children, err := listChildren(ctx, c, set)
	if err != nil || len(children) != 3 {
		t.Fatalf("children: %d (err %v), want 3", len(children), err)
	}
	for i := range children {
		if ref := metav1.GetControllerOf(&children[i]); ref == nil || ref.Name != set.Name {
			t.Errorf("%s is not controlled by %s", children[i].Name, set.Name)
		}
	}
	if conflicts != 0 {
		t.Errorf("%d injected conflicts left: the status update was not retried", conflicts)
	}
}

// Layer 2: the whole controller (manager, cache, watches, workers) against a real kube-apiserver and etcd.
// envtest runs no kube-controller-manager: no garbage collector, namespaces never finish terminating.
func TestControllerOnEnvtest(t *testing.T) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		t.Skip("set KUBEBUILDER_ASSETS to the envtest binaries (setup-envtest use -p path)")
	}
	env := &envtest.Environment{CRDs: []*apiextensionsv1.CustomResourceDefinition{configSetCRD()}}
	cfg, err := env.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = env.Stop() }()
	scheme := testScheme(t)
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}})
	if err != nil {
		t.Fatal(err)
	}
	r := &ConfigSetReconciler{Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Scheme: scheme}
	if err := r.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = mgr.Start(ctx) }()

	direct := mgr.GetAPIReader() // asserts read the API server, not the manager's cache
	set := newTestConfigSet("default")
	if err := mgr.GetClient().Create(ctx, set); err != nil {
		t.Fatal(err)
	}
	// Eventually, not a sleep: poll the observed state until it is right or the deadline passes.
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 10*time.Second, true,
		func(ctx context.Context) (bool, error) {
			children, err := listChildren(ctx, direct, set)
			return err == nil && len(children) == 3, nil
		})
	if err != nil {
		t.Fatalf("3 children never appeared: %v", err)
	}
}

// snippet:end 15

// configSetCRD is the ConfigSet CustomResourceDefinition, without a schema beyond "keep every field".
func configSetCRD() *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "configsets." + workbookv1alpha1.GroupVersion.Group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: workbookv1alpha1.GroupVersion.Group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{
				Plural: "configsets", Singular: "configset", Kind: "ConfigSet", ListKind: "ConfigSetList",
			},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: workbookv1alpha1.GroupVersion.Version, Served: true, Storage: true,
				Subresources: &apiextensionsv1.CustomResourceSubresources{
					Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
				},
				Schema: &apiextensionsv1.CustomResourceValidation{
					OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
						Type: "object", XPreserveUnknownFields: &preserve,
					},
				},
			}},
		},
	}
}
