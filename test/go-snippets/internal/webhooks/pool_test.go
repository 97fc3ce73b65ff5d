// The webhooks of notebook 17 called as the API server calls them, through controller-runtime's admission.Webhook
// (no server, no cluster): `go vet` compiles this, `go test ./internal/webhooks/` runs it.
package webhooks

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

func poolRequest(t *testing.T, op admissionv1.Operation, image string, annotations map[string]string) admission.Request {
	t.Helper()
	raw, err := json.Marshal(map[string]any{
		"apiVersion": "admission.workbook.dev/v1",
		"kind":       "Pool",
		"metadata":   map[string]any{"name": "web", "namespace": "shop", "annotations": annotations},
		"spec":       map[string]any{"replicas": 2, "image": image},
	})
	if err != nil {
		t.Fatal(err)
	}
	req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{
		UID:       "1",
		Operation: op,
		Namespace: "shop",
		Name:      "web",
		UserInfo:  authenticationv1.UserInfo{Username: "alice"},
		Object:    runtime.RawExtension{Raw: raw},
	}}
	if op == admissionv1.Update { // the API server sends the stored object too
		req.OldObject = runtime.RawExtension{Raw: raw}
	}
	return req
}

func TestApprovedImages(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	list := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "approved-images", Namespace: "shop"},
		Data:       map[string]string{"images": "registry.example.com/web:1\nregistry.example.com/api:2"},
	}
	reader := fake.NewClientBuilder().WithScheme(scheme).WithObjects(list).Build()
	hook := admission.WithValidator(scheme, &ApprovedImages{Reader: reader})
	ctx := context.Background()

	if r := hook.Handle(ctx, poolRequest(t, admissionv1.Create, "registry.example.com/api:2", nil)); !r.Allowed {
		t.Fatalf("approved image denied: %+v", r.Result)
	}
	r := hook.Handle(ctx, poolRequest(t, admissionv1.Update, "registry.example.com/miner:1", nil))
	if r.Allowed || r.Result.Code != http.StatusForbidden {
		t.Fatalf("unapproved image: want a 403 denial, got allowed=%v %+v", r.Allowed, r.Result)
	}
	if want := `image "registry.example.com/miner:1" is not in shop/approved-images`; r.Result.Message != want {
		t.Fatalf("message %q, want %q", r.Result.Message, want)
	}
}

func TestStampCreator(t *testing.T) {
	hook := &admission.Webhook{Handler: StampCreator()}
	ctx := context.Background()

	r := hook.Handle(ctx, poolRequest(t, admissionv1.Create, "registry.example.com/web:1", nil))
	if !r.Allowed || len(r.Patches) != 1 {
		t.Fatalf("create: want allowed with one patch, got allowed=%v patches=%+v", r.Allowed, r.Patches)
	}
	if p := r.Patches[0]; p.Path != "/metadata/annotations" ||
		p.Value.(map[string]any)[CreatedByAnnotation] != "alice" {
		t.Fatalf("create: want the annotations added with created-by alice, got %+v", p)
	}
	spoofed := map[string]string{CreatedByAnnotation: "mallory"}
	if r := hook.Handle(ctx, poolRequest(t, admissionv1.Create, "registry.example.com/web:1", spoofed)); r.Allowed {
		t.Fatal("a client-set created-by of someone else was allowed")
	}
	if r := hook.Handle(ctx, poolRequest(t, admissionv1.Update, "registry.example.com/web:1", nil)); !r.Allowed ||
		len(r.Patches) != 0 {
		t.Fatalf("update: want allowed unchanged, got allowed=%v patches=%+v", r.Allowed, r.Patches)
	}
}
