#!/usr/bin/env node
// The `switchboard` command. The Node.js version is checked first, by files any Node.js still
// met (14.8 and later) parses and links: the service uses what older versions lack, and one would
// otherwise fail before running a line (a static import of an export it does not have fails at
// link time) with a SyntaxError that names neither the version needed nor how to get it. So the
// service (bin/start.js) is imported only once the check has passed.
import { nodeVersionProblem } from './node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`switchboard: ${problem}\n`);
  process.exit(1);
}
await import('./start.js');
