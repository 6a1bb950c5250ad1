import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decrypt, encrypt, loadSecretKey, openSealed } from '../src/secrets.ts';

describe('SECRET_KEY and encryption at rest', () => {
  it('generates a key into DATA_DIR once and reads the same key afterwards', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-secret-'));
    try {
      const first = await loadSecretKey(undefined, dir);
      const second = await loadSecretKey(undefined, dir);
      expect(first.length).toBe(32);
      expect(second.equals(first)).toBe(true);
      const stat = await fs.stat(path.join(dir, 'secret.key'));
      expect(stat.mode & 0o077).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('accepts SECRET_KEY as 64 hex digits or base64 and rejects other lengths', async () => {
    const raw = randomBytes(32);
    expect((await loadSecretKey(raw.toString('hex'), '/nonexistent')).equals(raw)).toBe(true);
    expect((await loadSecretKey(raw.toString('base64'), '/nonexistent')).equals(raw)).toBe(true);
    await expect(loadSecretKey(randomBytes(16).toString('base64'), '/nonexistent')).rejects.toThrow(/32 bytes/);
  });

  it('round-trips a value, differently each time, and detects tampering', () => {
    const key = randomBytes(32);
    const a = encrypt(key, 'platform-token-ü');
    const b = encrypt(key, 'platform-token-ü');
    expect(a).not.toBe(b);
    expect(a).not.toContain('platform-token');
    expect(decrypt(key, a)).toBe('platform-token-ü');
    const parts = a.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decrypt(key, parts.join('.'))).toThrow();
    expect(() => decrypt(randomBytes(32), a)).toThrow();
  });

  it('opens a sealed value as decrypt does, again and again, under its own key only, and never a tampered one', () => {
    const key = randomBytes(32);
    const sealed = encrypt(key, 'platform-token-ü');
    expect(openSealed(key, sealed)).toBe('platform-token-ü');
    expect(openSealed(key, sealed)).toBe('platform-token-ü');
    expect(() => openSealed(randomBytes(32), sealed)).toThrow();
    const parts = sealed.split('.');
    parts[2] = Buffer.from('0123456789abcdef').toString('base64url');
    expect(() => openSealed(key, parts.join('.'))).toThrow();
    expect(() => openSealed(key, parts.join('.'))).toThrow();
  });

  it("reads and writes `v1.<iv>.<tag>.<ciphertext>`, AES-256-GCM under the key's 32 bytes, as stored before", () => {
    const key = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
    const iv = Buffer.from('a0a1a2a3a4a5a6a7a8a9aaab', 'hex');
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update('stored token', 'utf8'), cipher.final()]);
    const stored = ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
    expect(decrypt(key, stored)).toBe('stored token');

    const [version, newIv, tag, sealed] = encrypt(key, 'new token').split('.') as [string, string, string, string];
    expect(version).toBe('v1');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(newIv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    expect(Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8')).toBe(
      'new token',
    );
  });
});
