// Lab 09, Go track: one candidate of a Lease-based leader election. Read ../README.md first ("Go track"); notebook
// 09 section 3 builds a simpler version, section 5 explains the rules the real one adds.
package main

import (
	"context"
	"sync"

	"github.com/kube-controller-workbook/labkit"
)

// LeaseCandidate is one candidate. labkit calls TryAcquireOrRenew about every retry period (the leader to renew,
// the others to try) and asks IsLeader from another goroutine, often: guard what both read with mu.
type LeaseCandidate struct {
	// config holds the Lease API (config.Leases: Get, Create, Update), the Lease's name, your identity, the
	// timings and your clock (config.Clock.Now(), never time.Now()).
	config labkit.CandidateConfig

	mu sync.Mutex
}

// TryAcquireOrRenew is one attempt to acquire or renew the Lease; true if this candidate holds it afterwards.
func (c *LeaseCandidate) TryAcquireOrRenew(ctx context.Context) bool {
	// TODO: read the Lease (create it, holding it yourself, if it does not exist: apierrors.IsNotFound).
	// TODO: if another candidate holds it and it has not expired, give up. Judge expiry on your own clock.
	// TODO: otherwise write yourself in with the resourceVersion you read (Update the Lease you got); a failed
	//       write means you lost.
	panic("TODO: TryAcquireOrRenew is not written yet")
}

// IsLeader is true while this candidate may act as the leader.
func (c *LeaseCandidate) IsLeader() bool {
	// TODO: a leader believes it leads only until RenewDeadline after its last successful attempt started.
	panic("TODO: IsLeader is not written yet")
}
