/**
 * Custom resources between versions. Strategy None: the same document in every version, only
 * apiVersion changes (pkg/apiserver/conversion/nop_converter.go). Strategy Webhook: the CRD's
 * conversion webhook converts (webhook-converter.ts). Either way an object already in the wanted
 * version is not converted (webhook_converter.go getObjectsToConvert), so a CRD whose clients use
 * its storage version never calls its webhook.
 */
import type { ResourceDef } from '../resources/registry.ts';
import { convertByWebhook, type ConversionHost } from './webhook-converter.ts';

export type { ConversionHost } from './webhook-converter.ts';

const apiVersion = (def: ResourceDef, version: string) => `${def.group}/${version}`;

/** The object as the requested version shows it (a copy when anything changes: stored objects may be shared). */
export async function servedAs<T>(def: ResourceDef, obj: T, host?: ConversionHost): Promise<T> {
  return (await servedAll(def, [obj], host))[0]!;
}

/** Objects as the requested version shows them: those in another version go to the webhook in one review. */
export async function servedAll<T>(def: ResourceDef, objs: T[], host?: ConversionHost): Promise<T[]> {
  return convertAll(def, objs, apiVersion(def, def.version), host);
}

/** Whether this resource's conversions go to a webhook (and so are asynchronous). */
export function convertsByWebhook(def: ResourceDef): boolean {
  return def.custom?.conversion?.strategy === 'Webhook';
}

/** servedAs for a resource converted without a webhook: synchronous, for the watch's event path. */
export function servedAsNop<T>(def: ResourceDef, obj: T): T {
  const o = obj as any;
  const desired = apiVersion(def, def.version);
  if (!def.custom || !o || typeof o !== 'object' || o.apiVersion === desired) return obj;
  return { ...o, apiVersion: desired };
}

/** The object as it is written: in the storage version. */
export async function storedAs<T>(def: ResourceDef, obj: T, host?: ConversionHost): Promise<T> {
  if (!def.custom) return obj;
  return (await convertAll(def, [obj], apiVersion(def, def.custom.storageVersion), host))[0]!;
}

async function convertAll<T>(def: ResourceDef, objs: T[], desired: string, host: ConversionHost | undefined): Promise<T[]> {
  if (!def.custom) return objs;
  const todo = objs.flatMap((o: any, i) => (o && typeof o === 'object' && o.apiVersion !== desired ? [i] : []));
  if (todo.length === 0) return objs;
  const out = [...objs];
  if (def.custom.conversion?.strategy !== 'Webhook') {
    for (const i of todo) out[i] = { ...(objs[i] as any), apiVersion: desired };
    return out;
  }
  const converted = await convertByWebhook(def.custom.conversion.webhook, todo.map((i) => objs[i]), desired, host);
  todo.forEach((i, k) => (out[i] = converted[k]));
  return out;
}
