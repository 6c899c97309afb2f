/**
 * Steps that read the last API response a step kept (LAST_RESPONSE): its status, its Status
 * reason and message, its field causes. A failure prints the whole Status the server sent.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import type { KubeResponse } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { expandNs, LAST_RESPONSE } from './api.ts';

function last(world: KubespecWorld): KubeResponse {
  return world.recall<KubeResponse>(LAST_RESPONSE);
}

function shown(res: KubeResponse): string {
  return `HTTP ${res.status} ${res.text.slice(0, 600)}`;
}

Then('the response status is {int}', function (this: KubespecWorld, code: number) {
  const res = last(this);
  assert.equal(res.status, code, shown(res));
});

Then('the response status is {int} with reason {string}', function (this: KubespecWorld, code: number, reason: string) {
  const res = last(this);
  assert.equal(res.status, code, shown(res));
  assert.equal(res.json?.kind, 'Status', `the answer should be a Status: ${shown(res)}`);
  assert.equal(res.json?.reason, reason, shown(res));
});

Then('the response message contains {string}', function (this: KubespecWorld, rawText: string) {
  const res = last(this);
  const text = expandNs(this.kube(), rawText);
  assert.ok(String(res.json?.message ?? '').includes(text), `message should contain ${JSON.stringify(text)}: ${shown(res)}`);
});

Then('the response is refused with a message containing {string}', function (this: KubespecWorld, text: string) {
  const res = last(this);
  assert.ok(res.status >= 400, `expected a refusal, got ${shown(res)}`);
  assert.ok(String(res.json?.message ?? '').includes(text), `message should contain ${JSON.stringify(text)}: ${shown(res)}`);
});

// Upstream's wording (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go,
// Forbidden, wrapped by apierrors.NewForbidden): `<resource> is forbidden: User "<user>" cannot <verb> resource "<resource>" …`.
Then('the response message names user {string}, verb {string} and resource {string}', function (this: KubespecWorld, user: string, verb: string, resource: string) {
  const res = last(this);
  const message = String(res.json?.message ?? '');
  for (const part of [`User "${expandNs(this.kube(), user)}"`, `cannot ${verb} `, `resource "${resource}"`]) {
    assert.ok(message.includes(part), `message should contain ${JSON.stringify(part)}: ${shown(res)}`);
  }
});

Then('the response details list a cause for field {string} of type {string}', function (this: KubespecWorld, field: string, type: string) {
  const res = last(this);
  const causes: { field?: string; reason?: string }[] = res.json?.details?.causes ?? [];
  assert.ok(causes.some((c) => c.field === field && c.reason === type), `no cause ${type} for ${field}: ${shown(res)}`);
});
