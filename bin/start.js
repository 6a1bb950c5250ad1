// The service, started by bin/switchboard.js once the Node.js version is known to run it.
//
// Runs the service from one bundled file, built from the TypeScript sources whenever they
// change (bin/server-bundle.js), so there is no build step to forget. If the bundle cannot be
// built or written (a read-only install whose bundle is older than its sources), the sources
// run through tsx as they are, only slower to start.
import { enableCompileCache } from 'node:module';
import { pathToFileURL } from 'node:url';
import { serverBundle } from './server-bundle.js';

// V8's compiled code for the bundle, kept between starts (in the system's temporary folder).
enableCompileCache();

let entry;
try {
  entry = (await serverBundle()).path;
} catch (error) {
  process.stderr.write(
    `switchboard: could not build the bundle of the sources (${error instanceof Error ? error.message : String(error)}); running the sources through tsx, which starts more slowly\n`,
  );
}
if (entry) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(entry).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
