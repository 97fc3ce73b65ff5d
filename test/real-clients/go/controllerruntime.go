package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/recorder"
)

// runningManager is the controller-runtime manager the manager checks share, started by the first of them.
type runningManager struct {
	stop       context.CancelFunc
	done       chan error
	client     client.Client
	recorder   recorder.EventRecorder
	mu         sync.Mutex
	reconciled map[string]int
}

var manager *runningManager

// parentReconciler gives every ConfigMap labelled role=parent a child ConfigMap it controls, and records an
// event on the parent: a controller in the sample-controller shape.
type parentReconciler struct {
	m *runningManager
}

func (r *parentReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	r.m.mu.Lock()
	r.m.reconciled[req.Name]++
	r.m.mu.Unlock()
	var parent corev1.ConfigMap
	if err := r.m.client.Get(ctx, req.NamespacedName, &parent); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if parent.Labels["role"] != "parent" || parent.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	child := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: parent.Name + "-child", Namespace: parent.Namespace}}
	op, err := controllerutil.CreateOrUpdate(ctx, r.m.client, child, func() error {
		child.Data = map[string]string{"from": parent.Name}
		return controllerutil.SetControllerReference(&parent, child, r.m.client.Scheme())
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if op == controllerutil.OperationResultCreated {
		r.m.recorder.Eventf(&parent, child, corev1.EventTypeNormal, "ChildCreated", "Create", "created %s", child.Name)
	}
	return ctrl.Result{}, nil
}

func controllerRuntimeChecks() []check {
	return []check{
		{"controller-runtime/client-crud", func(ctx context.Context, e *env) error {
			c, err := client.New(e.config, client.Options{})
			if err != nil {
				return err
			}
			cm := configMap("cr-crud", "a")
			cm.Namespace = e.namespace
			if err := c.Create(ctx, cm); err != nil {
				return fmt.Errorf("create: %w", err)
			}
			cm.Data["key"] = "b"
			if err := c.Update(ctx, cm); err != nil {
				return fmt.Errorf("update: %w", err)
			}
			var got corev1.ConfigMap
			if err := c.Get(ctx, client.ObjectKeyFromObject(cm), &got); err != nil || got.Data["key"] != "b" {
				return fmt.Errorf("get: %v %v", err, got.Data)
			}
			if err := c.Delete(ctx, cm, client.PropagationPolicy(metav1.DeletePropagationForeground)); err != nil {
				return fmt.Errorf("delete: %w", err)
			}
			var list corev1.ConfigMapList
			if err := c.List(ctx, &list, client.InNamespace(e.namespace), client.Limit(2)); err != nil {
				return fmt.Errorf("list: %w", err)
			}
			return nil
		}},
		{"controller-runtime/client-apply", func(ctx context.Context, e *env) error {
			c, err := client.New(e.config, client.Options{})
			if err != nil {
				return err
			}
			cm := corev1ac.ConfigMap("cr-applied", e.namespace).WithData(map[string]string{"owner": "cr"})
			if err := c.Apply(ctx, cm, client.FieldOwner("cr-manager"), client.ForceOwnership); err != nil {
				return err
			}
			var got corev1.ConfigMap
			if err := c.Get(ctx, types.NamespacedName{Namespace: e.namespace, Name: "cr-applied"}, &got); err != nil {
				return err
			}
			if got.Data["owner"] != "cr" {
				return fmt.Errorf("applied data missing: %v", got.Data)
			}
			return managedBy(got.ManagedFields, "cr-manager", metav1.ManagedFieldsOperationApply, "f:owner")
		}},
		{"controller-runtime/manager-reconciles", func(ctx context.Context, e *env) error {
			log.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.UseDevMode(false)))
			mgr, err := ctrl.NewManager(e.config, ctrl.Options{
				Metrics:                 metricsserver.Options{BindAddress: "0"},
				HealthProbeBindAddress:  "0",
				LeaderElection:          true,
				LeaderElectionID:        "real-clients-manager",
				LeaderElectionNamespace: e.namespace,
				LeaseDuration:           ptr.To(15 * time.Second),
				RenewDeadline:           ptr.To(10 * time.Second),
				RetryPeriod:             ptr.To(500 * time.Millisecond),
				Cache:                   cache.Options{DefaultNamespaces: map[string]cache.Config{e.namespace: {}}},
				Logger:                  logr.Discard(),
			})
			if err != nil {
				return err
			}
			m := &runningManager{client: mgr.GetClient(), recorder: mgr.GetEventRecorder("real-clients-manager"), reconciled: map[string]int{}}
			err = ctrl.NewControllerManagedBy(mgr).
				Named("parents").
				For(&corev1.ConfigMap{}).
				Owns(&corev1.ConfigMap{}).
				Complete(&parentReconciler{m: m})
			if err != nil {
				return err
			}
			run, stop := context.WithCancel(context.Background())
			m.stop, m.done = stop, make(chan error, 1)
			go func() { m.done <- mgr.Start(run) }()
			manager = m
			parent := configMap("cr-parent", "a")
			parent.Namespace = e.namespace
			parent.Labels = map[string]string{"role": "parent"}
			if err := m.client.Create(ctx, parent); err != nil {
				return err
			}
			return poll(ctx, "the reconciler to create cr-parent-child", func(ctx context.Context) (bool, error) {
				var child corev1.ConfigMap
				err := e.client.CoreV1().RESTClient().Get().Namespace(e.namespace).Resource("configmaps").Name("cr-parent-child").Do(ctx).Into(&child)
				if apierrors.IsNotFound(err) {
					select {
					case err := <-m.done:
						return false, fmt.Errorf("manager stopped: %v", err)
					default:
						return false, nil
					}
				}
				if err != nil {
					return false, err
				}
				ref := metav1.GetControllerOf(&child)
				if ref == nil || ref.Name != "cr-parent" {
					return false, fmt.Errorf("child has no controller reference to its parent: %+v", child.OwnerReferences)
				}
				return true, nil
			})
		}},
		{"controller-runtime/event-recorder", func(ctx context.Context, e *env) error {
			if manager == nil {
				return fmt.Errorf("the manager is not running (controller-runtime/manager-reconciles failed)")
			}
			return poll(ctx, "the ChildCreated event", func(ctx context.Context) (bool, error) {
				list, err := e.client.EventsV1().Events(e.namespace).List(ctx, metav1.ListOptions{})
				if err != nil {
					return false, err
				}
				return hasEvent(list.Items, "cr-parent", "ChildCreated"), nil
			})
		}},
		{"controller-runtime/garbage-collection", func(ctx context.Context, e *env) error {
			if manager == nil {
				return fmt.Errorf("the manager is not running (controller-runtime/manager-reconciles failed)")
			}
			parent := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cr-parent", Namespace: e.namespace}}
			if err := manager.client.Delete(ctx, parent, client.PropagationPolicy(metav1.DeletePropagationBackground)); err != nil {
				return err
			}
			return poll(ctx, "the garbage collector to delete cr-parent-child", func(ctx context.Context) (bool, error) {
				_, err := e.client.CoreV1().ConfigMaps(e.namespace).Get(ctx, "cr-parent-child", metav1.GetOptions{})
				if apierrors.IsNotFound(err) {
					return true, nil
				}
				return false, err
			})
		}},
		{"controller-runtime/manager-stops", func(ctx context.Context, e *env) error {
			if manager == nil {
				return fmt.Errorf("the manager is not running")
			}
			manager.stop()
			select {
			case err := <-manager.done:
				manager = nil
				return err
			case <-ctx.Done():
				return fmt.Errorf("the manager did not stop: %w", ctx.Err())
			}
		}},
	}
}

func hasEvent(events []eventsv1.Event, regarding, reason string) bool {
	for _, ev := range events {
		if ev.Regarding.Name == regarding && ev.Reason == reason {
			return true
		}
	}
	return false
}
