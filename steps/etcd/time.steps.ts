/**
 * Virtual time passing (`clock.virtual`): "10 minutes of virtual time pass", "1 s of virtual
 * time passes", "800 ms of virtual time pass". Generic wording used across the book (controllers, scheduler, etcd); defined
 * once, here.
 */
import { When } from '@cucumber/cucumber';
import type { KubespecWorld } from '../support/world.ts';
import { durationMs } from './support.ts';

When(/^(\d+) (ms|s|seconds?|minutes?|hours?) of virtual time pass(?:es)?$/, async function (this: KubespecWorld, amount: string, unit: string) {
  await this.clock().advance(durationMs(Number(amount), unit));
});
