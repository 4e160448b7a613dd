// GitLab's permissions page (doc/user/permissions.md) and its API's answers as data: per resource kind, who may read and
// who may write it, expanded to the status every role gets on a project of every visibility. Collab's known departures
// are listed below the rules, each with its reason.

export type Visibility = 'private' | 'internal' | 'public'
export type Op = 'read' | 'write'
export const ROLES = [
  'anonymous', 'external', 'nonmember', 'guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin', 'job-same', 'job-other', 'blocked',
] as const
export type Role = (typeof ROLES)[number]
export const RESOURCES = [
  'project', 'repository', 'tree', 'clone', 'issue', 'confidential-issue', 'merge-request', 'merge-request-list', 'pipeline', 'job-log', 'artifact', 'snippet', 'wiki',
  'variable', 'hook', 'members', 'release', 'package',
] as const
export type Resource = (typeof RESOURCES)[number]

/**
 * Who may: `anyone` who can see the project (anonymous on a public one), `signed-in` users who can see it, or members
 * from a level up. Seeing the project comes first: members of a private one, signed-in non-external users of an
 * internal one, everybody on a public one, administrators everywhere.
 */
export type Who = 'anyone' | 'signed-in' | 'guest' | 'reporter' | 'developer' | 'maintainer'
type PerVisibility = Who | Record<Visibility, Who>

/**
 * When an anonymous caller is turned away: `first` 401 before the project is looked up (GitLab's `authenticate!` or
 * `authenticate_non_get!` in a `before`), `after-project` 404 on a project it cannot see and 401 on one it can,
 * `none` like any caller (404 on a project it cannot see, else `denied`).
 */
type AnonymousRule = 'first' | 'after-project' | 'none'

export interface Rule {
  read: PerVisibility
  write: PerVisibility | null
  /** The answer to a caller who sees the project but may not: 403, or 404 where GitLab hides the thing itself. */
  denied: Record<Op, 403 | 404>
  anonymous: Record<Op, AnonymousRule>
  /** The operation's route takes a job token (GitLab's job_token_allowed); elsewhere the token is not looked at. */
  jobToken: Record<Op, boolean>
  /** The request and what it does, for the test's name. */
  what: Record<Op, string>
}

const CODE: PerVisibility = { private: 'reporter', internal: 'anyone', public: 'anyone' }

/** The rules, in the order of GitLab's permissions page. public_jobs is on (GitLab's default). */
export const RULES: Record<Resource, Rule> = {
  project: {
    read: 'anyone', write: 'maintainer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET /projects/:id', write: 'PUT /projects/:id' },
  },
  repository: {
    read: CODE, write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'none' },
    jobToken: { read: true, write: false }, what: { read: 'GET files/README.md/raw', write: 'POST repository/branches' },
  },
  tree: {
    read: CODE, write: null, denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET repository/tree', write: '' },
  },
  clone: {
    read: CODE, write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'none' },
    jobToken: { read: true, write: true }, what: { read: 'git-upload-pack info/refs', write: 'git-receive-pack info/refs' },
  },
  issue: {
    read: 'anyone', write: 'signed-in', denied: { read: 404, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET issues/:iid', write: 'POST issues' },
  },
  'confidential-issue': {
    read: 'reporter', write: 'reporter', denied: { read: 404, write: 404 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET issues/:iid', write: 'PUT issues/:iid' },
  },
  'merge-request': {
    read: CODE, write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: true, write: false }, what: { read: 'GET merge_requests/:iid', write: 'PUT merge_requests/:iid' },
  },
  'merge-request-list': {
    read: CODE, write: null, denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: true, write: false }, what: { read: 'GET merge_requests', write: '' },
  },
  pipeline: {
    read: 'anyone', write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET pipelines/:id', write: 'POST pipeline' },
  },
  'job-log': {
    read: 'anyone', write: null, denied: { read: 403, write: 403 }, anonymous: { read: 'first', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET jobs/:id/trace', write: '' },
  },
  artifact: {
    read: 'anyone', write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: true, write: false }, what: { read: 'GET jobs/:id/artifacts', write: 'POST jobs/:id/artifacts/keep' },
  },
  snippet: {
    read: 'anyone', write: 'reporter', denied: { read: 404, write: 403 }, anonymous: { read: 'none', write: 'after-project' },
    jobToken: { read: false, write: false }, what: { read: 'GET snippets/:id', write: 'POST snippets' },
  },
  wiki: {
    read: 'anyone', write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'none' },
    jobToken: { read: false, write: false }, what: { read: 'GET wikis/home', write: 'PUT wikis/home' },
  },
  variable: {
    read: 'maintainer', write: 'maintainer', denied: { read: 403, write: 403 }, anonymous: { read: 'first', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET variables/:key', write: 'PUT variables/:key' },
  },
  hook: {
    read: 'maintainer', write: 'maintainer', denied: { read: 403, write: 403 }, anonymous: { read: 'first', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET hooks/:id', write: 'PUT hooks/:id' },
  },
  members: {
    read: 'anyone', write: 'maintainer', denied: { read: 403, write: 403 }, anonymous: { read: 'first', write: 'first' },
    jobToken: { read: false, write: false }, what: { read: 'GET members', write: 'PUT members/:user_id' },
  },
  // read_release is for whoever sees the project (guests of a private one list releases, without their code).
  release: {
    read: 'anyone', write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'none' },
    jobToken: { read: true, write: true }, what: { read: 'GET releases', write: 'POST releases' },
  },
  // read_package is for whoever sees the project (GitLab 18 lets guests of a private one pull packages).
  package: {
    read: 'anyone', write: 'developer', denied: { read: 403, write: 403 }, anonymous: { read: 'none', write: 'first' },
    jobToken: { read: true, write: true }, what: { read: 'GET packages', write: 'PUT packages/generic/…' },
  },
}

/**
 * A cell whose answer is not the rule's: `pending` (a known defect being fixed; the cell runs as expected to fail, and
 * turning `pending` into `fixed` makes it a plain check again) or `differs` (collab answers `status`; the reason says
 * whether by choice).
 */
export interface Departure {
  resource: Resource
  role: Role
  visibility?: Visibility
  op?: Op
  pending?: string
  fixed?: string
  differs?: string
  status?: number
}

const EXTERNAL_INTERNAL = 'external users see internal projects'
const ANONYMOUS_ISSUES = "anonymous reads of a project's issues answer 401"
const GUEST_MRS = 'guests of a private project and merge requests'
const PUBLIC_JOBS = 'pipelines, jobs, logs and artifacts vs public_jobs'
const ANONYMOUS_WRITES = 'collab answers 401 to any anonymous write before it looks the project up; GitLab looks first here'
const NO_ALLOWLIST = "another project's job token is refused (404) unless this project's inbound job-token allowlist names its project: the allowlist is on and empty for new projects, as in GitLab 17, where such a token gets 403 'Authentication by CI/CD job token not allowed' instead; the table's rule is GitLab's with the allowlist off"

/** A departure without `visibility` or `op` covers them all; it marks only the cells where collab's answer is not GitLab's. */
export const DEPARTURES: Departure[] = [
  // The confidential issue stays hidden from them all the same.
  ...RESOURCES.filter((r) => r !== 'confidential-issue').map((resource): Departure => (
    { resource, role: 'external', visibility: 'internal', fixed: EXTERNAL_INTERNAL })),
  { resource: 'issue', role: 'anonymous', op: 'read', fixed: ANONYMOUS_ISSUES },
  { resource: 'confidential-issue', role: 'anonymous', op: 'read', fixed: ANONYMOUS_ISSUES },
  { resource: 'merge-request', role: 'guest', visibility: 'private', fixed: GUEST_MRS },
  { resource: 'merge-request-list', role: 'guest', visibility: 'private', fixed: GUEST_MRS },
  { resource: 'pipeline', role: 'guest', visibility: 'private', op: 'read', fixed: PUBLIC_JOBS },
  { resource: 'repository', role: 'anonymous', op: 'write', differs: ANONYMOUS_WRITES, status: 401 },
  { resource: 'snippet', role: 'anonymous', op: 'write', differs: ANONYMOUS_WRITES, status: 401 },
  { resource: 'wiki', role: 'anonymous', op: 'write', differs: ANONYMOUS_WRITES, status: 401 },
  { resource: 'release', role: 'anonymous', op: 'write', differs: ANONYMOUS_WRITES, status: 401 },
  ...(['repository', 'clone', 'merge-request', 'merge-request-list', 'artifact', 'release', 'package'] as const).map((resource): Departure => (
    { resource, role: 'job-other', differs: NO_ALLOWLIST, status: 404 })),
]

const RANK: Record<Who, number> = { anyone: 1, 'signed-in': 2, guest: 10, reporter: 20, developer: 30, maintainer: 40 }
const LEVEL: Partial<Record<Role, number>> = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50, admin: 60 }
/** Whose rights a job token carries: `ci`, a Developer of every project who started the jobs. */
const JOB_USER_LEVEL = 30

/**
 * The caller's standing on a project: 0 cannot see it, 1 sees it anonymously, 2 sees it signed in without membership,
 * else the member level (60 for an administrator).
 */
function standing(role: Role, visibility: Visibility): number {
  const level = LEVEL[role]
  if (level) return level
  if (role === 'anonymous') return visibility === 'public' ? 1 : 0
  if (role === 'external') return visibility === 'public' ? 2 : 0
  return visibility === 'private' ? 0 : 2
}

const who = (rule: PerVisibility, visibility: Visibility) => (typeof rule === 'string' ? rule : rule[visibility])

/** GitLab's answer: the success status of the request when allowed, else the refusal. */
export function gitlabAnswer(resource: Resource, role: Role, visibility: Visibility, op: Op, success: number): number {
  const rule = RULES[resource]
  const need = who(op === 'read' ? rule.read : rule.write!, visibility)
  const git = resource === 'clone'
  if (role === 'blocked') return git ? 401 : 403
  if (role === 'job-same' || role === 'job-other') {
    if (!rule.jobToken[op]) return gitlabAnswer(resource, 'anonymous', visibility, op, success)
    // A job token pushes nowhere by default (ci_push_repository_for_job_token_allowed is off).
    if (git && op === 'write') return 403
    // Another project's token reaches a private project only through its allowlist (empty here); a public or internal
    // one as far as an anonymous caller of a public project could (ProjectPolicy's project_allowed_for_job_token).
    const at = role === 'job-same' ? JOB_USER_LEVEL : visibility === 'private' ? 0 : 1
    if (at === 0) return git ? 403 : 404
    return at >= RANK[need] ? success : rule.denied[op]
  }
  const at = standing(role, visibility)
  if (role === 'anonymous') {
    if (git) return at >= RANK[need] ? success : 401
    const when = rule.anonymous[op]
    if (when === 'first') return 401
    if (at === 0) return 404
    if (at >= RANK[need]) return success
    return when === 'after-project' ? 401 : rule.denied[op]
  }
  if (at === 0) return 404
  return at >= RANK[need] ? success : rule.denied[op]
}

export interface Cell {
  resource: Resource
  role: Role
  visibility: Visibility
  op: Op
  expected: number
  gitlab: number
  pending?: string
  differs?: string
}

const matches = (d: Departure, c: Omit<Cell, 'expected' | 'gitlab'>) =>
  d.resource === c.resource && d.role === c.role && (!d.visibility || d.visibility === c.visibility) && (!d.op || d.op === c.op)

// A job token where the route takes none is no credential: the cell is the anonymous one.
function departureOf(c: Omit<Cell, 'expected' | 'gitlab'>): Departure | undefined {
  const tokenIgnored = (c.role === 'job-same' || c.role === 'job-other') && !RULES[c.resource].jobToken[c.op]
  return DEPARTURES.find((d) => matches(d, tokenIgnored ? { ...c, role: 'anonymous' } : c))
}

/** Every cell of the table: role × resource × visibility × operation, with GitLab's answer and collab's expected one. */
export function expandTable(success: (resource: Resource, op: Op) => number): Cell[] {
  const cells: Cell[] = []
  for (const resource of RESOURCES) {
    for (const op of ['read', 'write'] as const) {
      if (op === 'write' && RULES[resource].write === null) continue
      for (const visibility of ['private', 'internal', 'public'] as const) {
        for (const role of ROLES) {
          const gitlab = gitlabAnswer(resource, role, visibility, op, success(resource, op))
          const d = departureOf({ resource, role, visibility, op })
          const differs = d?.differs !== undefined && d.status !== gitlab
          cells.push({
            resource, role, visibility, op, gitlab,
            expected: differs ? d.status! : gitlab,
            ...(d?.pending ? { pending: d.pending } : {}),
            ...(differs ? { differs: d.differs } : {}),
          })
        }
      }
    }
  }
  return cells
}
