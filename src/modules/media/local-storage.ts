/** Media files under a folder (DATA_DIR/media): `put` is a rename from the scratch folder beside it. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkedKey, type MediaStorage, moveScratchFile, scratchFiles } from './storage.ts';

export function localMediaStorage(root: string): MediaStorage {
  const files = path.join(root, 'files');
  const fileOf = (key: string) => path.join(files, checkedKey(key));
  return {
    async put(key, localPath) {
      const target = fileOf(key);
      await moveScratchFile(localPath, async () => {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(localPath, target);
      });
    },
    async read(key, range) {
      const file = await fs.open(fileOf(key));
      return file.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    async readInto(key, into, start) {
      const file = await fs.open(fileOf(key));
      try {
        let read = 0;
        while (read < into.length) {
          const { bytesRead } = await file.read(into, read, into.length - read, start + read);
          if (bytesRead === 0) break;
          read += bytesRead;
        }
        return read;
      } finally {
        await file.close();
      }
    },
    async delete(key) {
      const target = fileOf(key);
      await fs.rm(target, { force: true });
      // The medium's folder goes with its last file.
      await fs.rmdir(path.dirname(target)).catch(() => {});
    },
    async check() {
      await fs.mkdir(files, { recursive: true });
      await fs.access(files, fs.constants.W_OK);
    },
    scratchFile: scratchFiles(path.join(root, 'incoming')),
  };
}
