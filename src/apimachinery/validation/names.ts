/**
 * Name and label syntax checks from apimachinery's `util/validation`: DNS-1123 labels and subdomains, DNS-1035
 * labels, qualified names (label and annotation keys) and label values. Each `*Errors` function returns the
 * exact messages kube-apiserver puts in a 422 cause (empty when valid).
 */

const DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?";
const QUALIFIED_NAME_PART = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";

const dns1123Label = new RegExp(`^${DNS1123_LABEL}$`);
const dns1123Subdomain = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const dns1035Label = new RegExp(`^${DNS1035_LABEL}$`);
const qualifiedNamePart = new RegExp(`^${QUALIFIED_NAME_PART}$`);

/** RFC 1123 label: at most 63 characters (namespace names). */
export function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push("must be no more than 63 characters");
  if (!dns1123Label.test(value)) {
    errs.push(
      `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`,
    );
  }
  return errs;
}

/** RFC 1123 subdomain: at most 253 characters (most object names). */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push("must be no more than 253 characters");
  if (!dns1123Subdomain.test(value)) {
    errs.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`,
    );
  }
  return errs;
}

/** RFC 1035 label: starts with a letter, at most 63 characters (service names). */
export function dns1035LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push("must be no more than 63 characters");
  if (!dns1035Label.test(value)) {
    errs.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL}')`,
    );
  }
  return errs;
}

/** Qualified name (`prefix/name` or `name`): label keys, annotation keys, finalizer names. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split("/");
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else for (const e of dns1123SubdomainErrors(prefix)) errs.push(`prefix part ${e}`);
  } else if (parts.length > 2) {
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_PART}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push("name part must be no more than 63 characters");
  if (name.length > 0 && !qualifiedNamePart.test(name)) {
    errs.push(
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_PART}')`,
    );
  }
  return errs;
}

/** True when `value` is a valid qualified name. */
export function isQualifiedName(value: string): boolean {
  return qualifiedNameErrors(value).length === 0;
}

/** Label value: empty, or at most 63 characters of the qualified-name-part alphabet. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push("must be no more than 63 characters");
  if (value.length > 0 && !qualifiedNamePart.test(value)) {
    errs.push(
      `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(${QUALIFIED_NAME_PART})?')`,
    );
  }
  return errs;
}

/** True when `value` is a valid label value. */
export function isValidLabelValue(value: string): boolean {
  return labelValueErrors(value).length === 0;
}

/** ConfigMap and Secret data keys: `[-._a-zA-Z0-9]+`, at most 253 characters. */
export function configMapKeyErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push("must be no more than 253 characters");
  if (!/^[-._a-zA-Z0-9]+$/.test(value)) {
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  }
  if (value === "." || value === "..") errs.push(`must not be '${value}'`);
  else if (value.startsWith("..")) errs.push("must not start with '..'");
  return errs;
}
