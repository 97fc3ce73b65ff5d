/**
 * JSON Pointer (RFC 6901) parsing for JSON Patch paths: `/a/b~1c/0` -> `["a", "b/c", "0"]`; `~1` is `/` and
 * `~0` is `~`. The empty pointer is the whole document.
 */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/"))
    throw new JsonPatchError(`invalid JSON pointer "${pointer}": must start with "/"`);
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** A JSON Patch that cannot be applied (bad path, failed test, malformed operation). */
export class JsonPatchError extends Error {
  override name = "JsonPatchError";

  /** @param malformed true when the patch document itself is invalid (400), false when applying failed (422). */
  constructor(
    message: string,
    readonly malformed = false,
  ) {
    super(message);
  }
}
