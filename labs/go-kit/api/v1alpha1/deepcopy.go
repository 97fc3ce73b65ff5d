package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Written by hand in place of controller-gen's zz_generated.deepcopy.go: every kind is a runtime.Object, and the
// informer cache hands out pointers into shared state, so a controller deep-copies before it mutates.

func copyConditions(in []metav1.Condition) []metav1.Condition {
	if in == nil {
		return nil
	}
	out := make([]metav1.Condition, len(in))
	for i := range in {
		in[i].DeepCopyInto(&out[i])
	}
	return out
}

// DeepCopyInto copies the receiver into out.
func (in *ConfigSet) DeepCopyInto(out *ConfigSet) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Data != nil {
		out.Spec.Data = make(map[string]string, len(in.Spec.Data))
		for k, v := range in.Spec.Data {
			out.Spec.Data[k] = v
		}
	}
	out.Status.Conditions = copyConditions(in.Status.Conditions)
}

// DeepCopy returns a deep copy.
func (in *ConfigSet) DeepCopy() *ConfigSet {
	out := new(ConfigSet)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *ConfigSet) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyObject implements runtime.Object.
func (in *ConfigSetList) DeepCopyObject() runtime.Object {
	out := &ConfigSetList{TypeMeta: in.TypeMeta}
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]ConfigSet, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
	return out
}

// DeepCopyInto copies the receiver into out.
func (in *Bucket) DeepCopyInto(out *Bucket) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = copyConditions(in.Status.Conditions)
}

// DeepCopy returns a deep copy.
func (in *Bucket) DeepCopy() *Bucket {
	out := new(Bucket)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Bucket) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyObject implements runtime.Object.
func (in *BucketList) DeepCopyObject() runtime.Object {
	out := &BucketList{TypeMeta: in.TypeMeta}
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Bucket, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
	return out
}

// DeepCopyInto copies the receiver into out.
func (in *StaticSite) DeepCopyInto(out *StaticSite) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = copyConditions(in.Status.Conditions)
}

// DeepCopy returns a deep copy.
func (in *StaticSite) DeepCopy() *StaticSite {
	out := new(StaticSite)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *StaticSite) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyObject implements runtime.Object.
func (in *StaticSiteList) DeepCopyObject() runtime.Object {
	out := &StaticSiteList{TypeMeta: in.TypeMeta}
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]StaticSite, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
	return out
}
