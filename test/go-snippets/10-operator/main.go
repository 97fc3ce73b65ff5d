// Notebook 10: the operator's main.go. One manager: a scheme, a shared cache, leader election, metrics and
// health probes; the controllers of notebooks 05-07 registered with it; everything stops on SIGTERM.
package main

import (
	"flag"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/kube-controller-workbook/go-snippets/internal/controllers"
	workbookv1alpha1 "github.com/kube-controller-workbook/labkit/api/v1alpha1"
)

func main() {
	var namespace, metricsAddr, probeAddr string
	var leaderElect bool
	flag.StringVar(&namespace, "namespace", "", "only this namespace (empty: all)")
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", "metrics address, e.g. :8080 (0: off)")
	flag.StringVar(&probeAddr, "health-probe-bind-address", "0", "healthz/readyz address (0: off)")
	flag.BoolVar(&leaderElect, "leader-elect", false, "only the replica holding the Lease runs controllers")
	flag.Parse()
	ctrl.SetLogger(zap.New())

	scheme := runtime.NewScheme() // Go type <-> apiVersion/kind, for decoding and for owner references
	must(clientgoscheme.AddToScheme(scheme))
	must(workbookv1alpha1.AddToScheme(scheme))
	cacheOptions := cache.Options{}
	if namespace != "" {
		cacheOptions.DefaultNamespaces = map[string]cache.Config{namespace: {}}
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{ // --kubeconfig, $KUBECONFIG, in-cluster, ~/.kube/config
		Scheme:                  scheme,
		Cache:                   cacheOptions,
		Metrics:                 metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress:  probeAddr,
		LeaderElection:          leaderElect, // a Lease; defaults: 15 s duration, 10 s renew deadline, 2 s retry
		LeaderElectionID:        "configset-operator.workbook.dev",
		LeaderElectionNamespace: namespace, // out of a cluster it cannot read its own namespace
	})
	must(err)

	cloud := &controllers.MemoryCloud{}
	controllers.RegisterMetrics(cloud)
	must((&controllers.ConfigSetReconciler{
		Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Scheme: mgr.GetScheme(),
	}).SetupWithManager(mgr))
	must((&controllers.BucketReconciler{Client: mgr.GetClient(), Cloud: cloud}).SetupWithManager(mgr))
	must(mgr.AddHealthzCheck("healthz", healthz.Ping))
	must(mgr.AddReadyzCheck("readyz", healthz.Ping))

	// Starts the cache, waits for it to sync, wins the Lease (if asked), then runs the controllers' workers.
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		ctrl.Log.Error(err, "manager stopped")
		os.Exit(1)
	}
}

func must(err error) {
	if err != nil {
		ctrl.Log.Error(err, "setup failed")
		os.Exit(1)
	}
}
