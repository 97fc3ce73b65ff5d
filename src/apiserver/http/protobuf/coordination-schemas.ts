/** k8s.io/api/coordination/v1 messages (coordination/v1/generated.proto): Lease, as client-go's leader election writes it. */

import { int32, message, microTime, msg, PTR, str } from "./message-schema.js";
import { metadataField } from "./meta-schemas.js";

/**
 * coordination/v1.Lease: metadata=1, spec=2 (holderIdentity=1, leaseDurationSeconds=2, acquireTime=3,
 * renewTime=4, leaseTransitions=5, strategy=6, preferredHolder=7).
 */
export const Lease = message("Lease", {
  1: metadataField,
  2: msg(
    "spec",
    message("LeaseSpec", {
      1: str("holderIdentity", PTR),
      2: int32("leaseDurationSeconds", PTR),
      3: microTime("acquireTime"),
      4: microTime("renewTime"),
      5: int32("leaseTransitions", PTR),
      6: str("strategy", PTR),
      7: str("preferredHolder", PTR),
    }),
  ),
});
