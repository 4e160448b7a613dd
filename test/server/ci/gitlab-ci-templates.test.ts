// The .gitlab-ci.yml templates of /templates/gitlab_ci_ymls: every one passes CI lint, and each one with a sample
// project here runs to success on the built-in runner when the job finds the tools it needs. Which tools a job finds is
// asked of a job itself (its PATH and network are what count, not the test's), and a template whose tools are absent is
// skipped with the probe that failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GITLAB_CI_YMLS } from '../../../src/server/templates/gitlab-ci-ymls.js'
import { api, expectStatus, type Api } from '../../helpers/api.js'
import { allJobs, ciProject, jobNamed, startCiServer, waitForFinished } from '../../helpers/ci.js'
import type { TestServer } from '../../helpers/server.js'

let server: TestServer
let root: Api

/** Where the job has what it needs: a shell test run in a job, and the files of a project the template builds. */
interface Sample { probe: string; files: Record<string, string> }

const online = (url: string) => `curl -sfI --max-time 5 ${url} > /dev/null`

const SAMPLES: Record<string, Sample> = {
  Bash: {
    probe: 'command -v find',
    files: { 'hello.sh': 'echo "hello $1"\n', 'test.sh': '[ "$(sh hello.sh world)" = "hello world" ]\n' },
  },
  'C++': {
    probe: 'command -v make && command -v g++',
    files: {
      Makefile: 'build/hello: hello.cpp\n\tmkdir -p build\n\tg++ -o build/hello hello.cpp\n\ntest: build/hello\n\t[ "$$(./build/hello)" = "hello" ]\n',
      'hello.cpp': '#include <iostream>\nint main() { std::cout << "hello" << std::endl; return 0; }\n',
    },
  },
  Go: {
    probe: 'command -v go',
    files: {
      'go.mod': 'module example.com/hello\n\ngo 1.21\n',
      'hello.go': 'package main\n\nimport "fmt"\n\nfunc Hello() string { return "hello" }\n\nfunc main() { fmt.Println(Hello()) }\n',
      'hello_test.go': 'package main\n\nimport "testing"\n\nfunc TestHello(t *testing.T) {\n\tif Hello() != "hello" {\n\t\tt.Fatal(Hello())\n\t}\n}\n',
    },
  },
  Gradle: {
    probe: 'command -v gradle && command -v java',
    files: {
      'build.gradle': "plugins { id 'java' }\n",
      'src/main/java/Hello.java': 'public class Hello { public static String hello() { return "hello"; } }\n',
    },
  },
  Maven: {
    // Maven fetches its plugins from Maven Central on a first build.
    probe: `command -v mvn && ${online('https://repo.maven.apache.org/maven2/')}`,
    files: {
      'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId><artifactId>hello</artifactId><version>1.0</version>
  <properties><maven.compiler.release>17</maven.compiler.release></properties></project>\n`,
      'src/main/java/Hello.java': 'public class Hello { public static String hello() { return "hello"; } }\n',
    },
  },
  Nodejs: {
    probe: 'command -v npm',
    files: {
      'package.json': '{ "name": "hello", "version": "1.0.0", "private": true, "scripts": { "test": "node --test" } }\n',
      'package-lock.json': JSON.stringify({ name: 'hello', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'hello', version: '1.0.0' } } }, null, 2) + '\n',
      'hello.test.js': "const test = require('node:test')\nconst assert = require('node:assert')\ntest('hello', () => assert.strictEqual('hel' + 'lo', 'hello'))\n",
    },
  },
  PHP: {
    probe: `command -v php && ${online('https://getcomposer.org/installer')}`,
    files: {
      'composer.json': '{ "require-dev": { "phpunit/phpunit": "^10" } }\n',
      'phpunit.xml': '<phpunit><testsuites><testsuite name="all"><directory>tests</directory></testsuite></testsuites></phpunit>\n',
      'tests/HelloTest.php': '<?php\nuse PHPUnit\\Framework\\TestCase;\nclass HelloTest extends TestCase { public function testHello(): void { $this->assertSame("hello", "hel" . "lo"); } }\n',
    },
  },
  Python: {
    probe: 'command -v python3 && python3 -m venv --help > /dev/null',
    files: {
      'requirements.txt': '',
      'hello.py': 'def hello():\n    return "hello"\n',
      'test_hello.py': 'import unittest\nfrom hello import hello\n\n\nclass HelloTest(unittest.TestCase):\n    def test_hello(self):\n        self.assertEqual(hello(), "hello")\n',
    },
  },
  Ruby: {
    probe: `command -v bundle && ${online('https://rubygems.org')}`,
    files: {
      Gemfile: "source 'https://rubygems.org'\ngem 'rspec'\n",
      'spec/hello_spec.rb': "RSpec.describe 'hello' do\n  it('says hello') { expect('hel' + 'lo').to eq('hello') }\nend\n",
    },
  },
  Rust: {
    // cargo may be a rustup proxy that has no toolchain under the job's HOME.
    probe: 'command -v cargo && cargo --version',
    files: {
      'Cargo.toml': '[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/main.rs': 'fn hello() -> &\'static str { "hello" }\n\nfn main() { println!("{}", hello()); }\n\n#[test]\nfn says_hello() { assert_eq!(hello(), "hello"); }\n',
    },
  },
  'dotNET-Core': {
    probe: 'command -v dotnet',
    files: {
      'hello.csproj': '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>\n',
      'Program.cs': 'System.Console.WriteLine("hello");\n',
    },
  },
  Docker: {
    // The template pushes to the project's container registry, which it finds in CI_REGISTRY.
    probe: 'command -v docker && docker info > /dev/null && [ -n "$CI_REGISTRY" ]',
    files: { Dockerfile: 'FROM busybox\nCMD ["echo", "hello"]\n' },
  },
  'Pages/HTML': {
    probe: 'command -v cp',
    files: { 'index.html': '<!doctype html><title>hello</title><p>hello</p>\n' },
  },
  Terraform: {
    probe: 'command -v terraform',
    files: { 'main.tf': 'output "greeting" {\n  value = "hello"\n}\n' },
  },
}

const probeLine = (key: string) => `if { ${SAMPLES[key]!.probe}; } > /dev/null 2>&1; then echo "PROBE ${key} ok"; else echo "PROBE ${key} absent"; fi`

/** Template key -> whether a job finds its tools, from one probe job's log. */
let found: Map<string, boolean>

beforeAll(async () => {
  server = await startCiServer({ runner: true, concurrency: 3 })
  root = api(server, server.rootToken)
  const probe = `probe:\n  script:\n${Object.keys(SAMPLES).map((k) => `    - ${JSON.stringify(probeLine(k))}`).join('\n')}\n`
  const { project } = await ciProject(server, 'probe', probe)
  const pipeline = expectStatus(await root.get(`/projects/${project.id}/pipelines`), 200).body[0]
  await waitForFinished(server, pipeline.id, 60_000)
  const log = expectStatus(await root.get(`/projects/${project.id}/jobs/${jobNamed(server, pipeline.id, 'probe').id}/trace`), 200).text
  found = new Map([...log.matchAll(/^PROBE (\S+) (ok|absent)\r?$/gm)].map((m) => [m[1]!, m[2] === 'ok']))
  expect([...found.keys()].sort()).toEqual(Object.keys(SAMPLES).sort())
}, 90_000)
afterAll(() => server.close())

describe('the .gitlab-ci.yml templates', () => {
  it('are GitLab\'s names, more than twenty, each served with its content', async () => {
    const keys = Object.keys(GITLAB_CI_YMLS).sort()
    expect(keys.length).toBeGreaterThan(20)
    const listed = expectStatus(await api(server).get('/templates/gitlab_ci_ymls', { query: { per_page: 100 } }), 200).body
    expect(listed).toEqual(keys.map((key) => ({ key, name: key })))
    for (const key of ['Nodejs', 'Python', 'Go', 'Rust', 'Maven', 'Gradle', 'Ruby', 'PHP', 'dotNET-Core', 'Docker', 'Pages/HTML', 'Terraform']) {
      const one = expectStatus(await api(server).get(`/templates/gitlab_ci_ymls/${encodeURIComponent(key)}`), 200).body
      expect(one).toEqual({ name: key, content: GITLAB_CI_YMLS[key] })
    }
  })

  it.each(Object.keys(GITLAB_CI_YMLS))('%s passes CI lint', async (key) => {
    const { project } = await lintProject()
    const res = expectStatus(await root.post(`/projects/${project.id}/ci/lint`, { content: GITLAB_CI_YMLS[key] }), 200)
    expect({ valid: res.body.valid, errors: res.body.errors }).toEqual({ valid: true, errors: [] })
  })

  it.for(Object.keys(SAMPLES))('%s runs to success on the built-in runner where the job finds its tools', { timeout: 150_000 }, async (key, ctx) => {
    if (!found.get(key)) ctx.skip(`the job lacks what ${key} needs: ${SAMPLES[key]!.probe}`)
    const files = SAMPLES[key]!.files
    const { project } = await ciProject(server, `sample-${key.replace(/\W+/g, '-').toLowerCase()}`, GITLAB_CI_YMLS[key]!, files)
    const pipeline = expectStatus(await root.get(`/projects/${project.id}/pipelines`), 200).body[0]
    const done = await waitForFinished(server, pipeline.id, 120_000)
    const jobs = allJobs(server, pipeline.id).map((j) => `${j.name}:${j.status}`)
    const failed = allJobs(server, pipeline.id).find((j) => j.status === 'failed')
    const log = failed ? (await root.get(`/projects/${project.id}/jobs/${failed.id}/trace`)).text.slice(-2000) : ''
    expect(done.status, `${jobs.join(' ')}\n${log}`).toBe('success')
    // Jobs left for a person to start (deploy, destroy) stay manual; every other one succeeded.
    expect(jobs.filter((j) => !/:(success|manual)$/.test(j))).toEqual([])
    expect(jobs.some((j) => j.endsWith(':success'))).toBe(true)
  })
})

let lintTarget: Promise<{ project: any }> | undefined
/** One project serves every lint request: its context (branch, variables) is all lint reads from it. */
const lintProject = () => (lintTarget ??= ciProject(server, 'lint-target', null, { 'README.md': 'lint\n' }))
