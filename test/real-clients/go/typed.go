package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/pager"
)

// typedChecks: the generated clientset's CRUD calls, each sending protobuf for a built-in kind.
func typedChecks() []check {
	return []check{
		{"typed/create", func(ctx context.Context, e *env) error {
			mark := e.wire.len()
			cm, err := e.client.CoreV1().ConfigMaps(e.namespace).Create(ctx, configMap("typed-create", "a"), metav1.CreateOptions{})
			if err != nil {
				return err
			}
			if cm.Data["key"] != "a" || cm.UID == "" {
				return fmt.Errorf("created object lacks its data or uid: %+v", cm)
			}
			return noted{"request body " + requestTypeOf(e.wire.since(mark), "POST")}
		}},
		{"typed/get", func(ctx context.Context, e *env) error {
			if _, err := e.client.CoreV1().ConfigMaps(e.namespace).Create(ctx, configMap("typed-get", "a"), metav1.CreateOptions{}); err != nil {
				return err
			}
			cm, err := e.client.CoreV1().ConfigMaps(e.namespace).Get(ctx, "typed-get", metav1.GetOptions{})
			if err != nil {
				return err
			}
			if cm.Data["key"] != "a" {
				return fmt.Errorf("got %v", cm.Data)
			}
			return nil
		}},
		{"typed/update", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			cm, err := cms.Create(ctx, configMap("typed-update", "a"), metav1.CreateOptions{})
			if err != nil {
				return err
			}
			cm.Data["key"] = "b"
			updated, err := cms.Update(ctx, cm, metav1.UpdateOptions{})
			if err != nil {
				return err
			}
			if updated.Data["key"] != "b" || updated.ResourceVersion == cm.ResourceVersion {
				return fmt.Errorf("update not applied: %v rv %s", updated.Data, updated.ResourceVersion)
			}
			// A stale resourceVersion is a conflict.
			cm.Data["key"] = "c"
			if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
				return fmt.Errorf("stale update: want 409 Conflict, got %v", err)
			}
			return nil
		}},
		{"typed/patch", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			if _, err := cms.Create(ctx, configMap("typed-patch", "a"), metav1.CreateOptions{}); err != nil {
				return err
			}
			for _, p := range []struct {
				t    types.PatchType
				body string
				want string
			}{
				{types.MergePatchType, `{"data":{"key":"m"}}`, "m"},
				{types.StrategicMergePatchType, `{"data":{"key":"s"}}`, "s"},
				{types.JSONPatchType, `[{"op":"replace","path":"/data/key","value":"j"}]`, "j"},
			} {
				cm, err := cms.Patch(ctx, "typed-patch", p.t, []byte(p.body), metav1.PatchOptions{})
				if err != nil {
					return fmt.Errorf("%s: %w", p.t, err)
				}
				if cm.Data["key"] != p.want {
					return fmt.Errorf("%s: got %v", p.t, cm.Data)
				}
			}
			return nil
		}},
		{"typed/delete", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			if _, err := cms.Create(ctx, configMap("typed-delete", "a"), metav1.CreateOptions{}); err != nil {
				return err
			}
			mark := e.wire.len()
			policy := metav1.DeletePropagationBackground
			if err := cms.Delete(ctx, "typed-delete", metav1.DeleteOptions{PropagationPolicy: &policy}); err != nil {
				return err
			}
			if _, err := cms.Get(ctx, "typed-delete", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return fmt.Errorf("after delete: want 404, got %v", err)
			}
			return noted{"DeleteOptions body " + requestTypeOf(e.wire.since(mark), "DELETE")}
		}},
		{"typed/delete-preconditions", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			cm, err := cms.Create(ctx, configMap("typed-precondition", "a"), metav1.CreateOptions{})
			if err != nil {
				return err
			}
			wrong := types.UID("00000000-0000-0000-0000-000000000000")
			err = cms.Delete(ctx, cm.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &wrong}})
			if !apierrors.IsConflict(err) {
				return fmt.Errorf("delete with a wrong uid precondition: want 409, got %v", err)
			}
			return cms.Delete(ctx, cm.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &cm.UID}})
		}},
		{"typed/delete-collection", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			for i := 0; i < 3; i++ {
				cm := configMap(fmt.Sprintf("typed-collection-%d", i), "a")
				cm.Labels = map[string]string{"collection": "yes"}
				if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					return err
				}
			}
			if err := cms.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: "collection=yes"}); err != nil {
				return err
			}
			left, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "collection=yes"})
			if err != nil {
				return err
			}
			if len(left.Items) != 0 {
				return fmt.Errorf("%d left after delete-collection", len(left.Items))
			}
			return nil
		}},
		{"typed/status-subresource", func(ctx context.Context, e *env) error {
			svc, err := e.client.CoreV1().Services(e.namespace).Create(ctx, &corev1.Service{
				ObjectMeta: metav1.ObjectMeta{Name: "typed-status"},
				Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}, Type: corev1.ServiceTypeLoadBalancer},
			}, metav1.CreateOptions{})
			if err != nil {
				return err
			}
			svc.Status.LoadBalancer.Ingress = []corev1.LoadBalancerIngress{{IP: "192.0.2.1"}}
			updated, err := e.client.CoreV1().Services(e.namespace).UpdateStatus(ctx, svc, metav1.UpdateOptions{})
			if err != nil {
				return err
			}
			if len(updated.Status.LoadBalancer.Ingress) != 1 {
				return fmt.Errorf("status not stored: %+v", updated.Status)
			}
			return nil
		}},
		{"pager/list", func(ctx context.Context, e *env) error {
			for i := 0; i < 7; i++ {
				cm := configMap(fmt.Sprintf("paged-%d", i), "a")
				cm.Labels = map[string]string{"paged": "yes"}
				if _, err := e.client.CoreV1().ConfigMaps(e.namespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
					return err
				}
			}
			pages := 0
			p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtimeObject, error) {
				pages++
				return e.client.CoreV1().ConfigMaps(e.namespace).List(ctx, opts)
			})
			p.PageSize = 3
			seen := 0
			err := p.EachListItem(ctx, metav1.ListOptions{LabelSelector: "paged=yes"}, func(obj runtimeObject) error {
				seen++
				return nil
			})
			if err != nil {
				return err
			}
			if seen != 7 || pages != 3 {
				return fmt.Errorf("want 7 items in 3 pages, got %d items in %d pages", seen, pages)
			}
			return nil
		}},
	}
}

func configMap(name, value string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"key": value}}
}

// requestTypeOf names the Content-Type of the first request with the method (what the client chose to send).
func requestTypeOf(entries []wireEntry, method string) string {
	for _, en := range entries {
		if en.method == method {
			t := en.requestType
			if t == "" {
				t = "(none)"
			}
			return strings.TrimSpace(t) + " over " + en.proto
		}
	}
	return "(no " + method + " seen)"
}

// poll runs cond every 50 ms until it returns true, an error, or ctx ends.
func poll(ctx context.Context, what string, cond func(context.Context) (bool, error)) error {
	err := wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, cond)
	if err != nil {
		return fmt.Errorf("waiting for %s: %w", what, err)
	}
	return nil
}
