/**
 * A bare node:http server for a bench's floor: it answers every request with the bytes of the
 * file its argument names (as JSON), and nothing else, so a route can be measured beside what
 * sending the same answer costs on the same machine. Started by bench/bytes-server.ts (fork, IPC
 * channel); runs under Node's own TypeScript support (erasable syntax only, no tsx).
 */
import fs from 'node:fs';
import http from 'node:http';

const body = fs.readFileSync(process.argv[2] ?? '');
const server = http.createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
});
// The parent's end is this process's end.
process.on('disconnect', () => process.exit(0));
