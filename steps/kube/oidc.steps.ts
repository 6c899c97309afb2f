/**
 * Steps for OIDC token authentication (PIPE-AUTHN-OIDC, features/apiserver/pipeline.feature): an
 * issuer hosted by the suite (steps/support/oidc-issuer.ts), the target's --oidc-* flags pointed
 * at it (`kube.authn.oidc`), and requests carrying the ID tokens it signs.
 *
 * Token times are the target's: its virtual clock on the reference, the wall clock elsewhere.
 */
import assert from 'node:assert/strict';
import { Given, Then, When, type DataTable } from '@cucumber/cucumber';
import type { OidcConfig, OidcFlags } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { startIssuer, type TestIssuer } from '../support/oidc-issuer.ts';
import { collectionPath, LAST_RESPONSE } from './api.ts';

const ID_TOKEN = 'oidc id token';
const LAST_ISSUER = 'oidc issuer trusted last';
const issuerKey = (name: string) => `oidc issuer ${name}`;

/** The flags as the table names them; an empty value is a flag not given. */
const FLAGS: Record<string, keyof Omit<OidcFlags, 'issuerUrl'>> = {
  '--oidc-client-id': 'clientId',
  '--oidc-username-claim': 'usernameClaim',
  '--oidc-username-prefix': 'usernamePrefix',
  '--oidc-groups-claim': 'groupsClaim',
  '--oidc-groups-prefix': 'groupsPrefix',
};

Given('an OIDC issuer {string} that the API server trusts with the flags:', async function (this: KubespecWorld, name: string, table: DataTable) {
  const kube = this.kube();
  assert.ok(kube.configureOidc, 'this target declares kube.authn.oidc but offers no configureOidc()');
  const issuer = await startIssuer(`${kube.namespace}/${name}`);
  this.onCleanup(async () => issuer.close());
  this.note(issuerKey(name), issuer);
  this.note(LAST_ISSUER, issuer);
  const config: OidcConfig = { issuerUrl: issuer.url, clientId: '', caBundle: issuer.caBundle };
  for (const [flag, value] of Object.entries(table.rowsHash())) {
    assert.ok(FLAGS[flag], `unknown flag ${flag}; known: ${Object.keys(FLAGS).join(', ')}`);
    if (value !== '') config[FLAGS[flag]] = value;
  }
  await kube.configureOidc(config);
});

function signToken(world: KubespecWorld, name: string, by: 'issuer' | 'forger', claims: { aud: string; sub: string; group: string; minutes: number }): void {
  const issuer = world.recall<TestIssuer>(issuerKey(name));
  const now_s = Math.floor((world.session.clock?.now_ms() ?? Date.now()) / 1000);
  const token = issuer.sign({ iss: issuer.url, aud: claims.aud, sub: claims.sub, email: `${claims.sub}@example.com`, email_verified: true, groups: [claims.group], iat: now_s, exp: now_s + claims.minutes * 60 }, by);
  world.note(ID_TOKEN, token);
}

When('issuer {string} signs an ID token for audience {string} with subject {string} and group {string}, expiring in {int} minutes', function (this: KubespecWorld, name: string, aud: string, sub: string, group: string, minutes: number) {
  signToken(this, name, 'issuer', { aud, sub, group, minutes });
});

When('a key issuer {string} never published signs an ID token for audience {string} with subject {string} and group {string}, expiring in {int} minutes', function (this: KubespecWorld, name: string, aud: string, sub: string, group: string, minutes: number) {
  signToken(this, name, 'forger', { aud, sub, group, minutes });
});

When('a request with that ID token lists pods in the scenario\'s namespace', async function (this: KubespecWorld) {
  const kube = this.kube();
  assert.ok(kube.requestWithCredentials, 'this target declares kube.authn but offers no requestWithCredentials()');
  this.note(LAST_RESPONSE, await kube.requestWithCredentials({ token: this.recall<string>(ID_TOKEN) }, { method: 'GET', path: collectionPath('', 'pods', kube.namespace) }));
});

// `kubectl auth whoami`: the identity the API server made of the token, as it reports it.
// "<issuer URL>" in the user stands for the URL of the issuer trusted last.
Then('a SelfSubjectReview made with that ID token names user {string} in group {string}', async function (this: KubespecWorld, user: string, group: string) {
  const kube = this.kube();
  assert.ok(kube.requestWithCredentials, 'this target declares kube.authn but offers no requestWithCredentials()');
  const issuer = this.recall<TestIssuer>(LAST_ISSUER);
  const expected = user.replace('<issuer URL>', issuer.url);
  const res = await kube.requestWithCredentials({ token: this.recall<string>(ID_TOKEN) }, { method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  assert.equal(res.status, 201, `SelfSubjectReview: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  const info = res.json?.status?.userInfo ?? {};
  assert.equal(info.username, expected, `userInfo: ${JSON.stringify(info)}`);
  assert.ok((info.groups ?? []).includes(group), `groups should include ${group}: ${JSON.stringify(info)}`);
});
