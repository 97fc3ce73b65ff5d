package main

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/tools/record"
)

// eventChecks: both of client-go's event recorders; each event must reach the server.
func eventChecks() []check {
	return []check{
		{"events/core-v1-recorder", func(ctx context.Context, e *env) error {
			cm, err := e.client.CoreV1().ConfigMaps(e.namespace).Create(ctx, configMap("recorded-core", "a"), metav1.CreateOptions{})
			if err != nil {
				return err
			}
			broadcaster := record.NewBroadcaster(record.WithContext(ctx))
			defer broadcaster.Shutdown()
			broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: e.client.CoreV1().Events(e.namespace)})
			recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "real-clients"})
			recorder.Eventf(cm, corev1.EventTypeNormal, "Checked", "core/v1 event for %s", cm.Name)
			return poll(ctx, "the core/v1 event", func(ctx context.Context) (bool, error) {
				list, err := e.client.CoreV1().Events(e.namespace).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=recorded-core"})
				if err != nil {
					return false, err
				}
				return len(list.Items) > 0 && list.Items[0].Reason == "Checked", nil
			})
		}},
		{"events/events-v1-recorder", func(ctx context.Context, e *env) error {
			cm, err := e.client.CoreV1().ConfigMaps(e.namespace).Create(ctx, configMap("recorded-new", "a"), metav1.CreateOptions{})
			if err != nil {
				return err
			}
			broadcaster := events.NewBroadcaster(&events.EventSinkImpl{Interface: e.client.EventsV1()})
			defer broadcaster.Shutdown()
			if err := broadcaster.StartRecordingToSinkWithContext(ctx); err != nil {
				return err
			}
			recorder := broadcaster.NewRecorder(scheme.Scheme, "real-clients")
			recorder.Eventf(cm, nil, corev1.EventTypeNormal, "Checked", "Check", "events.k8s.io event for %s", cm.Name)
			return poll(ctx, "the events.k8s.io/v1 event (read through core/v1 too)", func(ctx context.Context) (bool, error) {
				list, err := e.client.EventsV1().Events(e.namespace).List(ctx, metav1.ListOptions{})
				if err != nil {
					return false, err
				}
				found := false
				for _, ev := range list.Items {
					if ev.Regarding.Name == "recorded-new" && ev.Reason == "Checked" && ev.ReportingController == "real-clients" {
						found = true
					}
				}
				if !found {
					return false, nil
				}
				// One storage: the same event read through core/v1.
				core, err := e.client.CoreV1().Events(e.namespace).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=recorded-new"})
				if err != nil {
					return false, err
				}
				if len(core.Items) == 0 {
					return false, fmt.Errorf("the events.k8s.io/v1 event is not visible through core/v1")
				}
				return true, nil
			})
		}},
	}
}
