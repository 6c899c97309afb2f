/**
 * The MVCC snapshot as JSON. It holds every retained version of every key (so reads at any
 * retained revision and watch replays work the same after a restore), plus the revision and
 * the compact revision. Versions are tuples to keep big snapshots small:
 * `[value, createRevision, modRevision, version, tombstone 0|1]`.
 */
import type { KeyHistory, StoredVersion } from './key-index.ts';

export const SNAPSHOT_FORMAT = 'kubespec-mvcc-snapshot/1';

type VersionTuple = [string, number, number, number, 0 | 1];

interface SnapshotJson {
  format: string;
  revision: number;
  compactRevision: number;
  keys: { key: string; versions: VersionTuple[] }[];
}

export interface DecodedSnapshot {
  revision: number;
  compactRevision: number;
  histories: KeyHistory[];
}

export function encodeSnapshot(state: DecodedSnapshot): string {
  const json: SnapshotJson = {
    format: SNAPSHOT_FORMAT,
    revision: state.revision,
    compactRevision: state.compactRevision,
    keys: state.histories.map((h) => ({
      key: h.key,
      versions: h.versions.map((v): VersionTuple => [v.kv.value, v.kv.createRevision, v.kv.modRevision, v.kv.version, v.tombstone ? 1 : 0]),
    })),
  };
  return JSON.stringify(json);
}

/** Parses and checks a snapshot; throws on anything that would make a wrong store. */
export function decodeSnapshot(text: string): DecodedSnapshot {
  const json = JSON.parse(text) as Partial<SnapshotJson>;
  if (json.format !== SNAPSHOT_FORMAT) throw new Error(`not an MVCC snapshot (format ${JSON.stringify(json.format)})`);
  const revision = json.revision;
  const compactRevision = json.compactRevision;
  if (!Number.isSafeInteger(revision) || (revision as number) < 1) throw new Error('snapshot revision must be an integer >= 1');
  if (!Number.isSafeInteger(compactRevision) || (compactRevision as number) < 0 || (compactRevision as number) > (revision as number)) {
    throw new Error('snapshot compact revision must be between 0 and the revision');
  }
  if (!Array.isArray(json.keys)) throw new Error('snapshot has no keys array');
  const histories = json.keys.map((entry) => decodeHistory(entry, revision as number));
  return { revision: revision as number, compactRevision: compactRevision as number, histories };
}

function decodeHistory(entry: { key: string; versions: VersionTuple[] }, revision: number): KeyHistory {
  if (typeof entry.key !== 'string' || entry.key === '' || !Array.isArray(entry.versions) || entry.versions.length === 0) {
    throw new Error('snapshot key entry needs a key and at least one version');
  }
  let previousModRevision = 0;
  const versions = entry.versions.map((tuple): StoredVersion => {
    const [value, createRevision, modRevision, version, tombstone] = tuple;
    if (typeof value !== 'string' || modRevision <= previousModRevision || modRevision > revision) {
      throw new Error(`snapshot versions of ${entry.key} are not ascending within the revision`);
    }
    previousModRevision = modRevision;
    return { kv: { key: entry.key, value, createRevision, modRevision, version }, tombstone: tombstone === 1 };
  });
  return { key: entry.key, versions };
}
