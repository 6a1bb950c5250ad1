import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('settings', () => {
  it('has a default for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      rateLimitPerMinute: 600,
      bodyLimitBytes: 1024 * 1024,
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it('converts numbers and trims a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ PORT: '9000', PUBLIC_URL: 'https://api.example.com/', RATE_LIMIT_PER_MINUTE: '5' });
    expect(config).toMatchObject({ port: 9000, publicUrl: 'https://api.example.com', rateLimitPerMinute: 5 });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['PUBLIC_URL', 'ftp://x'],
    ['SECRET_KEY', 'short'],
  ])('rejects %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=`));
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT=.*LOG_LEVEL=|LOG_LEVEL=.*PORT=/);
  });
});
