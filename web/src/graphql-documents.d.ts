/** schema/operations/*.graphql, inlined as text by esbuild's text loader (see web/build.ts). */
declare module '*.graphql' {
  const document: string;
  export default document;
}
