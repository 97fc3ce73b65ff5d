/** The longest manager name kube-apiserver accepts (`FieldManagerMaxLength`). */
export const MAX_MANAGER_LENGTH = 128;

/**
 * The manager of a write that names none (`prefixFromUserAgent`): the User-Agent up to its first `/`, without
 * unprintable characters, cut to 128 characters. client-go's default User-Agent `main/v0.0.0 (linux/amd64)
 * kubernetes/...` gives `main`, kubectl's gives `kubectl` (though kubectl names its own: `kubectl-edit`...).
 * An empty result becomes `unknown` when the entry is recorded.
 */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const prefix = (userAgent ?? "").split("/")[0] ?? "";
  let out = "";
  for (const ch of prefix) {
    if (!/\P{C}/u.test(ch)) continue;
    if (out.length + ch.length > MAX_MANAGER_LENGTH) break;
    out += ch;
  }
  return out;
}
