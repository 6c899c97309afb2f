/**
 * Name and label checks with upstream's messages (k8s.io/apimachinery/pkg/util/validation/validation.go:
 * IsDNS1123Subdomain, IsDNS1123Label, IsDNS1035Label, IsQualifiedName, IsValidLabelValue).
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'path-segment';

export function dns1123SubdomainErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS1123_SUBDOMAIN.test(v)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errs;
}

export function dns1123LabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(v)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

export function dns1035LabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(v)) {
    errs.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

/** path.ValidatePathSegmentName: RBAC objects may be named almost anything that fits in a URL segment. */
export function pathSegmentErrors(v: string): string[] {
  if (v === '.' || v === '..') return [`may not be '${v}'`];
  if (v.includes('/')) return ["may not contain '/'"];
  if (v.includes('%')) return ["may not contain '%'"];
  return [];
}

export function nameErrors(rule: NameRule, v: string): string[] {
  switch (rule) {
    case 'subdomain':
      return dns1123SubdomainErrors(v);
    case 'label':
      return dns1123LabelErrors(v);
    case 'dns1035':
      return dns1035LabelErrors(v);
    case 'path-segment':
      return pathSegmentErrors(v);
  }
}

export function qualifiedNameErrors(key: string): string[] {
  const slash = key.lastIndexOf('/');
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const prefix = slash >= 0 ? key.slice(0, slash) : '';
  const errs: string[] = [];
  if (slash >= 0) errs.push(...dns1123SubdomainErrors(prefix).map((e) => `prefix part ${e}`));
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  else if (!QUALIFIED_NAME_PART.test(name)) {
    errs.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
  }
  return errs;
}

export function labelValueErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(v)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}
