/**
 * ImageLocality (plugins/imagelocality/image_locality.go): favours nodes that already hold the
 * pod's container images, in proportion to their size and to how widely they are spread (an
 * image on every node says nothing about this one). Per image on the node: size × (nodes with
 * the image / all nodes); the sum is clamped to [23 MB, 1000 MB × containers] and scaled to
 * [0, 100].
 */
import type { ScorePlugin } from '../../types.ts';
import { MAX_NODE_SCORE } from '../../types.ts';
import { normalizedImageName, type Snapshot } from '../../node-info.ts';

export const NAME = 'ImageLocality';
const MB = 1024 * 1024;
const MIN_THRESHOLD = 23 * MB;
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

export function imageLocality(): ScorePlugin & import('../../types.ts').PreScorePlugin {
  return {
    name: NAME,
    preScore(state, pod, _nodes, snapshot: Snapshot) {
      const images = [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? [])].map((c) => c.image).filter((i): i is string => Boolean(i)).map(normalizedImageName);
      // Nothing to score when no node holds any of them: skip the per-node work.
      const spread = new Map<string, number>();
      for (const image of images) {
        const count = snapshot.nodesWithImage(image);
        if (count > 0) spread.set(image, count);
      }
      if (spread.size === 0) state.skipScore.add(NAME);
      state.write(NAME, { spread, total: snapshot.nodes.length, containers: (pod.spec.containers ?? []).length });
      return undefined;
    },
    score(state, _pod, node) {
      const s = state.read<{ spread: Map<string, number>; total: number; containers: number }>(NAME)!;
      let sum = 0;
      for (const [image, count] of s.spread) {
        const size = node.images.get(image);
        if (size !== undefined) sum += Math.floor(size * (count / s.total));
      }
      const max = MAX_CONTAINER_THRESHOLD * Math.max(1, s.containers);
      const clamped = Math.min(Math.max(sum, MIN_THRESHOLD), max);
      return Math.floor((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (max - MIN_THRESHOLD));
    },
  };
}
