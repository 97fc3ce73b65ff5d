package main

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
)

// applyChecks: server-side apply through the typed clients: field managers, conflicts, force, list merge keys.
func applyChecks() []check {
	return []check{
		{"apply/create-and-managed-fields", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			cm, err := cms.Apply(ctx, corev1ac.ConfigMap("applied", e.namespace).WithData(map[string]string{"a": "1"}),
				metav1.ApplyOptions{FieldManager: "manager-one"})
			if err != nil {
				return err
			}
			if cm.Data["a"] != "1" {
				return fmt.Errorf("applied data missing: %v", cm.Data)
			}
			return managedBy(cm.ManagedFields, "manager-one", metav1.ManagedFieldsOperationApply, "f:a")
		}},
		{"apply/conflict-and-force", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			if _, err := cms.Apply(ctx, corev1ac.ConfigMap("contested", e.namespace).WithData(map[string]string{"a": "1"}),
				metav1.ApplyOptions{FieldManager: "manager-one"}); err != nil {
				return err
			}
			_, err := cms.Apply(ctx, corev1ac.ConfigMap("contested", e.namespace).WithData(map[string]string{"a": "2"}),
				metav1.ApplyOptions{FieldManager: "manager-two"})
			if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "manager-one") {
				return fmt.Errorf("a second manager setting the same field: want 409 naming manager-one, got %v", err)
			}
			cm, err := cms.Apply(ctx, corev1ac.ConfigMap("contested", e.namespace).WithData(map[string]string{"a": "2"}),
				metav1.ApplyOptions{FieldManager: "manager-two", Force: true})
			if err != nil {
				return fmt.Errorf("forced apply: %w", err)
			}
			if cm.Data["a"] != "2" {
				return fmt.Errorf("forced value not stored: %v", cm.Data)
			}
			return managedBy(cm.ManagedFields, "manager-two", metav1.ManagedFieldsOperationApply, "f:a")
		}},
		{"apply/update-records-manager", func(ctx context.Context, e *env) error {
			cms := e.client.CoreV1().ConfigMaps(e.namespace)
			cm, err := cms.Create(ctx, configMap("updated-managed", "a"), metav1.CreateOptions{FieldManager: "creator"})
			if err != nil {
				return err
			}
			return managedBy(cm.ManagedFields, "creator", metav1.ManagedFieldsOperationUpdate, "f:key")
		}},
		{"apply/list-merge-key", func(ctx context.Context, e *env) error {
			deployments := e.client.AppsV1().Deployments(e.namespace)
			container := func(name, image string) *corev1ac.ContainerApplyConfiguration {
				return corev1ac.Container().WithName(name).WithImage(image)
			}
			deployment := func(containers ...*corev1ac.ContainerApplyConfiguration) *appsv1ac.DeploymentApplyConfiguration {
				return appsv1ac.Deployment("applied-deploy", e.namespace).WithSpec(appsv1ac.DeploymentSpec().
					WithSelector(metav1ac.LabelSelector().WithMatchLabels(map[string]string{"app": "applied"})).
					WithTemplate(corev1ac.PodTemplateSpec().
						WithLabels(map[string]string{"app": "applied"}).
						WithSpec(corev1ac.PodSpec().WithContainers(containers...))))
			}
			if _, err := deployments.Apply(ctx, deployment(container("main", "nginx")), metav1.ApplyOptions{FieldManager: "team-main"}); err != nil {
				return err
			}
			// A second manager adds its own container: containers merge by name, the first one stays.
			d, err := deployments.Apply(ctx, deployment(container("sidecar", "busybox")), metav1.ApplyOptions{FieldManager: "team-sidecar"})
			if err != nil {
				return err
			}
			names := []string{}
			for _, c := range d.Spec.Template.Spec.Containers {
				names = append(names, c.Name)
			}
			if len(names) != 2 {
				return fmt.Errorf("containers after two managers applied: %v (want main and sidecar)", names)
			}
			return nil
		}},
	}
}

// managedBy checks that managedFields has an entry of the manager and operation whose fieldsV1 mentions field.
func managedBy(entries []metav1.ManagedFieldsEntry, manager string, op metav1.ManagedFieldsOperationType, field string) error {
	for _, m := range entries {
		if m.Manager == manager && m.Operation == op && m.FieldsV1 != nil && strings.Contains(string(m.FieldsV1.Raw), field) {
			return nil
		}
	}
	summary := []string{}
	for _, m := range entries {
		raw := ""
		if m.FieldsV1 != nil {
			raw = string(m.FieldsV1.Raw)
		}
		summary = append(summary, fmt.Sprintf("%s/%s %s", m.Manager, m.Operation, raw))
	}
	return fmt.Errorf("no managedFields entry of %s (%s) owning %s; have %v", manager, op, field, summary)
}
