// Notebook 01: one LIST, then a WATCH from its resourceVersion (client-go's typed clientset).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	namespace := flag.String("namespace", "default", "namespace to watch")
	flag.Parse()
	config, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		panic(err)
	}
	configMaps := kubernetes.NewForConfigOrDie(config).CoreV1().ConfigMaps(*namespace)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	// One LIST: the state now, and the resourceVersion it was read at.
	list, err := configMaps.List(ctx, metav1.ListOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("listed %d at resourceVersion %s\n", len(list.Items), list.ResourceVersion)

	// Then one WATCH from exactly that version: every change after the list, in order, pushed to us.
	w, err := configMaps.Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		panic(err)
	}
	defer w.Stop()
	for event := range w.ResultChan() { // a watch.Interface; the channel closes when the watch ends
		switch event.Type {
		case watch.Added, watch.Modified, watch.Deleted:
			cm := event.Object.(*corev1.ConfigMap)
			fmt.Printf("%s %s resourceVersion=%s\n", event.Type, cm.Name, cm.ResourceVersion)
		case watch.Error: // e.g. 410 Gone: that resourceVersion is compacted away, LIST again
			fmt.Println("watch error:", apierrors.FromObject(event.Object))
			return
		}
	}
}
