package main

import (
	"flag"
	"fmt"
	"time"

	"k8s.io/client-go/util/workqueue"
)

var keys = func() []string {
	k := make([]string, 1024)
	for i := range k {
		k[i] = fmt.Sprintf("namespace-%d/object-%d", i%7, i)
	}
	return k
}()

// cycles runs one producer and one worker goroutine: the producer adds `burst` distinct keys and waits until
// the worker has taken and finished all of them, then adds the next burst. Every cycle is an Add, a Get and a
// Done; the worker blocks in Get between bursts, so each burst includes the hand-off that wakes it.
func cycles(n, burst int) float64 {
	q := workqueue.NewTyped[string]()
	roundDone := make(chan struct{})
	go func() {
		processed := 0
		for {
			item, shutdown := q.Get()
			if shutdown {
				return
			}
			q.Done(item)
			processed++
			if processed%burst == 0 {
				roundDone <- struct{}{}
			}
		}
	}()
	rounds := n / burst
	start := time.Now()
	next := 0
	for r := 0; r < rounds; r++ {
		for j := 0; j < burst; j++ {
			q.Add(keys[next&1023])
			next++
		}
		<-roundDone
	}
	elapsed := time.Since(start)
	q.ShutDown()
	return float64(rounds*burst) / elapsed.Seconds()
}

// burstBeforeWorker adds `perKey` copies of each of `distinct` keys before any worker runs, then drains the
// queue; returns the adds per second of the burst and how many items the worker got (expected: `distinct`).
func burstBeforeWorker(distinct, perKey int) (float64, int) {
	q := workqueue.NewTyped[string]()
	start := time.Now()
	for i := 0; i < perKey; i++ {
		for k := 0; k < distinct; k++ {
			q.Add(keys[k])
		}
	}
	rate := float64(distinct*perKey) / time.Since(start).Seconds()
	gets := 0
	for q.Len() > 0 {
		item, _ := q.Get()
		q.Done(item)
		gets++
	}
	q.ShutDown()
	return rate, gets
}

// burstWhileProcessing takes one key into processing, adds it `adds` more times, marks it done and drains:
// the re-adds park in the dirty set and come back once (expected gets: 2).
func burstWhileProcessing(adds int) int {
	q := workqueue.NewTyped[string]()
	q.Add(keys[0])
	item, _ := q.Get()
	gets := 1
	for i := 0; i < adds; i++ {
		q.Add(keys[0])
	}
	q.Done(item)
	for q.Len() > 0 {
		again, _ := q.Get()
		q.Done(again)
		gets++
	}
	q.ShutDown()
	return gets
}

func best(times int, f func() float64) float64 {
	top := 0.0
	for i := 0; i < times; i++ {
		if v := f(); v > top {
			top = v
		}
	}
	return top
}

// runWorkqueue measures client-go's workqueue the way src/tools/bench measures the workbook's.
func runWorkqueue(args []string) error {
	fs := flag.NewFlagSet("workqueue", flag.ContinueOnError)
	n := fs.Int("cycles", 2_000_000, "add/get/done cycles per run")
	burst := fs.Int("burst", 100, "keys added before waiting for the worker")
	runs := fs.Int("runs", 3, "runs (the best is reported)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cycles(*n/10, *burst) // warm-up
	batched := best(*runs, func() float64 { return cycles(*n, *burst) })
	pingPong := best(*runs, func() float64 { return cycles(*n/10, 1) })
	addRate, gets := burstBeforeWorker(10, 1000)
	emit(map[string]any{"event": "workqueue", "burst": *burst, "cyclesPerSecond": batched,
		"pingPongPerSecond": pingPong, "burstAddsPerSecond": addRate, "burstGets": gets,
		"whileProcessingGets": burstWhileProcessing(1000)})
	return nil
}
