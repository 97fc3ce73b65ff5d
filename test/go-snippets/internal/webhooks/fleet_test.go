// Notebook 17's Fleet conversion called as the API server calls it: a ConversionReview v1 through
// controller-runtime's conversion webhook handler (no server, no cluster). `go test ./internal/webhooks/` runs it.
package webhooks

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	apix "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

type fleetObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations,omitempty"`
	} `json:"metadata"`
	Spec map[string]any `json:"spec"`
}

// convertFleet sends one object in a ConversionReview and returns the converted one.
func convertFleet(t *testing.T, handler http.Handler, object any, desired string) fleetObject {
	t.Helper()
	raw, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	review := apix.ConversionReview{Request: &apix.ConversionRequest{
		UID: "1", DesiredAPIVersion: desired, Objects: []runtime.RawExtension{{Raw: raw}},
	}}
	review.APIVersion, review.Kind = "apiextensions.k8s.io/v1", "ConversionReview"
	body, err := json.Marshal(review)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/convert", bytes.NewReader(body)))
	var answer apix.ConversionReview
	if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil || answer.Response == nil {
		t.Fatalf("not a ConversionReview answer (%d): %s", rec.Code, rec.Body.String())
	}
	if answer.Response.Result.Status != "Success" || len(answer.Response.ConvertedObjects) != 1 {
		t.Fatalf("conversion failed: %+v", answer.Response.Result)
	}
	var out fleetObject
	if err := json.Unmarshal(answer.Response.ConvertedObjects[0].Raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFleetConversionRoundTrip(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := AddFleetToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if ok, err := conversion.IsConvertible(scheme, &Fleet{}); !ok || err != nil {
		t.Fatalf("Fleet is not convertible: %v", err)
	}
	handler := conversion.NewWebhookHandler(scheme, conversion.NewRegistry())
	v1 := map[string]any{
		"apiVersion": FleetGroup + "/v1", "kind": "Fleet", "metadata": map[string]any{"name": "f"},
		"spec": map[string]any{"replicas": 4, "zones": []string{"a", "b"}},
	}
	down := convertFleet(t, handler, v1, FleetGroup+"/v1alpha1")
	if down.APIVersion != FleetGroup+"/v1alpha1" || down.Spec["size"] != float64(4) {
		t.Fatalf("v1 -> v1alpha1: %+v", down)
	}
	if got := down.Metadata.Annotations[ZonesAnnotation]; got != `["a","b"]` {
		t.Fatalf("zones annotation on v1alpha1: %q", got)
	}
	up := convertFleet(t, handler, down, FleetGroup+"/v1")
	zones, _ := up.Spec["zones"].([]any)
	if up.Spec["replicas"] != float64(4) || !slices.Equal(zones, []any{"a", "b"}) {
		t.Fatalf("v1alpha1 -> v1: %+v", up.Spec)
	}
	if _, left := up.Metadata.Annotations[ZonesAnnotation]; left {
		t.Fatalf("the annotation stays on v1: %+v", up.Metadata.Annotations)
	}
	down.Metadata.Annotations = nil // an old client that dropped the annotation: the zones are gone
	if lost := convertFleet(t, handler, down, FleetGroup+"/v1"); lost.Spec["zones"] != nil {
		t.Fatalf("zones without the annotation: %+v", lost.Spec)
	}
}
