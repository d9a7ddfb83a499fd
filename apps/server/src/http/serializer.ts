import { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * Answers go through their zod schema (a field that was never declared never leaks, a wrong one
 * fails loudly). An answer served from an in-memory cache is frozen and the same object every
 * time (user/me on every page load and client start): its JSON is kept beside it, per route, so
 * it is checked and written once.
 */
export const cachingSerializerCompiler: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  const written = new WeakMap<object, string>();
  return (data: unknown) => {
    if (data === null || typeof data !== 'object' || !Object.isFrozen(data)) return serialize(data);
    let json = written.get(data);
    if (json === undefined) {
      json = serialize(data);
      written.set(data, json);
    }
    return json;
  };
};
