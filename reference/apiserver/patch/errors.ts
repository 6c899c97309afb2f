/** A patch that cannot be applied to the object; the handler turns it into a 4xx Status. */
export class PatchError extends Error {
  constructor(
    message: string,
    /** 'malformed': the patch document itself is wrong (400); 'conflict': it does not fit the object (422). */
    readonly kind: 'malformed' | 'unfit' = 'unfit',
  ) {
    super(message);
    this.name = 'PatchError';
  }
}

export function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export { cloneJson } from '../../json-value.ts';

/** Sets an own property, even one named `__proto__` (plain assignment would swap the prototype). */
export function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
