/**
 * Steps for the API server's request throttle (API-RATE-LIMIT in single-entry.feature): fill the
 * mutating seats with creates an admission webhook holds, then see what one more request gets.
 */
import assert from 'node:assert/strict';
import { Then, When } from '@cucumber/cucumber';
import type { KubeResponse } from '../../contract/contract.ts';
import type { KubespecWorld } from '../support/world.ts';
import { configMapsPath, LAST_RESPONSE } from './api.ts';
import { creates } from './webhook.steps.ts';

/** A create as `user` (the scenario's admin when undefined); a dropped connection reads as status 0. */
function createAs(world: KubespecWorld, user: string | undefined, name: string): Promise<KubeResponse> {
  const kube = world.kube();
  return kube.request({
    method: 'POST',
    path: configMapsPath(kube),
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } },
    ...(user ? { as: { user, groups: ['system:authenticated'] } } : {}),
  }).catch((error: unknown) => ({ status: 0, headers: {}, text: String(error), json: undefined }));
}

When('{string} starts as many ConfigMap creates as the server\'s mutating in-flight limit, all held by webhook {string}', async function (this: KubespecWorld, user: string, hook: string) {
  const limit = this.kube().maxMutatingInFlight;
  assert.ok(limit && limit > 0, 'this target declares kube.inflight-limit but gives no maxMutatingInFlight');
  const started = Array.from({ length: limit }, (_, i) => createAs(this, user, `held-${i}`));
  this.note('held creates', started);
  // Every one of them is in flight once the webhook has it (the seat is taken before admission).
  await this.eventually(`${limit} creates held by webhook "${hook}"`, () => creates(this, hook, 'configmap').length >= limit);
});

Then('the response status is {int} with a Retry-After header of at least {int} second(s)', function (this: KubespecWorld, code: number, seconds: number) {
  const res = this.recall<KubeResponse>(LAST_RESPONSE);
  assert.equal(res.status, code, `HTTP ${res.status} ${res.text.slice(0, 300)}`);
  const retryAfter = res.headers['retry-after'];
  assert.ok(retryAfter !== undefined && /^\d+$/.test(retryAfter) && Number(retryAfter) >= seconds, `Retry-After: ${retryAfter} (headers ${JSON.stringify(res.headers)})`);
});

Then('every create {string} started is answered {int}', async function (this: KubespecWorld, _user: string, code: number) {
  const answers = await Promise.all(this.recall<Promise<KubeResponse>[]>('held creates'));
  assert.deepEqual(answers.map((r) => r.status), answers.map(() => code), answers.map((r) => `${r.status} ${r.text.slice(0, 120)}`).join('\n'));
});

Then('{string} creating ConfigMap {string} is answered {int}', async function (this: KubespecWorld, user: string, name: string, code: number) {
  const res = await createAs(this, user, name);
  assert.equal(res.status, code, `HTTP ${res.status} ${res.text.slice(0, 300)}`);
});

Then('{string} listing ConfigMaps in the scenario\'s namespace is answered {int}', async function (this: KubespecWorld, user: string, code: number) {
  const res = await this.kube().request({ method: 'GET', path: configMapsPath(this.kube()), as: { user, groups: ['system:authenticated'] } });
  assert.equal(res.status, code, `HTTP ${res.status} ${res.text.slice(0, 300)}`);
});

Then('a ConfigMap create by the scenario\'s admin \\(system:masters) reaches webhook {string} instead of a 429', async function (this: KubespecWorld, hook: string) {
  const before = creates(this, hook, 'configmap').length;
  const pending = createAs(this, undefined, 'by-admin');
  let early: KubeResponse | undefined;
  void pending.then((r) => (early = r));
  await this.eventually(`the admin's create to reach webhook "${hook}"`, () => early !== undefined || creates(this, hook, 'configmap').length > before);
  assert.equal(early, undefined, `the admin's create was answered before admission: ${early?.status} ${early?.text.slice(0, 200)}`);
  this.note('held creates', [...this.recall<Promise<KubeResponse>[]>('held creates'), pending]);
});
