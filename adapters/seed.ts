/**
 * Seeds. One run seed drives every scenario; each scenario gets its own seed derived from the
 * run seed and the scenario's identity, so one scenario replays the same whether run alone
 * (`--name`) or with the whole suite, in any order or worker.
 */

/** The run seed when none is given: fixed, so that a plain run is deterministic. */
export const DEFAULT_RUN_SEED = 20261130;

/** FNV-1a over a string, folded with the run seed: a stable 32-bit scenario seed. */
export function scenarioSeed(runSeed: number, identity: string): number {
  let hash = (0x811c9dc5 ^ runSeed) >>> 0;
  for (let i = 0; i < identity.length; i++) {
    hash ^= identity.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function parseSeed(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new Error(`seed must be an integer between 0 and 4294967295, got "${text}"`);
  }
  return value;
}
