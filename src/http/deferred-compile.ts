import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

/**
 * Every compile still deferred: a schema is compiled at the first request that needs it, and
 * `compileDeferred` compiles the rest at once (tests do, so that a schema no request reaches
 * still cannot hide an error).
 */
const deferred = new Set<() => unknown>();

/**
 * `compile` run once, when first needed, instead of now. Compiling every route's request and
 * response schemas when the app starts took about 0.7 s of each start (Ajv and
 * fast-json-stringify generate and evaluate code for each one); deferred, each route pays its
 * few milliseconds on its first request, and routes never called never pay.
 */
export function deferCompile<T>(compile: () => T): () => T {
  let compiled: { value: T } | undefined;
  const once = () => {
    if (!compiled) {
      compiled = { value: compile() };
      deferred.delete(once);
    }
    return compiled.value;
  };
  deferred.add(once);
  return once;
}

/** Compiles every deferred compile now; throws the first compile's error. Returns how many ran. */
export function compileDeferred(): number {
  const pending = [...deferred];
  for (const compile of pending) compile();
  return pending.length;
}

type SerializerFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']
>;

/** Fastify's own response serializers (fast-json-stringify, with its options), each compiled on first use. */
export function deferredSerializers(): SerializerFactory {
  const eager = SerializerSelector();
  return (externalSchemas, options) => {
    const compilerFor = eager(externalSchemas, options);
    return (route) => {
      const serializer = deferCompile(() => compilerFor(route));
      return (data: unknown) => serializer()(data);
    };
  };
}
