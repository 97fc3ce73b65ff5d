package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

type runtimeObject = runtime.Object

// cacheChecks: a shared informer factory (list + watch through the reflector) sees every change.
func cacheChecks() []check {
	return []check{
		{"informer/events", func(ctx context.Context, e *env) error {
			factory := informers.NewSharedInformerFactoryWithOptions(e.client, 0, informers.WithNamespace(e.namespace))
			informer := factory.Core().V1().ConfigMaps().Informer()
			var mu sync.Mutex
			seen := map[string]int{}
			_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc: func(obj any) { count(&mu, seen, "add", obj) },
				UpdateFunc: func(_, obj any) {
					count(&mu, seen, "update", obj)
				},
				DeleteFunc: func(obj any) { count(&mu, seen, "delete", obj) },
			})
			if err != nil {
				return err
			}
			stop, cancel := context.WithCancel(ctx)
			factory.Start(stop.Done())
			// Shutdown waits for the informers, which stop when their stop channel closes: cancel first.
			defer func() { cancel(); factory.Shutdown() }()
			for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
				if !ok {
					return fmt.Errorf("cache of %v never synced", typ)
				}
			}
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			cm, err := cms.Create(ctx, configMap("informed", "a"), metav1.CreateOptions{})
			if err != nil {
				return err
			}
			cm.Data["key"] = "b"
			if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
				return err
			}
			if err := cms.Delete(ctx, cm.Name, metav1.DeleteOptions{}); err != nil {
				return err
			}
			return poll(ctx, "add, update and delete of informed", func(context.Context) (bool, error) {
				mu.Lock()
				defer mu.Unlock()
				return seen["add/informed"] >= 1 && seen["update/informed"] >= 1 && seen["delete/informed"] >= 1, nil
			})
		}},
		{"informer/lister", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			if _, err := cms.Create(ctx, configMap("listed", "a"), metav1.CreateOptions{}); err != nil {
				return err
			}
			factory := informers.NewSharedInformerFactoryWithOptions(e.client, time.Minute, informers.WithNamespace(e.namespace))
			lister := factory.Core().V1().ConfigMaps().Lister()
			stop, cancel := context.WithCancel(ctx)
			factory.Start(stop.Done())
			// Shutdown waits for the informers, which stop when their stop channel closes: cancel first.
			defer func() { cancel(); factory.Shutdown() }()
			factory.WaitForCacheSync(ctx.Done())
			return poll(ctx, "the lister to hold listed", func(context.Context) (bool, error) {
				cm, err := lister.ConfigMaps(e.namespace).Get("listed")
				return err == nil && cm.Data["key"] == "a", nil
			})
		}},
	}
}

func count(mu *sync.Mutex, seen map[string]int, what string, obj any) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	cm, ok := obj.(*corev1.ConfigMap)
	if !ok {
		return
	}
	mu.Lock()
	seen[what+"/"+cm.Name]++
	mu.Unlock()
}
