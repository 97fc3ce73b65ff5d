import { badRequest, expired } from "../../../apimachinery/errors.js";
import { isJsonObject } from "../json.js";

/**
 * The opaque `continue` token of a paginated LIST. Like kube-apiserver's (`pkg/storage/etcd3` continue
 * token), it is base64 of a small JSON document holding the list's revision and the key to resume at, so
 * every page is read at the first page's revision.
 */
export interface ContinueToken {
  /** Revision the first page was read at. */
  rev: number;
  /** Resume at the first key >= this one. */
  start: string;
}

const VERSION = "meta.k8s.io/v1";

/** Encodes a token. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(JSON.stringify({ v: VERSION, rv: token.rev, start: token.start })).toString("base64url");
}

/**
 * Decodes a token; anything malformed is 400 BadRequest `invalid continue token: continue key is not valid:
 * <why>`, kube-apiserver's wording (the reason after it is JavaScript's, not Go's JSON decoder's).
 */
export function decodeContinue(raw: string): ContinueToken {
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch (err) {
    throw invalidContinue(err instanceof Error ? err.message : String(err));
  }
  if (
    !isJsonObject(doc) ||
    doc.v !== VERSION ||
    typeof doc.rv !== "number" ||
    !Number.isInteger(doc.rv) ||
    doc.rv < 1 ||
    typeof doc.start !== "string"
  ) {
    throw invalidContinue("server does not recognize this encoding");
  }
  return { rev: doc.rv, start: doc.start };
}

/** 400 for a continue token the server cannot use. */
export function invalidContinue(why: string): ReturnType<typeof badRequest> {
  return badRequest(`invalid continue token: continue key is not valid: ${why}`);
}

/** 410 Expired for a continue token whose revision was compacted away. */
export function expiredContinue(): ReturnType<typeof expired> {
  return expired(
    "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.",
  );
}
