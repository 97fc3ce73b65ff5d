package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync/atomic"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	clientfeatures "k8s.io/client-go/features"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

// heapInUse forces two collections and returns Go's heap in use and live heap bytes.
func heapInUse() (inUse uint64, alloc uint64) {
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse, m.HeapAlloc
}

func nowMs() float64 { return float64(time.Now().UnixNano()) / 1e6 }

// syncOnce starts a SharedIndexInformer on the namespace's ConfigMaps, waits until its handler has seen
// `expect` adds and HasSynced is true, and returns the elapsed time with the informer still running.
func syncOnce(client *typedcorev1.CoreV1Client, namespace string, expect int64, onUpdate func()) (time.Duration, cache.SharedIndexInformer, context.CancelFunc, error) {
	var adds atomic.Int64
	lw := cache.NewListWatchFromClient(client.RESTClient(), "configmaps", namespace, fields.Everything())
	informer := cache.NewSharedIndexInformer(lw, &corev1.ConfigMap{}, 0,
		cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { adds.Add(1) },
		UpdateFunc: func(any, any) { onUpdate() },
	})
	if err != nil {
		return 0, nil, nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	start := time.Now()
	go informer.RunWithContext(ctx)
	deadline := start.Add(5 * time.Minute)
	for adds.Load() < expect || !informer.HasSynced() {
		if time.Now().After(deadline) {
			cancel()
			return 0, nil, nil, fmt.Errorf("only %d of %d adds after 5 minutes", adds.Load(), expect)
		}
		time.Sleep(200 * time.Microsecond)
	}
	elapsed := time.Since(start)
	if n := len(informer.GetStore().ListKeys()); int64(n) != expect {
		cancel()
		return 0, nil, nil, fmt.Errorf("cache holds %d objects, expected %d", n, expect)
	}
	return elapsed, informer, cancel, nil
}

// runInformer measures initial sync (every run a fresh informer), the heap the last informer's cache holds,
// and, with -updates, how fast the synced informer delivers a burst of updates the harness writes.
func runInformer(args []string) error {
	fs := flag.NewFlagSet("informer", flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig file")
	namespace := fs.String("namespace", "", "namespace of the ConfigMaps")
	expect := fs.Int64("expect", 0, "number of ConfigMaps in the namespace")
	runs := fs.Int("runs", 3, "initial syncs to time")
	protobuf := fs.Bool("protobuf", false, "ask for protobuf instead of JSON")
	updates := fs.Int64("updates", 0, "after the last sync, wait for this many update events")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the syncs to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 1000, 1000
	if *protobuf {
		cfg.ContentType = "application/vnd.kubernetes.protobuf"
		cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	}
	var counter *requestCounter
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		counter = newRequestCounter(rt)
		return counter
	}
	client, err := typedcorev1.NewForConfig(cfg)
	if err != nil {
		return err
	}
	watchList := clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient)
	var updated atomic.Int64
	var firstUpdate, lastUpdate atomic.Value
	allUpdates := make(chan struct{})
	onUpdate := func() {
		n := updated.Add(1)
		if n == 1 {
			firstUpdate.Store(nowMs())
		}
		if n == *updates {
			lastUpdate.Store(nowMs())
			close(allUpdates)
		}
	}
	for run := 0; run < *runs; run++ {
		last := run == *runs-1
		var before, beforeAlloc uint64
		if last {
			before, beforeAlloc = heapInUse()
		}
		elapsed, informer, cancel, err := syncOnce(client, *namespace, *expect, onUpdate)
		if err != nil {
			return err
		}
		kinds, bytes := counter.snapshot()
		emit(map[string]any{"event": "synced", "run": run, "ms": float64(elapsed.Microseconds()) / 1000,
			"watchList": watchList, "requests": kinds, "bytes": bytes})
		if !last {
			cancel()
			continue
		}
		after, afterAlloc := heapInUse()
		emit(map[string]any{"event": "memory", "objects": *expect,
			"heapInUsePerObject": (float64(after) - float64(before)) / float64(*expect),
			"heapAllocPerObject": (float64(afterAlloc) - float64(beforeAlloc)) / float64(*expect)})
		if *updates > 0 {
			// The process's CPU time from here to the last update: the informer's own cost of the burst (the
			// wait is a channel, not a poll, so waiting costs nothing).
			cpuBefore := processCPUMs()
			emit(map[string]any{"event": "ready"})
			select {
			case <-allUpdates:
			case <-time.After(2 * time.Minute):
				cancel()
				return fmt.Errorf("only %d of %d updates after 2 minutes", updated.Load(), *updates)
			}
			emit(map[string]any{"event": "updates", "count": *updates,
				"firstMs": firstUpdate.Load(), "lastMs": lastUpdate.Load(), "cpuMs": processCPUMs() - cpuBefore})
		}
		cancel()
		_ = informer
	}
	return nil
}

// processCPUMs is the user plus system CPU time this process has used, in milliseconds (getrusage(RUSAGE_SELF),
// what Node's process.cpuUsage() reads too).
func processCPUMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	toMs := func(t syscall.Timeval) float64 { return float64(t.Sec)*1000 + float64(t.Usec)/1000 }
	return toMs(ru.Utime) + toMs(ru.Stime)
}
