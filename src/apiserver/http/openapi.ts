/**
 * OpenAPI endpoints (`/openapi/v2`, `/openapi/v3`). Placeholder: nothing is served yet (404).
 */
import type { DiscoveryDocuments } from "./discovery.js";

/** The OpenAPI documents for one snapshot of served resources. */
export class OpenApiDocuments {
  constructor(_discovery: DiscoveryDocuments) {}

  /** The serialized document for `path`, or undefined. */
  lookup(_path: string): string | undefined {
    return undefined;
  }
}
