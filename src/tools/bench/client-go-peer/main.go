// Command client-go-peer is the reference implementation the workbook's benchmarks measure themselves against:
// client-go's SharedIndexInformer and workqueue, driven the same way as the TypeScript versions and pointed at
// the same server through the same kubeconfig. The TypeScript harness (src/tools/bench/client-go-peer.ts) builds it
// with the Go toolchain into a cache on first use and reads its JSON lines.
//
// Usage:
//
//	client-go-peer informer -kubeconfig FILE -namespace NS -expect N [-runs R] [-protobuf] [-updates U]
//	client-go-peer workqueue [-cycles N] [-burst B]
//
// Every line on stdout is one JSON object with an "event" field; logs go to stderr. Whether the informer uses
// watch-list streaming follows client-go's own feature gate, so the harness sets KUBE_FEATURE_WatchListClient.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// emit writes one result line.
func emit(v map[string]any) {
	line, err := json.Marshal(v)
	if err != nil {
		fail(err)
	}
	fmt.Println(string(line))
}

// fail reports an error as a JSON line and exits non-zero.
func fail(err error) {
	line, _ := json.Marshal(map[string]any{"event": "error", "message": err.Error()})
	fmt.Println(string(line))
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: client-go-peer informer|workqueue [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "informer":
		err = runInformer(os.Args[2:])
	case "workqueue":
		err = runWorkqueue(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
	emit(map[string]any{"event": "done"})
}
