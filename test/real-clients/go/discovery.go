package main

import (
	"context"
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// discoveryChecks: how the client discovers the API and talks to the server (aggregated discovery, HTTP/2), and a
// CRD created through the typed apiextensions clientset then used through the dynamic client.
func discoveryChecks() []check {
	return []check{
		{"discovery/aggregated", func(ctx context.Context, e *env) error {
			mark := e.wire.len()
			groups, resources, err := e.client.Discovery().ServerGroupsAndResources()
			if err != nil {
				return err
			}
			if len(groups) == 0 || len(resources) == 0 {
				return fmt.Errorf("discovery found %d groups and %d resource lists", len(groups), len(resources))
			}
			requests := e.wire.since(mark)
			for _, r := range requests {
				if (r.path == "/api" || r.path == "/apis") && strings.Contains(r.responseType, "apidiscovery.k8s.io") {
					continue
				}
				return fmt.Errorf("%d requests: %s answered %q (the client fell back to legacy discovery)", len(requests), r.path, r.responseType)
			}
			return noted{fmt.Sprintf("%d requests", len(requests))}
		}},
		{"transport/http2", func(ctx context.Context, e *env) error {
			mark := e.wire.len()
			w1, err := e.client.CoreV1().ConfigMaps(e.namespace).Watch(ctx, metav1.ListOptions{})
			if err != nil {
				return err
			}
			defer w1.Stop()
			w2, err := e.client.CoreV1().Secrets(e.namespace).Watch(ctx, metav1.ListOptions{})
			if err != nil {
				return err
			}
			defer w2.Stop()
			for _, r := range e.wire.since(mark) {
				if r.proto != "HTTP/2.0" {
					return fmt.Errorf("%s %s went over %s", r.method, r.path, r.proto)
				}
			}
			return nil
		}},
		{"crd/typed-create-and-use", func(ctx context.Context, e *env) error {
			ext, err := apiextensions.NewForConfig(e.config)
			if err != nil {
				return err
			}
			group := "realclients" + e.suffix + ".example.com"
			crd := &apiextensionsv1.CustomResourceDefinition{
				ObjectMeta: metav1.ObjectMeta{Name: "widgets." + group},
				Spec: apiextensionsv1.CustomResourceDefinitionSpec{
					Group: group,
					Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
					Scope: apiextensionsv1.NamespaceScoped,
					Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
						Name: "v1", Served: true, Storage: true,
						Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
							Type: "object",
							Properties: map[string]apiextensionsv1.JSONSchemaProps{
								"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
									"size": {Type: "integer"},
								}},
							},
						}},
					}},
				},
			}
			crds := ext.ApiextensionsV1().CustomResourceDefinitions()
			if _, err := crds.Create(ctx, crd, metav1.CreateOptions{}); err != nil {
				return fmt.Errorf("create CRD: %w", err)
			}
			defer func() { _ = crds.Delete(context.Background(), crd.Name, metav1.DeleteOptions{}) }()
			err = poll(ctx, "the CRD to be Established", func(ctx context.Context) (bool, error) {
				got, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
				if err != nil {
					return false, err
				}
				for _, c := range got.Status.Conditions {
					if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
						return true, nil
					}
				}
				return false, nil
			})
			if err != nil {
				return err
			}
			dyn, err := dynamic.NewForConfig(e.config)
			if err != nil {
				return err
			}
			widgets := dyn.Resource(schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}).Namespace(e.namespace)
			w := &unstructured.Unstructured{Object: map[string]any{
				"apiVersion": group + "/v1", "kind": "Widget",
				"metadata": map[string]any{"name": "w1"},
				"spec":     map[string]any{"size": int64(3)},
			}}
			return poll(ctx, "the first Widget to be created", func(ctx context.Context) (bool, error) {
				_, err := widgets.Create(ctx, w, metav1.CreateOptions{})
				return err == nil, nil
			})
		}},
	}
}
