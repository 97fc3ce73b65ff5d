// Notebook 09: only the replica holding the Lease runs the controllers (client-go's leaderelection).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

func main() {
	namespace := flag.String("namespace", "default", "namespace of the Lease")
	identity := flag.String("id", os.Getenv("HOSTNAME"), "this replica's name (the pod name in a cluster)")
	flag.Parse()
	config, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		panic(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	lock := &resourcelock.LeaseLock{ // a coordination.k8s.io/v1 Lease; every write carries its resourceVersion
		LeaseMeta:  metav1.ObjectMeta{Name: "configset-controller", Namespace: *namespace},
		Client:     kubernetes.NewForConfigOrDie(config).CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: *identity},
	}
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock:            lock,
		LeaseDuration:   15 * time.Second, // others may take over this long after the last renewal
		RenewDeadline:   10 * time.Second, // the leader gives up if it cannot renew within this
		RetryPeriod:     2 * time.Second,  // how often to try to acquire or renew
		ReleaseOnCancel: true,             // on shutdown, give the Lease up: a successor takes it on its next retry
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				fmt.Println(*identity, "leading: start the controllers with this ctx")
				<-ctx.Done() // cancelled when the lease is lost
			},
			OnStoppedLeading: func() {
				fmt.Println(*identity, "stopped leading")
				os.Exit(0) // a replica that lost the lease exits and starts afresh, never keeps acting
			},
			OnNewLeader: func(holder string) { fmt.Println("leader is", holder) },
		},
	})
}
