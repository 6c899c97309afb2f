/**
 * OCI images built on this machine from Debian's busybox-static, for a containerd with no
 * registry to pull from: one layer (busybox and its applet links, plus the small scripts of the
 * image vocabulary below) shared by every image, and one config per image saying what it runs.
 * The layer is built reproducibly (sorted, owner 0, mtime 0), so its digest is the same on
 * every run and every image names the same content (content addressing: one blob, many names).
 *
 * The image vocabulary is the fake runtime's (README § The fake container runtime), made of
 * real processes: `kubespec/http:STATUS[:PORT]` is busybox `nc -ll` answering every request
 * with STATUS, `kubespec/tcp[:PORT]` accepts and closes, `kubespec/slow:SECONDS[:PORT]` answers
 * 200 after SECONDS, `kubespec/hang` sleeps as PID 1 (which the kernel shields from SIGTERM),
 * `kubespec/exit:CODE:AFTER_S` exits. Layout: github.com/opencontainers/image-spec
 * (image-layout.md, manifest.md, config.md).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const BUSYBOX = '/bin/busybox';

/** The images every containerd the suite starts gets, by the name the kubelet asks for. */
export function vocabulary(pauseImage: string): Record<string, string[]> {
  const http = (status: number, delay_s = 0, port = 8080) => ['/bin/sh', '-c', `STATUS=${status} DELAY=${delay_s} exec nc -ll -p ${port} -e /kubespec/respond`];
  return {
    'docker.io/library/busybox:latest': ['sh'],
    // The pause container: holds the sandbox's namespaces and does nothing else.
    [pauseImage]: ['/bin/sleep', '2147483647'],
    ...Object.fromEntries([200, 302, 399, 400, 500].map((s) => [`docker.io/kubespec/http:${s}`, http(s)])),
    'docker.io/kubespec/slow:5': http(200, 5),
    'docker.io/kubespec/tcp:9000': ['/bin/sh', '-c', 'exec nc -ll -p 9000 -e /bin/true'],
    'docker.io/kubespec/tcp:latest': ['/bin/sh', '-c', 'exec nc -ll -p 9000 -e /bin/true'],
    'docker.io/kubespec/hang:latest': ['/bin/sleep', '2147483647'],
    // Also named by its digest, as a pull records it (DIGEST_NAMED): the image whose tag moves (retaggedArchive).
    'docker.io/kubespec/app:latest': ['/bin/sleep', '2147483647'],
  };
}

/** Reads the request head, then answers $STATUS after $DELAY seconds; a redirect points at another host. */
const RESPOND = `#!/bin/sh
while IFS= read -r line; do [ "\${line%?}" = "" ] && break; [ -z "$line" ] && break; done
[ "\${DELAY:-0}" != 0 ] && sleep "$DELAY"
case "$STATUS" in 301|302|303|307|308) loc="Location: http://kubespec.invalid/\\r\\n";; *) loc="";; esac
printf "HTTP/1.1 $STATUS kubespec\\r\\n\${loc}Content-Length: 0\\r\\nConnection: close\\r\\n\\r\\n"
`;

interface Blob {
  digest: string;
  size: number;
}

function writeBlob(layout: string, data: Buffer): Blob {
  const hex = createHash('sha256').update(data).digest('hex');
  fs.writeFileSync(path.join(layout, 'blobs', 'sha256', hex), data);
  return { digest: `sha256:${hex}`, size: data.length };
}

/** The shared root filesystem as a reproducible tar: busybox, a link per applet, /tmp, the scripts. */
function buildLayer(work: string): Buffer {
  const root = path.join(work, 'rootfs');
  fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
  for (const d of ['tmp', 'etc', 'proc', 'sys', 'dev', 'kubespec']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.chmodSync(path.join(root, 'tmp'), 0o1777);
  fs.copyFileSync(BUSYBOX, path.join(root, 'bin', 'busybox'));
  fs.chmodSync(path.join(root, 'bin', 'busybox'), 0o755);
  const applets = execFileSync(BUSYBOX, ['--list'], { encoding: 'utf8' }).split('\n').filter((a) => /^[a-z0-9_.[-]+$/i.test(a) && a !== 'busybox');
  for (const a of applets) fs.symlinkSync('busybox', path.join(root, 'bin', a));
  fs.writeFileSync(path.join(root, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\n');
  fs.writeFileSync(path.join(root, 'etc', 'group'), 'root:x:0:\n');
  fs.writeFileSync(path.join(root, 'kubespec', 'respond'), RESPOND, { mode: 0o755 });
  const tar = path.join(work, 'layer.tar');
  execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-cf', tar, '-C', root, '.']);
  return fs.readFileSync(tar);
}

/**
 * Writes an OCI image layout holding every image of `images` (name → Cmd) and packs it into
 * one tar for `ctr images import`. Returns the tar's path.
 */
export function buildImageArchive(work: string, images: Record<string, string[]>): string {
  const layout = path.join(work, 'layout');
  fs.mkdirSync(path.join(layout, 'blobs', 'sha256'), { recursive: true });
  const layerTar = buildLayer(work);
  const layer = writeBlob(layout, layerTar);
  const manifests = Object.entries(images).map(([name, cmd]) => {
    const config = writeBlob(layout, Buffer.from(JSON.stringify({
      architecture: 'amd64', os: 'linux',
      config: { Env: ['PATH=/bin'], Cmd: cmd, WorkingDir: '/' },
      rootfs: { type: 'layers', diff_ids: [layer.digest] },
    })));
    const manifest = writeBlob(layout, Buffer.from(JSON.stringify({
      schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
    })));
    return indexEntries(name, manifest, DIGEST_NAMED.includes(name));
  }).flat();
  fs.writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(path.join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests }));
  const archive = path.join(work, 'images.tar');
  execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-cf', archive, '-C', layout, '.']);
  return archive;
}

/**
 * Images recorded under `repo@<manifest digest>` too, as containerd's CRI plugin records an image
 * it pulled (pkg/cri/server/image_pull.go): CRI then reports the digest in repoDigests and as
 * ContainerStatus.imageRef, and a pod can name the image by digest.
 */
const DIGEST_NAMED = ['docker.io/kubespec/app:latest'];

/** The index entries naming one manifest: `name` (io.containerd.image.name is the name ctr import gives it), and `repo@digest` if asked. */
function indexEntries(name: string, manifest: Blob, byDigest: boolean): object[] {
  const entry = (n: string) => ({ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'io.containerd.image.name': n, 'org.opencontainers.image.ref.name': n.split(/[:@]/).pop() } });
  return byDigest ? [entry(name), entry(`${name.replace(/:[^/:]+$/, '')}@${manifest.digest}`)] : [entry(name)];
}

/**
 * A rebuilt image under an existing tag (the `cri.images.retag` facet): the same layer as the
 * vocabulary (`work/layer.tar`, built by buildImageArchive) and a config that differs by one
 * environment variable, so config and manifest digests are new. Named by the tag and by its
 * digest. Returns the archive and the manifest digest.
 */
export function retaggedArchive(work: string, name: string, generation: number): { archive: string; digest: string } {
  const layout = path.join(work, `retag-${generation}`);
  fs.mkdirSync(path.join(layout, 'blobs', 'sha256'), { recursive: true });
  const layer = writeBlob(layout, fs.readFileSync(path.join(work, 'layer.tar')));
  const config = writeBlob(layout, Buffer.from(JSON.stringify({
    architecture: 'amd64', os: 'linux',
    config: { Env: ['PATH=/bin', `KUBESPEC_BUILD=${generation}`], Cmd: ['/bin/sleep', '2147483647'], WorkingDir: '/' },
    rootfs: { type: 'layers', diff_ids: [layer.digest] },
  })));
  const manifest = writeBlob(layout, Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
    layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
  })));
  fs.writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(path.join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: indexEntries(name, manifest, true) }));
  const archive = path.join(work, `retag-${generation}.tar`);
  execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-cf', archive, '-C', layout, '.']);
  fs.rmSync(layout, { recursive: true, force: true });
  return { archive, digest: manifest.digest };
}

// ---- the gRPC health image -------------------------------------------------------------------

/**
 * `kubespec/grpc-health:STATUS`: a gRPC health server (grpc.health.v1.Health/Check) answering
 * STATUS on port 9090, as the fake runtime's image of the same name does. busybox has no gRPC, so
 * this image is this machine's `node` binary and the shared libraries it links (ldd), running a
 * script over node:http2 with no npm package: a gRPC message is a 5-byte prefix (flag, big-endian
 * length) and protobuf bytes, and HealthCheckResponse{status: SERVING} is 08 01 (grpc/grpc-proto
 * grpc/health/v1/health.proto; reference/cri/host/grpc-health.ts is the in-process twin).
 */
const GRPC_HEALTH_SCRIPT = `import http2 from 'node:http2';
const status = { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 }[process.env.STATUS] ?? 0;
const server = http2.createServer();
server.on('stream', (stream, headers) => {
  stream.on('data', () => {});
  stream.on('error', () => {});
  stream.on('end', () => {
    const known = headers[':path'] === '/grpc.health.v1.Health/Check';
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': known ? '0' : '12' }));
    stream.end(known ? Buffer.from([0, 0, 0, 0, 2, 0x08, status]) : undefined);
  });
});
server.on('sessionError', () => {});
server.listen(Number(process.env.PORT || 9090), '0.0.0.0');
process.on('SIGTERM', () => process.exit(143));
`;

export const GRPC_HEALTH_IMAGES = ['SERVING', 'NOT_SERVING'].map((s) => `docker.io/kubespec/grpc-health:${s}`);

/**
 * `kubespec/alloc:SIZE` (SIZE in Mi): holds SIZE of memory from one second after it starts, as the
 * fake runtime's image of the same name does — a real Buffer, every page written so it is resident
 * and counted in the container's cgroup working set. busybox cannot hold memory (the sandbox's
 * /dev/shm is 64 MiB, the rootfs is page cache), so this is the node binary too.
 */
const ALLOC_SCRIPT = `const mib = Number(/^(\\d+)Mi$/.exec(process.env.SIZE ?? '')?.[1] ?? 0);
setTimeout(() => { globalThis.held = Buffer.alloc(mib * 1048576, 1); }, 1000);
setInterval(() => {}, 1 << 30);
process.on('SIGTERM', () => process.exit(143));
`;

/** The sizes the features name (PRACTICE-PRIORITY-EVICTION-ORDER); the fake runtime takes any. */
export const ALLOC_IMAGES = ['64Mi', '200Mi', '256Mi', '400Mi'].map((s) => `docker.io/kubespec/alloc:${s}`);

/** Whether `image` (as a pod spec names it) is one of the node-binary images (gRPC health, alloc), imported on first need. */
export function isNodeBinaryImage(image: string): boolean {
  const full = /^[^/]+[.:][^/]*\//.test(image) ? image : `docker.io/${image}`;
  return GRPC_HEALTH_IMAGES.includes(full) || ALLOC_IMAGES.includes(full);
}

/** The node binary, its loader and libraries (as ldd lists them), the script: one layer. */
function buildNodeLayer(work: string): Buffer {
  const root = path.join(work, 'node-rootfs');
  const node = fs.realpathSync(process.execPath);
  const libs = execFileSync('ldd', [node], { encoding: 'utf8' }).split('\n').map((l) => /(\/\S+)\s+\(0x/.exec(l)?.[1]).filter((f): f is string => !!f);
  for (const file of [node, ...libs]) {
    const to = path.join(root, file === node ? '/bin/node' : file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(fs.realpathSync(file), to);
    fs.chmodSync(to, 0o755);
  }
  for (const d of ['tmp', 'proc', 'sys', 'dev', 'kubespec']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.writeFileSync(path.join(root, 'kubespec', 'grpc-health.mjs'), GRPC_HEALTH_SCRIPT);
  fs.writeFileSync(path.join(root, 'kubespec', 'alloc.mjs'), ALLOC_SCRIPT);
  const tar = path.join(work, 'node-layer.tar');
  execFileSync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-cf', tar, '-C', root, '.']);
  return fs.readFileSync(tar);
}

/** An OCI archive of the gRPC health images (one per status), for `ctr images import`. */
export function buildGrpcHealthArchive(work: string): string {
  const layout = path.join(work, 'grpc-layout');
  fs.mkdirSync(path.join(layout, 'blobs', 'sha256'), { recursive: true });
  const layer = writeBlob(layout, buildNodeLayer(work));
  const configs = [
    ...GRPC_HEALTH_IMAGES.map((name) => ({ name, Env: ['PATH=/bin', `STATUS=${name.split(':').pop()}`, 'PORT=9090'], Cmd: ['/bin/node', '/kubespec/grpc-health.mjs'] })),
    ...ALLOC_IMAGES.map((name) => ({ name, Env: ['PATH=/bin', `SIZE=${name.split(':').pop()}`], Cmd: ['/bin/node', '/kubespec/alloc.mjs'] })),
  ];
  const manifests = configs.map(({ name, Env, Cmd }) => {
    const config = writeBlob(layout, Buffer.from(JSON.stringify({
      architecture: 'amd64', os: 'linux',
      config: { Env, Cmd, WorkingDir: '/' },
      rootfs: { type: 'layers', diff_ids: [layer.digest] },
    })));
    const manifest = writeBlob(layout, Buffer.from(JSON.stringify({
      schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
      layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar', ...layer }],
    })));
    return { mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest, annotations: { 'io.containerd.image.name': name, 'org.opencontainers.image.ref.name': name.split(':').pop() } };
  });
  fs.writeFileSync(path.join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  fs.writeFileSync(path.join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests }));
  const archive = path.join(work, 'grpc-images.tar');
  execFileSync('tar', ['--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-cf', archive, '-C', layout, '.']);
  fs.rmSync(path.join(work, 'node-rootfs'), { recursive: true, force: true });
  fs.rmSync(path.join(work, 'node-layer.tar'), { force: true });
  return archive;
}
