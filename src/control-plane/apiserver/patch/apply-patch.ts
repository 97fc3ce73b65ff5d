import { badRequest, failure, type StatusError, tooLarge } from "../../../apimachinery/errors.js";
import { unsupportedMediaType } from "../errors.js";
import { cloneJson, isJsonObject, JsonDepthError } from "../json.js";
import type { PatchType } from "../types.js";
import { applyJsonPatch, parseJsonPatch } from "./json-patch.js";
import { JsonPatchError } from "./json-pointer.js";
import { applyMergePatch } from "./merge-patch.js";
import { applyStrategicMergePatch } from "./strategic-merge-patch.js";

/**
 * Applies a PATCH body to the stored object, by content type, with kube-apiserver's error mapping
 * (`pkg/endpoints/handlers/patch.go`):
 * - `application/merge-patch+json`: RFC 7386; the patch must be a JSON object (400 otherwise).
 * - `application/strategic-merge-patch+json`: built-in kinds only ({@link applyStrategicMergePatch}: merge keys
 *   for the common built-in lists, `$patch` and friends); custom resources answer 415, as the real server
 *   does, because they have no Go struct tags to take merge keys from.
 * - `application/json-patch+json`: RFC 6902; a malformed document is 400, an operation that cannot apply
 *   (missing path, failed `test`, unknown `op`) is 422 Invalid ("the server rejected our request due to an error in our
 *   request"), as the real server answers.
 * - `application/apply-patch+yaml` (server-side apply) is not a patch of this kind: the backend hands it to the
 *   field manager (`fieldmanager/apply.ts`); here any other type is 415 UnsupportedMediaType.
 */
export function applyPatch(
  type: PatchType | string,
  current: unknown,
  patch: unknown,
  options: { customResource?: boolean } = {},
): unknown {
  try {
    patch = cloneJson(patch);
  } catch (err) {
    if (err instanceof JsonDepthError) throw badRequest(`the patch is too deeply nested: ${err.message}`);
    throw err;
  }
  switch (type) {
    case "application/merge-patch+json":
      if (!isJsonObject(patch)) throw badRequest("the patch must be a JSON object for a merge patch");
      return applyMergePatch(current, patch);
    case "application/strategic-merge-patch+json":
      if (options.customResource) throw unsupportedMediaType(type);
      if (!isJsonObject(patch))
        throw badRequest("the patch must be a JSON object for a strategic merge patch");
      return applyStrategicMergePatch(current, patch);
    case "application/json-patch+json":
      try {
        return applyJsonPatch(current, parseJsonPatch(patch));
      } catch (err) {
        if (!(err instanceof JsonPatchError)) throw err;
        if (err.message.startsWith("The allowed maximum operations")) throw tooLarge(err.message);
        if (err.malformed) throw badRequest(err.message);
        throw patchRejected();
      }
    default:
      throw failure(
        415,
        "UnsupportedMediaType",
        `the embedded API server does not support ${type}; use application/merge-patch+json, application/json-patch+json, application/strategic-merge-patch+json or application/apply-patch+yaml`,
      );
  }
}

/**
 * 422 for a patch that cannot apply, exactly as apimachinery's `NewGenericServerResponse(422, ...)` renders it:
 * the generic message and empty details (the real server drops the library's reason, so does this one).
 */
function patchRejected(): StatusError {
  return failure(422, "Invalid", "the server rejected our request due to an error in our request", {});
}
