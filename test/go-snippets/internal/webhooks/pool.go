// Package webhooks holds notebook 17's admission webhooks for the Pool kind, as an operator writes them with
// controller-runtime: the schema rules as kubebuilder markers, a typed Validator, a raw admission.Handler, the
// webhook.Server that serves both, and the configuration that keeps kube-system writable.
package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

// PoolSpec is the Pool's spec with the rules of section 1 and the defaults of section 2 as markers.
// +kubebuilder:validation:XValidation:rule="self.replicas <= self.maxReplicas",message="replicas may not exceed maxReplicas",fieldPath=".replicas"
// +kubebuilder:validation:XValidation:rule="self.replicas * 2 >= oldSelf.replicas",message="replicas may not drop by more than half in one step",fieldPath=".replicas",reason=FieldValueForbidden
type PoolSpec struct {
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:default=1
	Replicas int32 `json:"replicas,omitempty"`
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:default=10
	MaxReplicas int32 `json:"maxReplicas,omitempty"`
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:XValidation:rule="self.startsWith('registry.example.com/')",messageExpression="'image ' + self + ' is not from registry.example.com/'"
	Image string `json:"image,omitempty"`
}

// CreatedByAnnotation is what the mutating webhook stamps.
const CreatedByAnnotation = "admission.workbook.dev/created-by"

// ApprovedImages is the validating webhook: a Pool's image must be listed in the ConfigMap approved-images of
// its namespace, something no rule in the schema can read.
type ApprovedImages struct {
	Reader client.Reader
}

var _ admission.Validator[*unstructured.Unstructured] = &ApprovedImages{}

func (a *ApprovedImages) check(ctx context.Context, pool *unstructured.Unstructured) (admission.Warnings, error) {
	image, _, _ := unstructured.NestedString(pool.Object, "spec", "image")
	var list corev1.ConfigMap
	key := client.ObjectKey{Namespace: pool.GetNamespace(), Name: "approved-images"}
	if err := a.Reader.Get(ctx, key, &list); client.IgnoreNotFound(err) != nil {
		return nil, err
	}
	if !slices.Contains(strings.Split(list.Data["images"], "\n"), image) {
		return nil, fmt.Errorf("image %q is not in %s/approved-images", image, pool.GetNamespace())
	}
	return nil, nil
}

// ValidateCreate checks a new Pool; an error becomes a 403 denial with its message.
func (a *ApprovedImages) ValidateCreate(ctx context.Context, pool *unstructured.Unstructured) (admission.Warnings, error) {
	return a.check(ctx, pool)
}

// ValidateUpdate checks the Pool as it will be stored.
func (a *ApprovedImages) ValidateUpdate(ctx context.Context, _, pool *unstructured.Unstructured) (admission.Warnings, error) {
	return a.check(ctx, pool)
}

// ValidateDelete allows every delete (the configuration does not send them anyway).
func (a *ApprovedImages) ValidateDelete(context.Context, *unstructured.Unstructured) (admission.Warnings, error) {
	return nil, nil
}

// StampCreator is the mutating webhook, a raw admission.Handler because it needs the request's UserInfo.
func StampCreator() admission.Handler {
	return admission.HandlerFunc(func(_ context.Context, req admission.Request) admission.Response {
		if req.Operation != admissionv1.Create {
			return admission.Allowed("") // the configuration sends creates only; anything else passes unchanged
		}
		var pool unstructured.Unstructured
		if err := json.Unmarshal(req.Object.Raw, &pool.Object); err != nil {
			return admission.Errored(http.StatusBadRequest, err)
		}
		annotations := pool.GetAnnotations()
		if claimed, ok := annotations[CreatedByAnnotation]; ok && claimed != req.UserInfo.Username {
			return admission.Denied(CreatedByAnnotation + " is set by the webhook, not by clients")
		}
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[CreatedByAnnotation] = req.UserInfo.Username
		pool.SetAnnotations(annotations)
		mutated, err := json.Marshal(pool.Object)
		if err != nil {
			return admission.Errored(http.StatusInternalServerError, err)
		}
		return admission.PatchResponseFromRaw(req.Object.Raw, mutated)
	})
}

// NewServer serves both webhooks over HTTPS, with tls.crt and tls.key from certDir.
func NewServer(scheme *runtime.Scheme, reader client.Reader, certDir string) webhook.Server {
	server := webhook.NewServer(webhook.Options{Port: 9443, CertDir: certDir})
	server.Register("/validate-pool", admission.WithValidator(scheme, &ApprovedImages{Reader: reader}))
	server.Register("/mutate-pool", &admission.Webhook{Handler: StampCreator()})
	return server
}

// ValidatingConfiguration selects Pools in every namespace but kube-system: with Fail, a webhook that is down
// refuses their writes, and kube-system stays writable so the control plane can repair itself.
func ValidatingConfiguration(url string, caBundle []byte) *admissionregistrationv1.ValidatingWebhookConfiguration {
	fail := admissionregistrationv1.Fail
	none := admissionregistrationv1.SideEffectClassNone
	timeout := int32(5)
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "pool-images"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:         "images.pools.admission.workbook.dev",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: &url, CABundle: caBundle},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
				Rule: admissionregistrationv1.Rule{
					APIGroups:   []string{"admission.workbook.dev"},
					APIVersions: []string{"v1"},
					Resources:   []string{"pools"},
				},
			}},
			NamespaceSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
				Key:      "kubernetes.io/metadata.name",
				Operator: metav1.LabelSelectorOpNotIn,
				Values:   []string{"kube-system"},
			}}},
			FailurePolicy:           &fail,
			SideEffects:             &none,
			TimeoutSeconds:          &timeout,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
}
