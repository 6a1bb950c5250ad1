import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Metrics read when /metrics is scraped (the job queue's state, say), given by whoever builds
 * the app. An installer may return what to do before each scrape (read what its metrics show).
 */
export type MetricsInstaller = (registry: Registry) => undefined | (() => Promise<void>);

/**
 * Prometheus metrics at /metrics: process defaults, one series per route and status, and what
 * `more` registers.
 */
export function installMetrics(app: FastifyInstance, more: readonly MetricsInstaller[] = []): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const beforeScrape = more.flatMap((install) => install(registry) ?? []);
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route.',
    labelNames: ['route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: ids in paths would make a series per resource.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ route }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    await Promise.all(beforeScrape.map((read) => read()));
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
