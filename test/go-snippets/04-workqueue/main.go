// Notebook 04: handlers put keys on a rate-limited workqueue; workers take a key, read the cache, mark it done.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
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
	factory := informers.NewSharedInformerFactoryWithOptions(kubernetes.NewForConfigOrDie(config), 0,
		informers.WithNamespace(*namespace))
	configMaps := factory.Core().V1().ConfigMaps()

	// Keys, not objects: a key already waiting is not added twice, and a key being processed is not handed
	// to a second worker. The default limiter: per-key backoff (5 ms doubling, up to 1000 s) and 10/s overall.
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	enqueue := func(obj any) {
		if key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			queue.Add(key)
		}
	}
	_, _ = configMaps.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue, UpdateFunc: func(_, obj any) { enqueue(obj) }, DeleteFunc: enqueue,
	})
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), configMaps.Informer().HasSynced) {
		return
	}
	for range 2 { // two workers
		go wait.UntilWithContext(ctx, func(context.Context) {
			for processNextItem(queue, configMaps.Lister()) {
			}
		}, time.Second)
	}
	<-ctx.Done()
	queue.ShutDown() // Get returns shutdown=true; the workers return
}

// processNextItem is the worker loop's body: Get, reconcile, then Forget or AddRateLimited, and always Done.
func processNextItem(queue workqueue.TypedRateLimitingInterface[string], lister corelisters.ConfigMapLister) bool {
	key, shutdown := queue.Get()
	if shutdown {
		return false
	}
	defer queue.Done(key) // without it the key stays "processing" and is never handed out again
	if err := reconcile(lister, key); err != nil {
		queue.AddRateLimited(key) // retry later, slower each time
		return true
	}
	queue.Forget(key) // success: reset this key's backoff
	return true
}

// reconcile reads the latest state of the key from the cache: the event that queued it is gone.
func reconcile(lister corelisters.ConfigMapLister, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil // a malformed key never heals: drop it
	}
	cm, err := lister.ConfigMaps(namespace).Get(name)
	if apierrors.IsNotFound(err) {
		fmt.Println("reconcile", key, "gone")
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Println("reconcile", key, "resourceVersion", cm.ResourceVersion)
	return nil
}
