// node:zlib for the server's few compressed streams (a gzipped or deflated request body, a gzipped push, an artifact's
// metadata.gz), loaded by the first of them instead of at every start, where no request needs it (the dependency rule
// server-loads-on-first-use forbids a static import of it under src/server).
export const zlib = () => process.getBuiltinModule('node:zlib')
