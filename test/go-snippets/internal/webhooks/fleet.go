package webhooks

// Notebook 17's Fleet at two versions, as controller-runtime converts them: v1 is the hub, v1alpha1 a spoke that
// converts to and from it. In an operator the two types live in api/v1alpha1 and api/v1, both named Fleet, and
// controller-gen writes DeepCopyObject; here they share a file.

import (
	"encoding/json"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
)

// FleetGroup is the API group of both versions.
const FleetGroup = "admission.workbook.dev"

// ZonesAnnotation keeps v1's spec.zones on a v1alpha1 Fleet, which has no field for them (the round trip).
const ZonesAnnotation = FleetGroup + "/zones"

// FleetV1Spec is v1's spec: size renamed to replicas, zones added.
type FleetV1Spec struct {
	Replicas int32    `json:"replicas,omitempty"`
	Zones    []string `json:"zones,omitempty"`
}

// Fleet is v1, the hub: every conversion goes through it. With +kubebuilder:storageversion it is also the
// version objects are stored in.
// +kubebuilder:storageversion
type Fleet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              FleetV1Spec `json:"spec,omitempty"`
}

// Hub marks v1 as the hub (conversion.Hub).
func (*Fleet) Hub() {}

// FleetV1alpha1Spec is v1alpha1's spec.
type FleetV1alpha1Spec struct {
	Size int32 `json:"size,omitempty"`
}

// FleetV1alpha1 is v1alpha1, a spoke (conversion.Convertible).
type FleetV1alpha1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              FleetV1alpha1Spec `json:"spec,omitempty"`
}

var (
	_ conversion.Hub         = &Fleet{}
	_ conversion.Convertible = &FleetV1alpha1{}
)

// ConvertTo converts this v1alpha1 Fleet to the hub: size becomes replicas, zones come back from the annotation.
func (src *FleetV1alpha1) ConvertTo(hub conversion.Hub) error {
	dst, ok := hub.(*Fleet)
	if !ok {
		return fmt.Errorf("unexpected hub %T", hub)
	}
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	dst.Spec = FleetV1Spec{Replicas: src.Spec.Size}
	if raw, found := dst.Annotations[ZonesAnnotation]; found {
		if err := json.Unmarshal([]byte(raw), &dst.Spec.Zones); err != nil {
			return fmt.Errorf("annotation %s: %w", ZonesAnnotation, err)
		}
		delete(dst.Annotations, ZonesAnnotation)
	}
	return nil
}

// ConvertFrom fills this v1alpha1 Fleet from the hub: replicas becomes size, zones go into the annotation.
func (dst *FleetV1alpha1) ConvertFrom(hub conversion.Hub) error {
	src, ok := hub.(*Fleet)
	if !ok {
		return fmt.Errorf("unexpected hub %T", hub)
	}
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	dst.Spec = FleetV1alpha1Spec{Size: src.Spec.Replicas}
	if len(src.Spec.Zones) > 0 {
		raw, err := json.Marshal(src.Spec.Zones)
		if err != nil {
			return err
		}
		if dst.Annotations == nil {
			dst.Annotations = map[string]string{}
		}
		dst.Annotations[ZonesAnnotation] = string(raw)
	}
	return nil
}

// AddFleetToScheme registers both versions under the kind Fleet.
func AddFleetToScheme(scheme *runtime.Scheme) error {
	v1alpha1 := schema.GroupVersion{Group: FleetGroup, Version: "v1alpha1"}
	v1 := schema.GroupVersion{Group: FleetGroup, Version: "v1"}
	scheme.AddKnownTypeWithName(v1alpha1.WithKind("Fleet"), &FleetV1alpha1{})
	scheme.AddKnownTypeWithName(v1.WithKind("Fleet"), &Fleet{})
	metav1.AddToGroupVersion(scheme, v1alpha1)
	metav1.AddToGroupVersion(scheme, v1)
	return nil
}

// SetupFleetConversion registers the conversion webhook (/convert on the manager's webhook server): the builder
// finds that every version of the kind in the scheme is the hub or convertible to it.
func SetupFleetConversion(mgr ctrl.Manager) error {
	return ctrl.NewWebhookManagedBy(mgr, &Fleet{}).Complete()
}

// DeepCopyObject is what controller-gen would write (runtime.Object).
func (in *Fleet) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Zones = slices.Clone(in.Spec.Zones)
	return &out
}

// DeepCopyObject is what controller-gen would write (runtime.Object).
func (in *FleetV1alpha1) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
