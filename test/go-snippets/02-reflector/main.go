// Notebook 02: a Reflector fills an Indexer from a ListWatch; a lister reads the cache, not the server.
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
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	namespace := flag.String("namespace", "default", "namespace to cache")
	flag.Parse()
	config, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		panic(err)
	}
	clientset := kubernetes.NewForConfigOrDie(config)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// ListWatch: how to LIST and WATCH one resource. Indexer: a thread-safe map keyed "namespace/name".
	lw := cache.NewListWatchFromClient(clientset.CoreV1().RESTClient(), "configmaps", *namespace, fields.Everything())
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	reflector := cache.NewReflector(lw, &corev1.ConfigMap{}, indexer, 0) // 0: no resync
	go reflector.RunWithContext(ctx)                                     // LIST, then WATCH; relists on 410 Gone

	// Wait for the first LIST to land, then read memory.
	err = wait.PollUntilContextCancel(ctx, 50*time.Millisecond, true, func(context.Context) (bool, error) {
		return reflector.LastSyncResourceVersion() != "", nil
	})
	if err != nil {
		return
	}
	lister := corelisters.NewConfigMapLister(indexer)
	cached, _ := lister.ConfigMaps(*namespace).List(labels.Everything())
	fmt.Printf("synced at resourceVersion %s: %d in the cache, keys %v\n",
		reflector.LastSyncResourceVersion(), len(cached), indexer.ListKeys())
	<-ctx.Done()
}
