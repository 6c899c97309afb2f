/**
 * names.SimpleNameGenerator (staging/src/k8s.io/apiserver/pkg/storage/names/generate.go):
 * a generated name is the prefix plus five characters from an alphabet without vowels (so no
 * words form) and without look-alike characters. The randomness is injected.
 */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
export const RANDOM_SUFFIX_LENGTH = 5;

/** `random` returns a float in [0, 1), like a seeded PRNG's next(). */
export function randomSuffix(random: () => number): string {
  let out = '';
  for (let i = 0; i < RANDOM_SUFFIX_LENGTH; i++) out += ALPHANUMS[Math.floor(random() * ALPHANUMS.length)]!;
  return out;
}
