// Lab 09, reference answer: client-go's tryAcquireOrRenew written out against a Lease, plus the rule that keeps
// leaders single: a leader believes it leads only until RenewDeadline after the start of its last successful
// attempt, which ends before anyone else may take over (RenewDeadline < LeaseDuration).
package main

import (
	"context"
	"math"
	"reflect"
	"sync"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kube-controller-workbook/labkit"
)

// LeaseCandidate is one candidate. TryAcquireOrRenew runs in one goroutine, IsLeader is asked from another.
type LeaseCandidate struct {
	config labkit.CandidateConfig

	mu sync.Mutex
	// observedSpec is the Lease spec seen last, observedAt when (on our clock) it was first seen so.
	observedSpec *coordinationv1.LeaseSpec
	observedAt   time.Time
	// leadingUntil is the start of the last successful attempt plus RenewDeadline.
	leadingUntil time.Time
}

// TryAcquireOrRenew is one attempt to acquire or renew the Lease; true if this candidate holds it afterwards.
func (c *LeaseCandidate) TryAcquireOrRenew(ctx context.Context) bool {
	leases, clock, identity := c.config.Leases, c.config.Clock, c.config.Identity
	startedAt := clock.Now()
	now := metav1.NewMicroTime(startedAt)
	seconds := int32(math.Ceil(c.config.LeaseDuration.Seconds()))

	current, err := leases.Get(ctx, c.config.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		created, err := leases.Create(ctx, &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: c.config.Name},
			Spec: coordinationv1.LeaseSpec{
				HolderIdentity:       ptr.To(identity),
				LeaseDurationSeconds: ptr.To(seconds),
				AcquireTime:          &now,
				RenewTime:            &now,
				LeaseTransitions:     ptr.To[int32](0),
			},
		}, metav1.CreateOptions{})
		if err != nil {
			return false // someone created it first
		}
		c.observe(created)
		return c.won(startedAt)
	}
	if err != nil {
		return false
	}
	c.observe(current)

	holder := ptr.Deref(current.Spec.HolderIdentity, "")
	duration := time.Duration(ptr.Deref(current.Spec.LeaseDurationSeconds, 0)) * time.Second
	c.mu.Lock()
	expiresAt := c.observedAt.Add(duration)
	c.mu.Unlock()
	if holder != "" && holder != identity && clock.Now().Before(expiresAt) {
		return false
	}

	mine := holder == identity
	lease := current.DeepCopy() // keeps the resourceVersion we read: a write in between makes Update fail (409)
	lease.Spec.HolderIdentity = ptr.To(identity)
	lease.Spec.LeaseDurationSeconds = ptr.To(seconds)
	lease.Spec.RenewTime = &now
	if !mine {
		lease.Spec.AcquireTime = &now
		lease.Spec.LeaseTransitions = ptr.To(ptr.Deref(current.Spec.LeaseTransitions, 0) + 1)
	}
	updated, err := leases.Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		return false
	}
	c.observe(updated)
	return c.won(startedAt)
}

// IsLeader is true while the last successful attempt started less than RenewDeadline ago, on our clock.
func (c *LeaseCandidate) IsLeader() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.config.Clock.Now().Before(c.leadingUntil)
}

// observe restarts the local expiry timer whenever the Lease's spec changed since we last looked.
func (c *LeaseCandidate) observe(lease *coordinationv1.Lease) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.observedSpec != nil && reflect.DeepEqual(*c.observedSpec, lease.Spec) {
		return
	}
	c.observedSpec = lease.Spec.DeepCopy()
	c.observedAt = c.config.Clock.Now()
}

// won records a successful write of an attempt that started at startedAt: we lead until startedAt+RenewDeadline.
func (c *LeaseCandidate) won(startedAt time.Time) bool {
	c.mu.Lock()
	c.leadingUntil = startedAt.Add(c.config.RenewDeadline)
	c.mu.Unlock()
	return c.IsLeader()
}
