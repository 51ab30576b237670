import { createSchema, createYoga, type Plugin } from 'graphql-yoga';

/** A bare yoga app with one schema field and only the given plugins: each plugin's spec runs in milliseconds. */
export function minimalYoga(plugins: Plugin[], options: { graphiql?: boolean } = {}) {
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { ok: Boolean } type Mutation { touch: Boolean }',
      resolvers: { Query: { ok: () => true }, Mutation: { touch: () => true } },
    }),
    logging: false,
    graphiql: options.graphiql ?? false,
    landingPage: false,
    plugins,
  });
  return (path: string, init: RequestInit = {}) => yoga.fetch(`http://engram.test${path}`, init);
}
