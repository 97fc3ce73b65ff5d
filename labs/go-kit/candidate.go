package labkit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	coordinationv1client "k8s.io/client-go/kubernetes/typed/coordination/v1"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
)

// Lab 09 runs one Lease candidate per process. The grader sets, besides $KUBECONFIG, $WORKBOOK_NAMESPACE and
// the leader election variables above:
const (
	// EnvLeaseName is the Lease the candidates compete for, in $WORKBOOK_NAMESPACE.
	EnvLeaseName = "WORKBOOK_LEASE_NAME"
	// EnvClockSkew shifts the candidate's clock (a Go duration, "6s" or "-2s"): another machine's clock.
	EnvClockSkew = "WORKBOOK_CLOCK_SKEW"
)

// Candidate is one contender of a Lease election, as the lab 09 learner writes it.
type Candidate interface {
	// TryAcquireOrRenew is one attempt to take or keep the Lease; true if this candidate holds it afterwards.
	TryAcquireOrRenew(ctx context.Context) bool
	// IsLeader says whether this candidate may act right now. It is called from another goroutine, often.
	IsLeader() bool
}

// CandidateConfig is everything a candidate gets: its Lease API, its Lease, its identity, timings and clock.
type CandidateConfig struct {
	// Leases reads and writes Leases of the candidates' namespace (Get, Create, Update).
	Leases coordinationv1client.LeaseInterface
	// Name is the Lease's name; Identity is this candidate's holderIdentity.
	Name, Identity string
	// LeaseDuration is how long others wait after they last saw the Lease change (whole seconds in the Lease).
	// RenewDeadline is how long a leader believes it leads after the start of its last successful attempt.
	LeaseDuration, RenewDeadline time.Duration
	// Clock is this candidate's clock: use Clock.Now() and Clock.Since(), never time.Now().
	Clock clock.PassiveClock
}

// skewedClock is the real clock shifted by a fixed offset.
type skewedClock struct {
	clock.RealClock
	offset time.Duration
}

func (c skewedClock) Now() time.Time                  { return c.RealClock.Now().Add(c.offset) }
func (c skewedClock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// monotonicMillis is CLOCK_MONOTONIC in ms: one clock for every process of the machine, the grader included.
func monotonicMillis() float64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		panic(err)
	}
	return float64(ts.Sec)*1e3 + float64(ts.Nsec)/1e6
}

// beliefs prints this candidate's changes of mind on stdout, with when they were seen (CLOCK_MONOTONIC, ms):
// "leading T" at the first IsLeader() true, "stopped T" with the last moment it was still seen true.
func beliefs(ctx context.Context, candidate Candidate) {
	leading, lastTrue := false, 0.0
	for ctx.Err() == nil {
		at := monotonicMillis()
		now := candidate.IsLeader()
		switch {
		case now && !leading:
			fmt.Printf("leading %.3f\n", at)
		case !now && leading:
			fmt.Printf("stopped %.3f\n", lastTrue)
		}
		if now {
			lastTrue = at
		}
		leading = now
		time.Sleep(2 * time.Millisecond)
	}
}

// RunCandidate runs the candidate newCandidate makes the way client-go's elector loops: an attempt, then a
// pause of the retry period jittered by up to 1.2 times more, until SIGTERM or SIGINT. It reports every change
// of IsLeader() on stdout for the grader. Any setup error ends the process with status 1.
func RunCandidate(newCandidate func(CandidateConfig) Candidate) {
	if err := runCandidate(newCandidate); err != nil {
		fmt.Fprintf(os.Stderr, "labkit: %v\n", err)
		os.Exit(1)
	}
}

func runCandidate(newCandidate func(CandidateConfig) Candidate) error {
	namespace, name := os.Getenv(EnvNamespace), os.Getenv(EnvLeaseName)
	if namespace == "" || name == "" {
		return fmt.Errorf("%s and %s must be set: the grader sets them", EnvNamespace, EnvLeaseName)
	}
	election, err := LeaderElectionFromEnv()
	if err != nil {
		return err
	}
	var skew time.Duration
	if text := os.Getenv(EnvClockSkew); text != "" {
		if skew, err = time.ParseDuration(text); err != nil {
			return fmt.Errorf("%s: %w", EnvClockSkew, err)
		}
	}
	config, err := ctrl.GetConfig()
	if err != nil {
		return err
	}
	leases, err := coordinationv1client.NewForConfig(config)
	if err != nil {
		return err
	}
	candidate := newCandidate(CandidateConfig{
		Leases:        leases.Leases(namespace),
		Name:          name,
		Identity:      election.Identity,
		LeaseDuration: election.LeaseDuration,
		RenewDeadline: election.RenewDeadline,
		Clock:         skewedClock{offset: skew},
	})
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	var watching sync.WaitGroup
	watching.Go(func() { beliefs(ctx, candidate) })
	for ctx.Err() == nil {
		candidate.TryAcquireOrRenew(ctx)
		pause := time.Duration(float64(election.RetryPeriod) * (1 + rand.Float64()*1.2))
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
	watching.Wait()
	return nil
}
