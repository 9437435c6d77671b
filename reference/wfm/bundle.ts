// P4 deployment bundle: a gzip tar of exactly the deployment YAMLs, byte-for-byte reproducible so its digest is stable.
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';

export interface BundleFile {
  name: string;
  bytes: Buffer;
}

/** Fixed metadata: equal inputs give equal archives, whenever and wherever they are built. */
const EPOCH = new Date(0);

export async function deploymentBundle(files: BundleFile[], level = 9): Promise<Buffer> {
  const tar = pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of tar) chunks.push(chunk as Buffer);
  })();
  for (const f of files) {
    await new Promise<void>((resolve, reject) => {
      tar.entry(
        { name: f.name, size: f.bytes.length, mode: 0o644, mtime: EPOCH, uid: 0, gid: 0, uname: '', gname: '', type: 'file' },
        f.bytes,
        (err) => (err ? reject(err) : resolve()),
      );
    });
  }
  tar.finalize();
  await collected;
  // gzip writes MTIME 0 unless told otherwise, so the compressed bytes are reproducible too.
  return gzipSync(Buffer.concat(chunks), { level });
}
