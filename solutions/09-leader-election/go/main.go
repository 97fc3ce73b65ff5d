// LAB 09, Go track: one candidate of a Lease election per process. labkit.RunCandidate gives it its Lease API,
// identity, timings and clock from the grader's environment, calls TryAcquireOrRenew about every retry period
// and reports each change of IsLeader() to the grader. Your work is in candidate.go.
package main

import "github.com/kube-controller-workbook/labkit"

func main() {
	labkit.RunCandidate(func(config labkit.CandidateConfig) labkit.Candidate { return &LeaseCandidate{config: config} })
}
