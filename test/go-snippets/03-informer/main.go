// Notebook 03: a shared informer from the factory, handlers on it, and a wait for the cache to sync.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	namespace := flag.String("namespace", "default", "namespace to watch")
	flag.Parse()
	config, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		panic(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// One factory per process: every caller asking for ConfigMaps gets the same informer (one watch, one cache).
	factory := informers.NewSharedInformerFactoryWithOptions(kubernetes.NewForConfigOrDie(config),
		10*time.Minute, informers.WithNamespace(*namespace)) // resync: every cached object re-delivered
	configMaps := factory.Core().V1().ConfigMaps()
	_, err = configMaps.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { fmt.Println("add", obj.(*corev1.ConfigMap).Name) },
		UpdateFunc: func(oldObj, newObj any) {
			fmt.Println("update", newObj.(*corev1.ConfigMap).Name) // a resync delivers old == new
		},
		DeleteFunc: func(obj any) {
			// The last state may be unknown (a missed delete): then obj is a cache.DeletedFinalStateUnknown.
			key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
			fmt.Println("delete", key)
		},
	})
	if err != nil {
		panic(err)
	}
	factory.Start(ctx.Done()) // starts every informer requested so far
	defer factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), configMaps.Informer().HasSynced) {
		return
	}
	cached, _ := configMaps.Lister().ConfigMaps(*namespace).List(labels.Everything())
	fmt.Printf("synced: %d in the cache\n", len(cached))
	<-ctx.Done()
}
