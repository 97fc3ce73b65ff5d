package main

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// typedClient is what every generated typed client of a kind offers.
type typedClient[T metav1.Object] interface {
	Create(context.Context, T, metav1.CreateOptions) (T, error)
	Get(context.Context, string, metav1.GetOptions) (T, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
}

// kindCheck creates an object of one kind through its typed client (protobuf), reads it back, checks what
// the server defaulted, and deletes it.
func kindCheck[T metav1.Object](kind string, client func(*env) typedClient[T], object func(*env) T, verify func(T) error) check {
	return check{"kinds/" + kind, func(ctx context.Context, e *env) error {
		c := client(e)
		obj := object(e)
		created, err := c.Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create: %w", err)
		}
		got, err := c.Get(ctx, created.GetName(), metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("get: %w", err)
		}
		if got.GetUID() != created.GetUID() || got.GetGeneration() != created.GetGeneration() {
			return fmt.Errorf("get answered another object")
		}
		if verify != nil {
			if err := verify(got); err != nil {
				return err
			}
		}
		if err := c.Delete(ctx, created.GetName(), metav1.DeleteOptions{}); err != nil {
			return fmt.Errorf("delete: %w", err)
		}
		return nil
	}}
}

var appLabels = map[string]string{"app": "real-clients"}

func podTemplate(restart corev1.RestartPolicy) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: appLabels},
		Spec: corev1.PodSpec{
			RestartPolicy: restart,
			Containers:    []corev1.Container{{Name: "main", Image: "busybox"}},
		},
	}
}

func meta(e *env, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: e.namespace}
}

func kindChecks() []check {
	return []check{
		kindCheck("ServiceAccount", func(e *env) typedClient[*corev1.ServiceAccount] {
			return e.client.CoreV1().ServiceAccounts(e.namespace)
		},
			func(e *env) *corev1.ServiceAccount { return &corev1.ServiceAccount{ObjectMeta: meta(e, "robot")} }, nil),
		kindCheck("PersistentVolumeClaim", func(e *env) typedClient[*corev1.PersistentVolumeClaim] {
			return e.client.CoreV1().PersistentVolumeClaims(e.namespace)
		}, func(e *env) *corev1.PersistentVolumeClaim {
			return &corev1.PersistentVolumeClaim{ObjectMeta: meta(e, "claim"), Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
			}}
		}, func(pvc *corev1.PersistentVolumeClaim) error {
			if pvc.Spec.VolumeMode == nil || *pvc.Spec.VolumeMode != corev1.PersistentVolumeFilesystem {
				return fmt.Errorf("spec.volumeMode not defaulted to Filesystem")
			}
			return nil
		}),
		kindCheck("Endpoints", func(e *env) typedClient[*corev1.Endpoints] { return e.client.CoreV1().Endpoints(e.namespace) },
			func(e *env) *corev1.Endpoints {
				return &corev1.Endpoints{ObjectMeta: meta(e, "endpoints"), Subsets: []corev1.EndpointSubset{{
					Addresses: []corev1.EndpointAddress{{IP: "10.0.0.1"}},
					Ports:     []corev1.EndpointPort{{Port: 80}},
				}}}
			}, nil),
		kindCheck("ResourceQuota", func(e *env) typedClient[*corev1.ResourceQuota] { return e.client.CoreV1().ResourceQuotas(e.namespace) },
			func(e *env) *corev1.ResourceQuota {
				return &corev1.ResourceQuota{ObjectMeta: meta(e, "quota"), Spec: corev1.ResourceQuotaSpec{
					Hard: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("100")},
				}}
			}, nil),
		kindCheck("LimitRange", func(e *env) typedClient[*corev1.LimitRange] { return e.client.CoreV1().LimitRanges(e.namespace) },
			func(e *env) *corev1.LimitRange {
				return &corev1.LimitRange{ObjectMeta: meta(e, "limits"), Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
					Type:    corev1.LimitTypeContainer,
					Default: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
				}}}}
			}, nil),
		kindCheck("Job", func(e *env) typedClient[*batchv1.Job] { return e.client.BatchV1().Jobs(e.namespace) },
			func(e *env) *batchv1.Job {
				return &batchv1.Job{ObjectMeta: meta(e, "job"), Spec: batchv1.JobSpec{Template: podTemplate(corev1.RestartPolicyNever)}}
			}, func(j *batchv1.Job) error {
				if j.Spec.BackoffLimit == nil || *j.Spec.BackoffLimit != 6 || j.Spec.Completions == nil || *j.Spec.Completions != 1 {
					return fmt.Errorf("backoffLimit/completions not defaulted: %v %v", j.Spec.BackoffLimit, j.Spec.Completions)
				}
				if j.Spec.Selector == nil {
					return fmt.Errorf("spec.selector not generated")
				}
				return nil
			}),
		kindCheck("CronJob", func(e *env) typedClient[*batchv1.CronJob] { return e.client.BatchV1().CronJobs(e.namespace) },
			func(e *env) *batchv1.CronJob {
				return &batchv1.CronJob{ObjectMeta: meta(e, "cron"), Spec: batchv1.CronJobSpec{
					Schedule:    "*/5 * * * *",
					JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: podTemplate(corev1.RestartPolicyOnFailure)}},
				}}
			}, func(c *batchv1.CronJob) error {
				if c.Spec.ConcurrencyPolicy != batchv1.AllowConcurrent {
					return fmt.Errorf("concurrencyPolicy not defaulted: %q", c.Spec.ConcurrencyPolicy)
				}
				return nil
			}),
		kindCheck("StatefulSet", func(e *env) typedClient[*appsv1.StatefulSet] { return e.client.AppsV1().StatefulSets(e.namespace) },
			func(e *env) *appsv1.StatefulSet {
				return &appsv1.StatefulSet{ObjectMeta: meta(e, "stateful"), Spec: appsv1.StatefulSetSpec{
					Selector: &metav1.LabelSelector{MatchLabels: appLabels},
					Template: podTemplate(corev1.RestartPolicyAlways),
				}}
			}, func(s *appsv1.StatefulSet) error {
				if s.Spec.PodManagementPolicy != appsv1.OrderedReadyPodManagement || s.Generation != 1 {
					return fmt.Errorf("podManagementPolicy %q generation %d", s.Spec.PodManagementPolicy, s.Generation)
				}
				return nil
			}),
		kindCheck("DaemonSet", func(e *env) typedClient[*appsv1.DaemonSet] { return e.client.AppsV1().DaemonSets(e.namespace) },
			func(e *env) *appsv1.DaemonSet {
				return &appsv1.DaemonSet{ObjectMeta: meta(e, "daemon"), Spec: appsv1.DaemonSetSpec{
					Selector: &metav1.LabelSelector{MatchLabels: appLabels},
					Template: podTemplate(corev1.RestartPolicyAlways),
				}}
			}, func(d *appsv1.DaemonSet) error {
				if d.Spec.UpdateStrategy.Type != appsv1.RollingUpdateDaemonSetStrategyType {
					return fmt.Errorf("updateStrategy not defaulted: %+v", d.Spec.UpdateStrategy)
				}
				return nil
			}),
		kindCheck("Role", func(e *env) typedClient[*rbacv1.Role] { return e.client.RbacV1().Roles(e.namespace) },
			func(e *env) *rbacv1.Role {
				return &rbacv1.Role{ObjectMeta: meta(e, "reader"), Rules: []rbacv1.PolicyRule{{
					APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list"},
				}}}
			}, nil),
		kindCheck("RoleBinding", func(e *env) typedClient[*rbacv1.RoleBinding] { return e.client.RbacV1().RoleBindings(e.namespace) },
			func(e *env) *rbacv1.RoleBinding {
				return &rbacv1.RoleBinding{
					ObjectMeta: meta(e, "reader-binding"),
					RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "reader"},
					Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: "robot", Namespace: e.namespace}},
				}
			}, nil),
		kindCheck("ClusterRole", func(e *env) typedClient[*rbacv1.ClusterRole] { return e.client.RbacV1().ClusterRoles() },
			func(e *env) *rbacv1.ClusterRole {
				return &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "real-clients-" + e.suffix}, Rules: []rbacv1.PolicyRule{{
					APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"get"},
				}}}
			}, nil),
		kindCheck("ClusterRoleBinding", func(e *env) typedClient[*rbacv1.ClusterRoleBinding] { return e.client.RbacV1().ClusterRoleBindings() },
			func(e *env) *rbacv1.ClusterRoleBinding {
				return &rbacv1.ClusterRoleBinding{
					ObjectMeta: metav1.ObjectMeta{Name: "real-clients-" + e.suffix},
					RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "view"},
					Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: "robot", Namespace: e.namespace}},
				}
			}, nil),
		kindCheck("EndpointSlice", func(e *env) typedClient[*discoveryv1.EndpointSlice] {
			return e.client.DiscoveryV1().EndpointSlices(e.namespace)
		},
			func(e *env) *discoveryv1.EndpointSlice {
				return &discoveryv1.EndpointSlice{
					ObjectMeta:  meta(e, "slice"),
					AddressType: discoveryv1.AddressTypeIPv4,
					Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.1"}}},
					Ports:       []discoveryv1.EndpointPort{{Port: ptr.To[int32](80)}},
				}
			}, nil),
		kindCheck("Ingress", func(e *env) typedClient[*networkingv1.Ingress] { return e.client.NetworkingV1().Ingresses(e.namespace) },
			func(e *env) *networkingv1.Ingress {
				pathType := networkingv1.PathTypePrefix
				return &networkingv1.Ingress{ObjectMeta: meta(e, "ingress"), Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{
					Host: "example.com",
					IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{Paths: []networkingv1.HTTPIngressPath{{
						Path: "/", PathType: &pathType,
						Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{
							Name: "web", Port: networkingv1.ServiceBackendPort{Number: 80},
						}},
					}}}},
				}}}}
			}, nil),
		kindCheck("NetworkPolicy", func(e *env) typedClient[*networkingv1.NetworkPolicy] {
			return e.client.NetworkingV1().NetworkPolicies(e.namespace)
		},
			func(e *env) *networkingv1.NetworkPolicy {
				return &networkingv1.NetworkPolicy{ObjectMeta: meta(e, "deny-all"), Spec: networkingv1.NetworkPolicySpec{}}
			}, func(n *networkingv1.NetworkPolicy) error {
				if len(n.Spec.PolicyTypes) != 1 || n.Spec.PolicyTypes[0] != networkingv1.PolicyTypeIngress {
					return fmt.Errorf("policyTypes not defaulted to [Ingress]: %v", n.Spec.PolicyTypes)
				}
				return nil
			}),
		kindCheck("PodDisruptionBudget", func(e *env) typedClient[*policyv1.PodDisruptionBudget] {
			return e.client.PolicyV1().PodDisruptionBudgets(e.namespace)
		},
			func(e *env) *policyv1.PodDisruptionBudget {
				one := intstr.FromInt32(1)
				return &policyv1.PodDisruptionBudget{ObjectMeta: meta(e, "budget"), Spec: policyv1.PodDisruptionBudgetSpec{
					MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: appLabels},
				}}
			}, nil),
		kindCheck("HorizontalPodAutoscaler", func(e *env) typedClient[*autoscalingv2.HorizontalPodAutoscaler] {
			return e.client.AutoscalingV2().HorizontalPodAutoscalers(e.namespace)
		}, func(e *env) *autoscalingv2.HorizontalPodAutoscaler {
			return &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: meta(e, "scaler"), Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
				MaxReplicas:    3,
			}}
		}, func(h *autoscalingv2.HorizontalPodAutoscaler) error {
			if h.Spec.MinReplicas == nil || *h.Spec.MinReplicas != 1 {
				return fmt.Errorf("minReplicas not defaulted to 1: %v", h.Spec.MinReplicas)
			}
			return nil
		}),
		kindCheck("PriorityClass", func(e *env) typedClient[*schedulingv1.PriorityClass] {
			return e.client.SchedulingV1().PriorityClasses()
		},
			func(e *env) *schedulingv1.PriorityClass {
				return &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "real-clients-" + e.suffix}, Value: 1000}
			}, nil),
		kindCheck("StorageClass", func(e *env) typedClient[*storagev1.StorageClass] { return e.client.StorageV1().StorageClasses() },
			func(e *env) *storagev1.StorageClass {
				return &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "real-clients-" + e.suffix}, Provisioner: "example.com/none"}
			}, func(s *storagev1.StorageClass) error {
				if s.ReclaimPolicy == nil || *s.ReclaimPolicy != corev1.PersistentVolumeReclaimDelete {
					return fmt.Errorf("reclaimPolicy not defaulted to Delete: %v", s.ReclaimPolicy)
				}
				return nil
			}),
	}
}
