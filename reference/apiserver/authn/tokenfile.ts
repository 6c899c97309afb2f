/**
 * Static token file authentication (kube-apiserver `--token-auth-file`).
 *
 * Upstream (staging/src/k8s.io/apiserver/pkg/authentication/token/tokenfile/tokenfile.go)
 * reads a CSV with at least three columns `token,user,uid` and an optional fourth column of
 * comma-separated groups (quoted, as CSV requires when it contains commas). Empty tokens are
 * skipped; a later duplicate token replaces an earlier one.
 */
import type { Authenticator, AuthnResult, Credentials, UserInfo } from '../pipeline.ts';
import { bearerToken, INVALID_BEARER_TOKEN } from './bearer.ts';

export const TOKEN_FILE_AUTHENTICATOR_NAME = 'token-file';

export class TokenFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenFileError';
  }
}

/** Parse the token file's text into token → user. Throws TokenFileError on a short record. */
export function parseTokenFile(csv: string, path = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  for (const record of parseCsv(csv)) {
    if (record.length < 3) {
      throw new TokenFileError(
        `token file '${path}' must have at least 3 columns (token, user name, user uid), found ${record.length}`,
      );
    }
    const [token, name, uid, groups] = record as [string, string, string, string | undefined];
    if (token === '') continue;
    const user: UserInfo = { name, uid, groups: groups === undefined ? [] : groups.split(',') };
    tokens.set(token, user);
  }
  return tokens;
}

/**
 * An authenticator over a parsed token file. An unknown bearer token is `rejected` with
 * upstream's "invalid bearer token"; the union keeps trying other authenticators (e.g. the
 * ServiceAccount one) before answering 401.
 */
export function tokenFileAuthenticator(opts: { csv: string } | { tokens: Map<string, UserInfo> }): Authenticator {
  const tokens = 'csv' in opts ? parseTokenFile(opts.csv) : opts.tokens;
  return {
    name: TOKEN_FILE_AUTHENTICATOR_NAME,
    authenticate(creds: Credentials): AuthnResult {
      const token = bearerToken(creds);
      if (token === undefined) return { kind: 'no-credentials' };
      const user = tokens.get(token);
      if (!user) return { kind: 'rejected', reason: INVALID_BEARER_TOKEN };
      return { kind: 'authenticated', method: TOKEN_FILE_AUTHENTICATOR_NAME, user: { ...user, groups: [...user.groups] } };
    },
  };
}

/**
 * A small RFC 4180 reader, enough for Go's encoding/csv as the token file uses it: quoted
 * fields may hold commas and doubled quotes; blank lines are skipped.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    records.push(parseCsvLine(line));
  }
  return records;
}

function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else {
      field += ch;
    }
  }
  fields.push(field);
  return fields;
}
