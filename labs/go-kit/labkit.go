// Package labkit runs the Go track of a lab the way the workbook's grader runs it: one controller-runtime
// manager per process, reading its namespace and its metrics address from the environment the grader sets,
// stopped by SIGTERM. A lab's main.go is one call to Run; everything else a learner writes is the reconciler.
// It holds no controller logic: that is the lab.
package labkit

import (
	"fmt"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

// The environment the grader sets for a lab's program (next to KUBECONFIG, which ctrl.GetConfig reads).
const (
	// EnvNamespace names the one namespace the manager's cache watches (the grader makes one per requirement).
	EnvNamespace = "WORKBOOK_NAMESPACE"
	// EnvMetricsAddress is where the manager serves /metrics; the grader counts reconciles from
	// controller_runtime_reconcile_total there, as an operator's owner watches a running operator.
	EnvMetricsAddress = "WORKBOOK_METRICS_ADDRESS"
	// EnvIdentity is this replica's name when several run (lab 10): what it writes as the Lease's holder.
	EnvIdentity = "WORKBOOK_IDENTITY"
	// EnvLeaseDuration, EnvRenewDeadline and EnvRetryPeriod are the leader election timings (Go durations:
	// "2s", "1.5s", "300ms"), short ones from the grader.
	EnvLeaseDuration = "WORKBOOK_LEASE_DURATION"
	EnvRenewDeadline = "WORKBOOK_RENEW_DEADLINE"
	EnvRetryPeriod   = "WORKBOOK_RETRY_PERIOD"
)

// LeaderElection is how one replica campaigns for its Lease, as the grader sets it in the environment.
type LeaderElection struct {
	// Identity is this replica's holder identity (default: the host name).
	Identity string
	// LeaseDuration, RenewDeadline and RetryPeriod default to controller-runtime's 15 s, 10 s and 2 s.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
}

// LeaderElectionFromEnv reads $WORKBOOK_IDENTITY and the three timings.
func LeaderElectionFromEnv() (LeaderElection, error) {
	le := LeaderElection{LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second}
	le.Identity = os.Getenv(EnvIdentity)
	if le.Identity == "" {
		host, err := os.Hostname()
		if err != nil {
			return le, err
		}
		le.Identity = host
	}
	for name, into := range map[string]*time.Duration{
		EnvLeaseDuration: &le.LeaseDuration, EnvRenewDeadline: &le.RenewDeadline, EnvRetryPeriod: &le.RetryPeriod,
	} {
		if text := os.Getenv(name); text != "" {
			d, err := time.ParseDuration(text)
			if err != nil {
				return le, fmt.Errorf("%s: %w", name, err)
			}
			*into = d
		}
	}
	return le, nil
}

// Configure changes the manager's options before it is built (lab 10 turns on leader election), knowing the
// config the manager connects with and the namespace it watches.
type Configure func(config *rest.Config, namespace string, options *ctrl.Options) error

// NewScheme maps Go types to apiVersion/kind: client-go's built-in kinds and workbook.dev/v1alpha1.
func NewScheme() (*runtime.Scheme, error) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := workbookv1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	return scheme, nil
}

// NewManager builds the manager a lab runs in: the kubeconfig from $KUBECONFIG, a cache that lists and
// watches only $WORKBOOK_NAMESPACE, metrics at $WORKBOOK_METRICS_ADDRESS ("0", the default here, turns them
// off), no leader election and no health probes (the labs that need them turn them on, through configure).
func NewManager(configure Configure) (ctrl.Manager, error) {
	namespace := os.Getenv(EnvNamespace)
	if namespace == "" {
		return nil, fmt.Errorf("%s is not set: the grader sets it; to run by hand, export %s=<namespace>",
			EnvNamespace, EnvNamespace)
	}
	metricsAddress := os.Getenv(EnvMetricsAddress)
	if metricsAddress == "" {
		metricsAddress = "0"
	}
	scheme, err := NewScheme()
	if err != nil {
		return nil, err
	}
	config, err := ctrl.GetConfig()
	if err != nil {
		return nil, err
	}
	options := ctrl.Options{
		Scheme:  scheme,
		Cache:   cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
		Metrics: metricsserver.Options{BindAddress: metricsAddress},
	}
	if configure != nil {
		if err := configure(config, namespace, &options); err != nil {
			return nil, err
		}
	}
	return ctrl.NewManager(config, options)
}

// Run builds the manager, lets setup register the lab's controllers with it, then starts it: the caches
// list and sync, then the workers run, until SIGTERM or SIGINT stops everything. Any error ends the
// process with status 1 and the error on stderr, where the grader shows it.
func Run(setup func(mgr ctrl.Manager) error) { RunWith(nil, setup) }

// RunWith is Run with the manager's options changed by configure first.
func RunWith(configure Configure, setup func(mgr ctrl.Manager) error) {
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr)))
	mgr, err := NewManager(configure)
	if err == nil {
		err = setup(mgr)
	}
	if err == nil {
		err = mgr.Start(ctrl.SetupSignalHandler())
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "labkit: %v\n", err)
		os.Exit(1)
	}
}
