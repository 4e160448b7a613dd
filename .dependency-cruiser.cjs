// The architecture of DESIGN.md as rules, checked in `npm test` (test/layering/dependency-rules.test.ts). Value imports only: a type
// import is erased at build time and couples nothing at run time.
//   commands -> (cli | client | runner) -> contract -> core
//   server: http -> (handlers | web) -> services -> (store | git | ci) -> core; presenters pure; no cycles.
const value = { dependencyTypesNot: ['type-only'] }
const never = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to, ...value } })
const server = (dir) => `^src/server/${dir}/`

// services/ is grouped by domain, as GitLab's app/services. Which domain a domain's modules may call: today's edges,
// so that a new one is a decision (edit this table) rather than an accident.
const DOMAIN_CALLS = {
  ci: 'groups projects repository users',
  groups: 'hooks instance projects users',
  hooks: 'instance issuables merge-requests projects releases repository wikis',
  instance: '',
  issuables: 'hooks markup merge-requests projects repository',
  markup: 'issuables merge-requests projects repository users',
  'merge-requests': 'ci hooks issuables projects repository',
  projects: 'groups hooks instance markup merge-requests releases repository users',
  releases: 'groups hooks issuables markup projects repository',
  repository: 'ci hooks instance merge-requests projects users',
  snippets: 'instance issuables',
  users: 'hooks instance markup projects repository snippets',
  wikis: 'hooks markup projects repository',
}
const domainRules = Object.entries(DOMAIN_CALLS).map(([domain, calls]) => {
  const allowed = [domain, ...calls.split(' ').filter(Boolean)].join('|')
  return never(`services-${domain}-calls`, `services/${domain}/ calls only ${calls || 'no other domain'}.`, `^src/server/services/${domain}/`, `^src/server/services/(?!(${allowed})/)`)
})

module.exports = {
  forbidden: [
    { name: 'no-cycles', comment: 'Modules import one way; a cycle makes load order decide behaviour.', severity: 'error', from: {}, to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } } },
    never('core-is-the-floor', 'core/ imports nothing of ours above it.', '^src/core/', '^(src/(?!core/)|commands/)'),
    never('contract-on-core', 'The contract describes the API with core types only.', '^src/contract/', '^(src/(?!contract/|core/)|commands/)'),
    never('client-on-contract', 'The HTTP client knows the contract and core, not the CLI or the server.', '^src/client/', '^(src/(server|cli|runner)/|commands/)'),
    never('cli-is-a-client', 'The CLI talks to servers over HTTP only.', '^src/cli/', '^(src/(server|runner)/|commands/)'),
    never('runner-is-a-client', 'The runner talks to the server over the runner protocol only, never into its code.', '^src/runner/', '^(src/(server|cli)/|commands/)'),
    // The built CLI carries the route table as data: zod and the declarations must not load when a command starts.
    never('cli-without-schemas', 'Clients take routes and types from the contract, never its zod schemas at run time.', '^(commands|src/(cli|client|runner))/', '^src/contract/(endpoints|entities|define|params|index|openapi)'),
    never('commands-over-http', 'Commands reach a server over HTTP; only `collab serve` starts one.', '^commands/(?!serve\\.ts$|backup/)', '^src/server/'),
    never('backup-through-its-entry', '`collab backup` opens a stopped server\'s data directory (--data) through src/server/backup.ts alone.', '^commands/backup/', '^src/server/(?!backup\\.ts$)'),
    never('presenters-pure', 'Presenters shape rows into entities: no services, store, git, CI or HTTP.', server('present'), `^src/server/(services|store|git|ci|http|handlers|web)/|^src/server/policy\\.ts$`),
    never('store-at-the-bottom', 'The store knows SQL and core only.', server('store'), '^src/server/(services|handlers|http|web|present|git|ci)/'),
    never('git-at-the-bottom', 'git/ knows repositories and core only.', server('git'), '^src/server/(services|handlers|http|web|present|store|ci)/'),
    // Not even a type: CI must stay movable out of the server (the runner protocol), so it names no service at all.
    { name: 'ci-one-way', comment: 'Services call into ci/; ci/ hears services only through app events.', severity: 'error', from: { path: server('ci') }, to: { path: '^src/server/(services|handlers|http|web|present)/' } },
    never('services-below-handlers', 'Services answer handlers and pages, never present or speak HTTP.', server('services'), '^src/server/(handlers|http|web|present)/'),
    ...domainRules,
    never('services-through-their-entry', 'Handlers and pages call a domain through its index.ts, the domain\'s public face.', '^src/server/(handlers|web)/', '^src/server/services/[a-z-]+/(?!index\\.ts$)'),
    never('handlers-through-services', 'Handlers reach data through services.', server('handlers'), '^src/server/(store|git|ci|web)/'),
    never('web-through-services', 'Pages reach data through services.', server('web'), '^src/server/(store|git|ci|handlers)/'),
    // Two deliberate openings: the HTTP layer owns each request's transaction and the response cache keyed by the
    // store's write generation (store/db, store/writes), and git smart HTTP (DESIGN.md puts it in http/) streams
    // between the client and git's own http-backend (git/transport).
    {
      name: 'http-through-handlers',
      comment: 'The HTTP layer reaches data through services and handlers.',
      severity: 'error',
      from: { path: server('http') },
      to: { path: '^src/server/(store|ci)/', pathNot: '^src/server/store/(db|writes)\\.ts$', ...value },
    },
    never('git-only-in-smart-http', 'Of the HTTP layer, only smart HTTP uses git/, and only its transport.', server('http'), '^src/server/git/(?!(transport|push-commands|exec)\\.ts$)'),
    {
      name: 'git-only-in-smart-http',
      comment: 'Of the HTTP layer, only smart HTTP uses git/.',
      severity: 'error',
      from: { path: server('http'), pathNot: '^src/server/http/git-http\\.ts$' },
      to: { path: '^src/server/git/', ...value },
    },
    { name: 'sql-only-in-store', comment: 'SQL lives only in store/.', severity: 'error', from: { pathNot: '^src/server/store/' }, to: { path: '^node_modules/better-sqlite3/' } },
    // A server's start evaluates only what its first request needs (issue 24: the first answer within 300 ms). These
    // load where first used: packages by import() (isomorphic-git through git/iso.ts), node's modules through
    // process.getBuiltinModule where the caller cannot wait.
    {
      name: 'server-loads-on-first-use',
      comment: 'No request at a server start needs isomorphic-git, yaml, yauzl or zlib: import them where first used.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '(^|/)node_modules/(isomorphic-git|yaml|yauzl)/|^(node:)?zlib$', dynamic: false, ...value },
    },
    // The contract's groups (their zod schemas) load on a group's first request, from the route list the build writes
    // (src/server/routes.generated.ts): a value the server's rules need lives outside the endpoint modules (fixed-values.ts).
    {
      name: 'server-loads-contract-groups-on-first-use',
      comment: 'The server imports an endpoint module, the whole contract or OpenAPI only by import(), on first use.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/contract/(endpoints/|index\\.ts$|openapi\\.ts$)', dynamic: false, ...value },
    },
    { name: 'git-objects-only-in-git', comment: 'Repositories are read and written only in git/.', severity: 'error', from: { pathNot: '^src/server/git/' }, to: { path: '^node_modules/isomorphic-git/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|test)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
