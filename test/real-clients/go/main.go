// Command real-clients drives an API server with unmodified client-go and controller-runtime, using their
// default content types (protobuf for built-in kinds), and reports one JSON line per check on stdout:
//
//	{"check":"typed/create","ok":true,"ms":12}
//	{"check":"typed/delete","ok":false,"ms":3,"error":"..."}
//
// The workbook's test (test/real-clients/real-clients.test.ts) builds it, runs it against the embedded server
// (and, in CI, against envtest's kube-apiserver) and compares the results. Nothing here is specific to the
// embedded server: a check passes only if a real kube-apiserver would let it pass too.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

// env is what every check gets: clients for one server and a namespace of its own.
type env struct {
	config    *rest.Config
	client    kubernetes.Interface
	namespace string
	suffix    string
	wire      *wireLog
}

// check is one named step; it returns nil when the server behaved as kube-apiserver does.
type check struct {
	name string
	run  func(ctx context.Context, e *env) error
}

// result is the JSON line printed per check.
type result struct {
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	MS    int64  `json:"ms"`
	Error string `json:"error,omitempty"`
	Note  string `json:"note,omitempty"`
}

// noted lets a passing check report a fact (for example the HTTP protocol a request used).
type noted struct{ note string }

func (n noted) Error() string { return n.note }

func main() {
	namespace := flag.String("namespace", "", "an existing namespace the checks may use (required)")
	only := flag.String("only", "", "comma-separated check name prefixes to run (default: all)")
	timeout := flag.Duration("timeout", 30*time.Second, "time limit of one check")
	list := flag.Bool("list", false, "print the check names and exit")
	klog.InitFlags(nil)
	flag.Parse()

	checks := allChecks()
	if *list {
		for _, c := range checks {
			fmt.Println(c.name)
		}
		return
	}
	// The server comes from $KUBECONFIG (controller-runtime owns the --kubeconfig flag).
	kubeconfig := os.Getenv("KUBECONFIG")
	if *namespace == "" || kubeconfig == "" {
		fmt.Fprintln(os.Stderr, "real-clients: $KUBECONFIG and --namespace are required")
		os.Exit(2)
	}
	config, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "real-clients: reading %s: %v\n", kubeconfig, err)
		os.Exit(2)
	}
	// Many checks in a row: do not let client-side throttling slow the run down.
	config.QPS, config.Burst = 200, 400
	wire := newWireLog()
	config.Wrap(wire.wrap)
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintf(os.Stderr, "real-clients: %v\n", err)
		os.Exit(2)
	}
	e := &env{config: config, client: client, namespace: *namespace, suffix: randomSuffix(), wire: wire}
	out := json.NewEncoder(os.Stdout)
	for _, c := range checks {
		if !selected(c.name, *only) {
			continue
		}
		_ = out.Encode(runOne(c, e, *timeout))
	}
}

// runOne runs a check with its own deadline and turns a panic into a failure.
func runOne(c check, e *env, timeout time.Duration) (r result) {
	started := time.Now()
	r.Check = c.name
	defer func() {
		r.MS = time.Since(started).Milliseconds()
		if p := recover(); p != nil {
			r.OK, r.Error = false, fmt.Sprintf("panic: %v", p)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := c.run(ctx, e)
	if n, ok := err.(noted); ok {
		r.OK, r.Note = true, n.note
		return r
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.OK = true
	return r
}

func selected(name, only string) bool {
	if only == "" {
		return true
	}
	for _, prefix := range strings.Split(only, ",") {
		if prefix != "" && strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

func randomSuffix() string {
	return fmt.Sprintf("%x", time.Now().UnixNano()&0xffffff)
}

func allChecks() []check {
	var all []check
	all = append(all, typedChecks()...)
	all = append(all, cacheChecks()...)
	all = append(all, coordinationChecks()...)
	all = append(all, eventChecks()...)
	all = append(all, applyChecks()...)
	all = append(all, kindChecks()...)
	all = append(all, discoveryChecks()...)
	all = append(all, controllerRuntimeChecks()...)
	return all
}
