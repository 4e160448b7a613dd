// The whole v4 contract: every endpoint declaration, keyed by name.
import * as meta from './endpoints/meta.js'
import * as users from './endpoints/users.js'
import * as groups from './endpoints/groups.js'
import * as members from './endpoints/members.js'
import * as projects from './endpoints/projects.js'
import * as commits from './endpoints/commits.js'
import * as repository from './endpoints/repository.js'
import * as customAttributes from './endpoints/custom-attributes.js'
import * as applicationSettings from './endpoints/application-settings.js'
import * as repositoryChecks from './endpoints/repository-checks.js'
import * as issues from './endpoints/issues.js'
import * as notes from './endpoints/notes.js'
import * as labels from './endpoints/labels.js'
import * as milestones from './endpoints/milestones.js'
import * as todos from './endpoints/todos.js'
import * as protectedBranches from './endpoints/protected-branches.js'
import * as protectedTags from './endpoints/protected-tags.js'
import * as mergeRequests from './endpoints/merge-requests.js'
import * as mergeRequestActions from './endpoints/merge-request-actions.js'
import * as mergeRequestNotes from './endpoints/merge-request-notes.js'
import * as diffs from './endpoints/diffs.js'
import * as jobs from './endpoints/jobs.js'
import * as ciVariables from './endpoints/ci-variables.js'
import * as ciGroupVariables from './endpoints/ci-group-variables.js'
import * as pipelineTriggers from './endpoints/pipeline-triggers.js'
import * as jobTokenScope from './endpoints/job-token-scope.js'
import * as pipelines from './endpoints/pipelines.js'
import * as ciLint from './endpoints/ci-lint.js'
import * as snippets from './endpoints/snippets.js'
import * as snippetNotes from './endpoints/snippet-notes.js'
import * as awardEmoji from './endpoints/award-emoji.js'
import * as wikis from './endpoints/wikis.js'
import * as hooks from './endpoints/hooks.js'
import * as packages from './endpoints/packages.js'
import * as repositoryReads from './endpoints/repository-reads.js'
import * as projectUploads from './endpoints/project-uploads.js'
import * as projectAdmin from './endpoints/project-admin.js'
import * as projectStorage from './endpoints/project-storage.js'
import * as labelSubscriptions from './endpoints/label-subscriptions.js'
import * as userAdmin from './endpoints/user-admin.js'
import * as groupAdmin from './endpoints/group-admin.js'
import * as userKeys from './endpoints/user-keys.js'
import * as notificationSettings from './endpoints/notification-settings.js'
import * as badges from './endpoints/badges.js'
import * as events from './endpoints/events.js'
import * as resourceEvents from './endpoints/resource-events.js'
import * as issueLinks from './endpoints/issue-links.js'
import * as markdown from './endpoints/markdown.js'
import * as search from './endpoints/search.js'
import * as broadcastMessages from './endpoints/broadcast-messages.js'
import * as templates from './endpoints/templates.js'
import * as discussions from './endpoints/discussions.js'
import * as draftNotes from './endpoints/draft-notes.js'
import * as groupLabels from './endpoints/group-labels.js'
import * as groupMilestones from './endpoints/group-milestones.js'
import * as runners from './endpoints/runners.js'
import * as runnerProtocol from './endpoints/runner-protocol.js'
import * as environments from './endpoints/environments.js'
import * as deployments from './endpoints/deployments.js'
import * as releases from './endpoints/releases.js'
import * as resourceAccessTokens from './endpoints/resource-access-tokens.js'
import * as remoteMirrors from './endpoints/remote-mirrors.js'
import * as backups from './endpoints/backups.js'

const pick = <T extends object>(mod: T) =>
  Object.fromEntries(Object.entries(mod).filter(([, v]) => v && typeof v === 'object' && 'method' in v && 'path' in v)) as {
    [K in keyof T as T[K] extends { method: string; path: string } ? K : never]: T[K]
  }

export const contract = {
  meta: pick(meta),
  users: pick(users),
  groups: pick(groups),
  members: pick(members),
  projects: pick(projects),
  commits: pick(commits),
  repository: pick(repository),
  customAttributes: pick(customAttributes),
  applicationSettings: pick(applicationSettings),
  repositoryChecks: pick(repositoryChecks),
  issues: pick(issues),
  notes: pick(notes),
  labels: pick(labels),
  milestones: pick(milestones),
  todos: pick(todos),
  protectedBranches: pick(protectedBranches),
  protectedTags: pick(protectedTags),
  mergeRequests: pick(mergeRequests),
  mergeRequestActions: pick(mergeRequestActions),
  mergeRequestNotes: pick(mergeRequestNotes),
  diffs: pick(diffs),
  jobs: pick(jobs),
  ciVariables: pick(ciVariables),
  ciGroupVariables: pick(ciGroupVariables),
  pipelineTriggers: pick(pipelineTriggers),
  jobTokenScope: pick(jobTokenScope),
  pipelines: pick(pipelines),
  ciLint: pick(ciLint),
  snippets: pick(snippets),
  snippetNotes: pick(snippetNotes),
  awardEmoji: pick(awardEmoji),
  wikis: pick(wikis),
  hooks: pick(hooks),
  packages: pick(packages),
  repositoryReads: pick(repositoryReads),
  projectUploads: pick(projectUploads),
  projectAdmin: pick(projectAdmin),
  projectStorage: pick(projectStorage),
  labelSubscriptions: pick(labelSubscriptions),
  userAdmin: pick(userAdmin),
  groupAdmin: pick(groupAdmin),
  userKeys: pick(userKeys),
  notificationSettings: pick(notificationSettings),
  badges: pick(badges),
  events: pick(events),
  resourceEvents: pick(resourceEvents),
  issueLinks: pick(issueLinks),
  markdown: pick(markdown),
  search: pick(search),
  broadcastMessages: pick(broadcastMessages),
  templates: pick(templates),
  discussions: pick(discussions),
  draftNotes: pick(draftNotes),
  groupLabels: pick(groupLabels),
  groupMilestones: pick(groupMilestones),
  runners: pick(runners),
  runnerProtocol: pick(runnerProtocol),
  environments: pick(environments),
  deployments: pick(deployments),
  releases: pick(releases),
  resourceAccessTokens: pick(resourceAccessTokens),
  remoteMirrors: pick(remoteMirrors),
  backups: pick(backups),
}

export type ContractTree = typeof contract
export { defineEndpoint } from './define.js'
