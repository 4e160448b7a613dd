// A PlanContext for tests: a push to main by default, files of the commit given as a map.
import type { PlanContext } from '../../../../src/server/ci/plan-types.js'

export function planContext(over: Partial<Omit<PlanContext, 'readFile' | 'listFiles'>> & { files?: Record<string, string> } = {}): PlanContext {
  const { files = {}, ...rest } = over
  return {
    source: 'push', ref: 'main', tag: false, sha: 'a'.repeat(40), variables: {}, changedPaths: null,
    readFile: async (path) => (Object.hasOwn(files, path) ? files[path] : null),
    listFiles: async () => Object.keys(files).sort(),
    ...rest,
  }
}

/** A JobSpec with every field at its default, for exact comparisons. */
export function jobSpec(over: Record<string, unknown> & { name: string; stage: string; stageIdx: number; script: string[] }) {
  return {
    beforeScript: [], afterScript: [], variables: {}, when: 'on_success', startIn: null, allowFailure: false,
    allowFailureExitCodes: null, needs: null, dependencies: null, artifacts: null, coverageRegex: null,
    retry: { max: 0, when: ['always'] }, timeout: null, interruptible: false, image: null, services: null, cache: null,
    tags: [], ...over,
  }
}
