/**
 * The fake runtime's images as containerd's CRI plugin keeps them: a content (its id — the config
 * digest — and its manifest digest) under one or more references, `name:tag` ones (repoTags) and
 * `name@sha256:…` ones (repoDigests). Beside it, the registry the node pulls from, which is
 * implicit: any `name:tag` can be pulled (the registry makes the content on first ask), a tag may
 * be moved to new content (a rebuilt image pushed under the same tag), and a digest pulls
 * exactly the content that was once pushed with it — never what a tag names now.
 *
 * containerd (pkg/cri/server/image_pull.go): a pull by tag records the image under the tag and
 * under `name@<manifest digest>`; a pull by digest under the digest reference only.
 * ContainerStatus.imageRef is the image's first repo digest when it has one, else its id
 * (pkg/cri/server/container_status.go), and the kubelet reports it as status.containerStatuses[].imageID.
 */
import type { Image } from '../../../contract/cri.ts';

export interface ImageContent {
  /** The config digest: CRI's Image.id. */
  id: string;
  /** The manifest digest a registry serves it under: `sha256:…`. */
  digest: string;
}

export class ImageStore {
  /** Local references → content. */
  private readonly refs = new Map<string, ImageContent>();
  /** What each `name:tag` names in the registry now. */
  private readonly registryTags = new Map<string, ImageContent>();
  /** Every content ever pushed, by `name@digest`. */
  private readonly registryDigests = new Map<string, ImageContent>();

  /** `newDigest(key)`: 64 hex digits, deterministic per key. */
  constructor(private readonly newDigest: (key: string) => string) {}

  /** The local image a reference (tag, digest reference or image id) names. */
  find(ref: string): Image | undefined {
    const content = this.refs.get(ref) ?? [...this.refs.values()].find((c) => c.id === ref);
    return content && this.image(content);
  }

  /** Pull from the registry: by tag what the tag names now, by digest exactly that content; undefined when the registry has none. */
  pull(ref: string): Image | undefined {
    const byDigest = splitDigest(ref);
    if (byDigest) {
      const content = this.registryDigests.get(ref);
      if (!content) return undefined;
      this.refs.set(ref, content);
      return this.image(content);
    }
    const content = this.registryTags.get(ref) ?? this.push(ref);
    this.refs.set(ref, content);
    this.refs.set(`${repository(ref)}@${content.digest}`, content);
    return this.image(content);
  }

  /**
   * The tag names new content, in the registry and on the node (a rebuilt image pushed under the
   * same tag and pulled again, or `ctr images tag --force` on the node). Earlier content stays
   * reachable by its digest.
   */
  retag(ref: string): Image {
    const content = this.push(ref);
    this.refs.set(ref, content);
    this.refs.set(`${repository(ref)}@${content.digest}`, content);
    return this.image(content);
  }

  /** Every reference to the image's content goes (CRI RemoveImage). */
  remove(ref: string): void {
    const content = this.refs.get(ref) ?? [...this.refs.values()].find((c) => c.id === ref);
    if (!content) return;
    for (const [k, v] of [...this.refs]) if (v === content) this.refs.delete(k);
  }

  list(): Image[] {
    return [...new Set(this.refs.values())].map((c) => this.image(c));
  }

  private push(tagRef: string): ImageContent {
    const n = this.registryDigests.size;
    const content = { id: `sha256:${this.newDigest(`config:${tagRef}#${n}`)}`, digest: `sha256:${this.newDigest(`manifest:${tagRef}#${n}`)}` };
    this.registryTags.set(tagRef, content);
    this.registryDigests.set(`${repository(tagRef)}@${content.digest}`, content);
    return content;
  }

  private image(content: ImageContent): Image {
    const names = [...this.refs].filter(([, c]) => c === content).map(([k]) => k);
    return { id: content.id, repoTags: names.filter((n) => !splitDigest(n)), repoDigests: names.filter((n) => splitDigest(n)), size: 1_000_000 };
  }
}

/** `docker.io/kubespec/app@sha256:…` → its digest; undefined for a tag reference. */
function splitDigest(ref: string): string | undefined {
  return /@(sha256:[0-9a-f]{64})$/.exec(ref)?.[1];
}

/** The repository of a normalised reference: without its tag or digest. */
function repository(ref: string): string {
  const at = ref.indexOf('@');
  if (at >= 0) return ref.slice(0, at);
  return ref.replace(/:[^/:]+$/, '');
}
