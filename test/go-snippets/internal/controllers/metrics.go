package controllers

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// snippet:begin 11

// The manager serves metrics.Registry at /metrics on its metrics address. Without a line of ours it exports:
//
//	controller_runtime_reconcile_total{controller,result}   result: success, error, requeue, requeue_after
//	controller_runtime_reconcile_errors_total{controller}
//	controller_runtime_reconcile_time_seconds{controller}   a histogram of reconcile durations
//	controller_runtime_active_workers{controller}, controller_runtime_max_concurrent_reconciles{controller}
//	workqueue_depth{controller,name}, workqueue_adds_total, workqueue_retries_total,
//	workqueue_queue_duration_seconds, workqueue_work_duration_seconds,
//	workqueue_unfinished_work_seconds, workqueue_longest_running_processor_seconds
//	rest_client_requests_total{code,method,host}             every request client-go sent, by status code
//	leader_election_master_status{name}                      1 on the replica holding the lease
//
// RegisterMetrics adds our own metric to the same registry, so the same scrape reads it.
func RegisterMetrics(cloud *MemoryCloud) {
	metrics.Registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "workbook_cloud_buckets",
		Help: "Buckets that exist in the (fake) cloud.",
	}, func() float64 { return float64(cloud.Count()) }))
}

// snippet:end 11
