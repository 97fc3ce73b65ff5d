/**
 * A bad command line, reported like node's own `parseArgs` errors: `workbook` (src/tools/cli/main.ts) prints the
 * message with a pointer to `--help` and exits 2, without a stack trace.
 */

/** An error `workbook` treats as a usage mistake (exit 2, hint to `--help`). */
export function usageError(message: string): Error {
  return Object.assign(new Error(message), { code: "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" });
}
