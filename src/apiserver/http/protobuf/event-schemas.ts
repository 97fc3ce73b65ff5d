/**
 * k8s.io/api/core/v1 Event (core/v1/generated.proto), as client-go's event recorder writes it: metadata=1,
 * involvedObject=2, reason=3, message=4, source=5, firstTimestamp=6, lastTimestamp=7, count=8, type=9,
 * eventTime=10 (MicroTime), series=11, action=12, related=13, reportingComponent=14, reportingInstance=15.
 */

import { int32, message, microTime, msg, str, time } from "./message-schema.js";
import { metadataField } from "./meta-schemas.js";

/** v1.ObjectReference: kind=1, namespace=2, name=3, uid=4, apiVersion=5, resourceVersion=6, fieldPath=7. */
export const ObjectReference = message("ObjectReference", {
  1: str("kind"),
  2: str("namespace"),
  3: str("name"),
  4: str("uid"),
  5: str("apiVersion"),
  6: str("resourceVersion"),
  7: str("fieldPath"),
});

/** v1.Event. */
export const Event = message("Event", {
  1: metadataField,
  2: msg("involvedObject", ObjectReference),
  3: str("reason"),
  4: str("message"),
  5: msg("source", message("EventSource", { 1: str("component"), 2: str("host") })),
  6: time("firstTimestamp"),
  7: time("lastTimestamp"),
  8: int32("count"),
  9: str("type"),
  10: microTime("eventTime"),
  11: msg("series", message("EventSeries", { 1: int32("count"), 2: microTime("lastObservedTime") })),
  12: str("action"),
  13: msg("related", ObjectReference),
  14: str("reportingComponent"),
  15: str("reportingInstance"),
});
