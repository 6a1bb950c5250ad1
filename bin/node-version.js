// Which Node.js the service runs on: the floor of package.json's engines.node (">=MAJOR.MINOR").
//
// bin/switchboard.js runs this before anything else, so it is written for every Node.js still
// met on a machine (14 and later parse it): plain JavaScript that imports only Node's own modules.
import { readFileSync } from 'node:fs';

/** The lowest Node.js version the service runs on, from package.json: [major, minor, patch]. */
export function minimumNodeVersion() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const range = pkg.engines?.node;
  const floor = /^>=(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range);
  if (!floor) throw new Error(`package.json: engines.node must be ">=MAJOR.MINOR", not ${JSON.stringify(range)}`);
  return [Number(floor[1]), Number(floor[2]), Number(floor[3] || 0)];
}

/**
 * Why the Node.js of `version` (process.versions.node) cannot run the service, in one sentence
 * that says what to run instead; undefined when it can.
 */
export function nodeVersionProblem(version, minimum = minimumNodeVersion()) {
  const running = version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if (running[i] > minimum[i]) return undefined;
    if (running[i] < minimum[i]) {
      const needed = minimum[2] === 0 ? `${minimum[0]}.${minimum[1]}` : minimum.join('.');
      return (
        `needs Node.js ${needed} or later, and this is Node.js ${version}. ` +
        'Run `npx switchboard` or the npm scripts (`npm start`) in the project folder, which use the Node.js ' +
        'the project pins (the `node` devDependency, installed by `npm ci`), or install Node.js ' +
        `${needed} or later.`
      );
    }
  }
  return undefined;
}
