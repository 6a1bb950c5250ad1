/** The lowest Node.js version the service runs on, from package.json's engines.node: [major, minor, patch]. */
export function minimumNodeVersion(): [number, number, number];

/**
 * Why the Node.js of `version` (process.versions.node) cannot run the service, in one sentence
 * that says what to run instead; undefined when it can.
 */
export function nodeVersionProblem(version: string, minimum?: [number, number, number]): string | undefined;
