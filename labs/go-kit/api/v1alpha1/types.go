// Package v1alpha1 holds the Go types of the workbook's kinds (workbook.dev/v1alpha1), laid out as kubebuilder
// lays out an operator's api/ folder. The markers (+kubebuilder:...) are what controller-gen reads to write the
// CRD; the CRDs the cluster serves come from src/workbook/workbook-api/crds.ts. The DeepCopy methods in
// deepcopy.go are written by hand here; in an operator, controller-gen generates them into
// zz_generated.deepcopy.go. The Go labs (labs/NN-topic/go) and the notebooks' Go module (test/go-snippets)
// both import this package.
// +groupName=workbook.dev
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is workbook.dev/v1alpha1.
var GroupVersion = schema.GroupVersion{Group: "workbook.dev", Version: "v1alpha1"}

var (
	// SchemeBuilder registers the kinds of this package with a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the kinds of this package to a scheme (main.go calls it).
	AddToScheme = SchemeBuilder.AddToScheme
)

// ConfigSetLabel is on every ConfigMap a ConfigSet owns; its value is the ConfigSet's name.
const ConfigSetLabel = "workbook.dev/configset"

// BucketFinalizer stays on a Bucket until its bucket in the cloud is gone.
const BucketFinalizer = "workbook.dev/bucket-cleanup"

// StaticSiteLabel is on every child ConfigMap of a StaticSite; its value is the site's name.
const StaticSiteLabel = "workbook.dev/staticsite"

// StaticSiteFinalizer stays on a StaticSite until its bucket in the cloud is gone.
const StaticSiteFinalizer = "workbook.dev/site-cleanup"

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &ConfigSet{}, &ConfigSetList{}, &Bucket{}, &BucketList{}, &StaticSite{}, &StaticSiteList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}

// ConfigSetSpec is what the user wants: how many ConfigMaps, with which data.
type ConfigSetSpec struct {
	// +kubebuilder:validation:Minimum=0
	Replicas int32             `json:"replicas"`
	Data     map[string]string `json:"data,omitempty"`
}

// ConfigSetStatus is what the controller last saw and did.
type ConfigSetStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Replicas           int32              `json:"replicas,omitempty"`
	ReadyReplicas      int32              `json:"readyReplicas,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// ConfigSet keeps spec.replicas ConfigMaps, each carrying spec.data.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=cfs
type ConfigSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ConfigSetSpec   `json:"spec,omitempty"`
	Status            ConfigSetStatus `json:"status,omitempty"`
}

// ConfigSetList is a list of ConfigSets.
// +kubebuilder:object:root=true
type ConfigSetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ConfigSet `json:"items"`
}

// BucketSpec is the bucket the user wants in the (fake) cloud.
type BucketSpec struct {
	Region     string `json:"region"`
	Versioning bool   `json:"versioning,omitempty"`
}

// BucketStatus records the cloud's id of the bucket once it exists.
type BucketStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	BucketID           string             `json:"bucketId,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// Bucket is a bucket in the (fake) cloud, deleted behind a finalizer.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BucketSpec   `json:"spec,omitempty"`
	Status            BucketStatus `json:"status,omitempty"`
}

// BucketList is a list of Buckets.
// +kubebuilder:object:root=true
type BucketList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Bucket `json:"items"`
}

// StaticSiteSpec is the site the user wants: how many children serve which content.
type StaticSiteSpec struct {
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=20
	Replicas int32  `json:"replicas"`
	Content  string `json:"content"`
	Domain   string `json:"domain,omitempty"`
}

// StaticSiteStatus is what the operator observed: children, the bucket's id, and its conditions
// (Ready, Progressing, Degraded).
type StaticSiteStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Replicas           int32              `json:"replicas,omitempty"`
	ReadyReplicas      int32              `json:"readyReplicas,omitempty"`
	BucketID           string             `json:"bucketId,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// StaticSite is the capstone's kind (lab 10): spec.replicas child ConfigMaps serving spec.content, and a bucket
// in the (fake) cloud deleted behind a finalizer.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=site
type StaticSite struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              StaticSiteSpec   `json:"spec,omitempty"`
	Status            StaticSiteStatus `json:"status,omitempty"`
}

// StaticSiteList is a list of StaticSites.
// +kubebuilder:object:root=true
type StaticSiteList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []StaticSite `json:"items"`
}
