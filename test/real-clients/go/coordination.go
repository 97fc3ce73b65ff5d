package main

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// coordinationChecks: client-go's leader election over a coordination.k8s.io Lease, acquire then release.
func coordinationChecks() []check {
	return []check{
		{"leaderelection/acquire-release", func(ctx context.Context, e *env) error {
			lock := &resourcelock.LeaseLock{
				LeaseMeta:  metav1.ObjectMeta{Name: "real-clients-lock", Namespace: e.namespace},
				Client:     e.client.CoordinationV1(),
				LockConfig: resourcelock.ResourceLockConfig{Identity: "candidate-a"},
			}
			run, stop := context.WithCancel(ctx)
			led := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				leaderelection.RunOrDie(run, leaderelection.LeaderElectionConfig{
					Lock:            lock,
					LeaseDuration:   15 * time.Second,
					RenewDeadline:   10 * time.Second,
					RetryPeriod:     200 * time.Millisecond,
					ReleaseOnCancel: true,
					Callbacks: leaderelection.LeaderCallbacks{
						OnStartedLeading: func(context.Context) { close(led) },
						OnStoppedLeading: func() {},
					},
				})
			}()
			select {
			case <-led:
			case <-ctx.Done():
				stop()
				return fmt.Errorf("never became leader: %w", ctx.Err())
			}
			lease, err := e.client.CoordinationV1().Leases(e.namespace).Get(ctx, "real-clients-lock", metav1.GetOptions{})
			if err != nil {
				stop()
				return err
			}
			if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity != "candidate-a" {
				stop()
				return fmt.Errorf("lease holder is %v", lease.Spec.HolderIdentity)
			}
			stop()
			<-done
			// ReleaseOnCancel empties the holder so the next candidate need not wait for expiry.
			return poll(ctx, "the lease to be released", func(ctx context.Context) (bool, error) {
				lease, err := e.client.CoordinationV1().Leases(e.namespace).Get(ctx, "real-clients-lock", metav1.GetOptions{})
				if err != nil {
					return false, err
				}
				return lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "", nil
			})
		}},
	}
}
