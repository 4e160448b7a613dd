// `npm run bench`: every benchmark, each printed next to its baseline from the same run.
import { ciBench } from './ci.js'
import { ciCliBench } from './ci-cli.js'
import { cliBench } from './cli.js'
import { cliTerminalBench } from './cli-terminal.js'
import { foundationBench } from './foundation.js'
import { fuzzBench } from './fuzz.js'
import { issuesBench } from './issues.js'
import { mergeBench } from './merge.js'
import { mergeRequestsBench } from './merge-requests.js'
import { mixedBench } from './mixed.js'
import { repositoryBench } from './repository.js'
import { wikisBench } from './wikis.js'

const only = process.argv[2]
const benches: Record<string, () => Promise<void>> = { foundation: foundationBench, repository: repositoryBench, issues: issuesBench, merge: mergeBench, 'merge-requests': mergeRequestsBench, mixed: mixedBench, fuzz: fuzzBench, cli: cliBench, 'cli-terminal': cliTerminalBench, ci: ciBench, 'ci-cli': ciCliBench, wikis: wikisBench, commits: () => import('./commits.js').then((m) => m.commitsBench()), start: () => import('./start.js').then((m) => m.startBench()), webhooks: () => import('./webhooks.js').then((m) => m.webhooksBench()), archive: () => import('./archive.js').then((m) => m.archiveBench()), web: () => import('./web.js').then((m) => m.webBench()), markdown: () => import('./markdown.js').then((m) => m.markdownBench()), 'large-repo': () => import('./large-repo.js').then((m) => m.largeRepoBench()), migrate: () => import('./migrate.js').then((m) => m.migrateBench()), backup: () => import('./backup.js').then((m) => m.backupBench()) }

for (const [name, run] of Object.entries(benches)) {
  if (only && only !== name) continue
  console.log(`\n== ${name} ==`)
  await run()
}
