/**
 * Expectations, after ControllerExpectations in pkg/controller/controller_utils.go: a controller
 * that has just asked for N creates (or deletes) must not act on the same key again until its
 * cache has seen them, or it would count the pods it already asked for as missing and create
 * them twice. Each create or delete the controller observes lowers the count; a failed write
 * lowers it too (the object will never be observed); once both counts reach zero — or the
 * record is older than ExpectationsTimeout, 5 minutes, in case an event was lost — the key may
 * be synced again.
 *
 * Pure: the time is passed in.
 */

/** ExpectationsTimeout in controller_utils.go. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60 * 1000;

interface Record {
  adds: number;
  dels: number;
  at_ms: number;
}

export class Expectations {
  private readonly records = new Map<string, Record>();

  /** Replaces the key's expectations: `adds` creates and `dels` deletes are on their way. */
  expect(key: string, adds: number, dels: number, now_ms: number): void {
    this.records.set(key, { adds, dels, at_ms: now_ms });
  }

  creationObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.adds--;
  }

  deletionObserved(key: string): void {
    const r = this.records.get(key);
    if (r) r.dels--;
  }

  /** Nothing outstanding (or nothing recorded, or the record expired): the key may act again. */
  satisfied(key: string, now_ms: number): boolean {
    const r = this.records.get(key);
    if (!r) return true;
    return (r.adds <= 0 && r.dels <= 0) || now_ms - r.at_ms > EXPECTATIONS_TIMEOUT_MS;
  }

  /** The owner is gone: forget it. */
  delete(key: string): void {
    this.records.delete(key);
  }
}
