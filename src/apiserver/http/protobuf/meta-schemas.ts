/**
 * k8s.io/apimachinery/pkg/apis/meta/v1 messages (generated.proto): ObjectMeta, OwnerReference, LabelSelector.
 * Field numbers checked against generated.proto and the bytes kubectl 1.32 sends.
 */
import { bool, int64, map, message, msg, msgs, PTR, str, strs, time } from "./message-schema.js";

/** metav1.OwnerReference: kind=1, name=3, uid=4, apiVersion=5, controller=6, blockOwnerDeletion=7. */
export const OwnerReference = message("OwnerReference", {
  1: str("kind"),
  3: str("name"),
  4: str("uid"),
  5: str("apiVersion"),
  6: bool("controller", PTR),
  7: bool("blockOwnerDeletion", PTR),
});

/**
 * metav1.ObjectMeta. managedFields (17) is deliberately absent: a body carrying it is refused with 415
 * rather than decoded without it.
 */
export const ObjectMeta = message("ObjectMeta", {
  1: str("name"),
  2: str("generateName"),
  3: str("namespace"),
  4: str("selfLink"),
  5: str("uid"),
  6: str("resourceVersion"),
  7: int64("generation"),
  8: time("creationTimestamp"),
  9: time("deletionTimestamp"),
  10: int64("deletionGracePeriodSeconds", PTR),
  11: map("labels"),
  12: map("annotations"),
  13: msgs("ownerReferences", OwnerReference),
  14: strs("finalizers"),
});

/** metav1.LabelSelectorRequirement: key=1, operator=2, values=3. */
export const LabelSelectorRequirement = message("LabelSelectorRequirement", {
  1: str("key"),
  2: str("operator"),
  3: strs("values"),
});

/** metav1.LabelSelector: matchLabels=1, matchExpressions=2. */
export const LabelSelector = message("LabelSelector", {
  1: map("matchLabels"),
  2: msgs("matchExpressions", LabelSelectorRequirement),
});

/** Shorthand for the `metadata` field every top-level object has as field 1. */
export const metadataField = msg("metadata", ObjectMeta);
