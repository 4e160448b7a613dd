// GET and PUT /application/settings: the defaults, administrators only, every requires rule, ranges, types, deprecated names.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SETTING_NAMES } from '../../../src/contract/application-settings.js'
import { ApplicationSettings } from '../../../src/contract/entities/application-settings.js'
import { api, createUser, expectStatus, request, type Api, type TestUser } from '../../helpers/api.js'
import { fixedClock, startTestServer, type TestServer } from '../../helpers/server.js'

const AT = '2024-01-02T03:04:05.000Z'
let server: TestServer
let root: Api
let alice: TestUser
let original: Record<string, unknown>

beforeAll(async () => {
  server = await startTestServer({ clock: fixedClock(AT) })
  root = api(server, server.rootToken)
  alice = await createUser(server, 'alice')
  original = expectStatus(await root.get('/application/settings'), 200).body
})
afterAll(() => server.close())

/** Each test starts from the defaults: every setting put back as it was (a valid record, so one PUT does it). */
beforeEach(async () => {
  const { id: _id, created_at: _c, updated_at: _u, signin_enabled: _s, performance_bar_allowed_group_id: _g, performance_bar_enabled: _e, ...settings } = original
  expectStatus(await root.put('/application/settings', settings), 200)
})

const get = async () => expectStatus(await root.get('/application/settings'), 200).body
const put = (body: Record<string, unknown>) => root.put('/application/settings', body)

describe('GET /application/settings', () => {
  it('answers the one record with id 1, its timestamps and every setting of api-v4.md, in the entity schema', async () => {
    const body = await get()
    expect(Object.keys(body)).toEqual(['id', ...SETTING_NAMES, 'created_at', 'updated_at'])
    expect(body.id).toBe(1)
    expect(body.created_at).toBe(AT)
    expect(ApplicationSettings.safeParse(body).success).toBe(true)
  })

  it.each([
    ['default_projects_limit', 100000], ['default_branch_protection', 2], ['default_group_visibility', 'private'],
    ['default_project_visibility', 'private'], ['default_snippet_visibility', 'private'], ['password_authentication_enabled_for_git', true],
    ['password_authentication_enabled_for_web', true], ['signin_enabled', true], ['signup_enabled', true], ['restricted_visibility_levels', null],
    ['domain_whitelist', null], ['dsa_key_restriction', 0], ['ecdsa_key_restriction', 0], ['ed25519_key_restriction', 0], ['rsa_key_restriction', 0],
    ['cloudide_enabled', false], ['diagramtool_enabled', false], ['enabled_git_access_protocol', null], ['performance_bar_enabled', false],
    ['throttle_authenticated_api_enabled', false], ['throttle_unauthenticated_enabled', false], ['max_attachment_size', 10],
    ['session_expire_delay', 10080], ['user_default_external', false], ['housekeeping_enabled', true], ['repository_checks_enabled', true],
  ])('defaults %s to %j', async (name, value) => {
    expect((await get())[name]).toEqual(value)
  })

  it('answers 403 to a user who is not an administrator, and 401 without credentials', async () => {
    expect(await alice.api.get('/application/settings')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect(await alice.api.put('/application/settings', { signup_enabled: false })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } })
    expect((await api(server).get('/application/settings')).status).toBe(401)
    expect((await get()).signup_enabled).toBe(true)
  })
})

describe('PUT /application/settings', () => {
  it('changes the named settings, answers the whole record, and keeps the change', async () => {
    const res = expectStatus(await put({ signup_enabled: false, default_projects_limit: 5, home_page_url: 'https://example.com/' }), 200)
    expect(res.body).toMatchObject({ signup_enabled: false, default_projects_limit: 5, home_page_url: 'https://example.com/', id: 1 })
    expect(await get()).toEqual(res.body)
  })

  it('accepts form and query parameters, GitLab boolean forms, and arrays as name[] or comma lists', async () => {
    expectStatus(await root.request('PUT', '/application/settings', { form: 'signup_enabled=False&restricted_visibility_levels[]=public&restricted_visibility_levels[]=internal' }), 200)
    expect(await get()).toMatchObject({ signup_enabled: false, restricted_visibility_levels: ['public', 'internal'] })
    expectStatus(await root.request('PUT', '/application/settings', { query: { signup_enabled: '1', import_sources: 'github,git' } }), 200)
    expect(await get()).toMatchObject({ signup_enabled: true, import_sources: ['github', 'git'] })
  })

  it('reads visibility levels by number too, and stores their names', async () => {
    expectStatus(await put({ restricted_visibility_levels: ['20', 0] }), 200)
    expect((await get()).restricted_visibility_levels).toEqual(['public', 'private'])
  })

  it('splits domain lists on commas, semicolons and whitespace', async () => {
    expectStatus(await put({ domain_whitelist: 'example.com; *.example.org\nexample.net' }), 200)
    expect((await get()).domain_whitelist).toEqual(['example.com', '*.example.org', 'example.net'])
  })

  it('ignores unknown names', async () => {
    const res = expectStatus(await put({ no_such_setting: true, signup_enabled: false }), 200)
    expect(res.body).not.toHaveProperty('no_such_setting')
    expect(res.body.signup_enabled).toBe(false)
  })

  it('moves updated_at with the clock on a change', async () => {
    const res = expectStatus(await put({ sign_in_text: 'Welcome' }), 200)
    expect(res.body.updated_at).toBe(AT)
  })
})

describe('deprecated names (api-v4.md §Versioning item 4)', () => {
  it('maps signin_enabled to password_authentication_enabled_for_web', async () => {
    const res = expectStatus(await put({ signin_enabled: false }), 200)
    expect(res.body).toMatchObject({ password_authentication_enabled_for_web: false, signin_enabled: false })
  })

  it('maps performance_bar_allowed_group_id to the path variant, and performance_bar_enabled=false to a nil path', async () => {
    let res = expectStatus(await put({ performance_bar_allowed_group_id: 'devs' }), 200)
    expect(res.body).toMatchObject({ performance_bar_allowed_group_path: 'devs', performance_bar_allowed_group_id: 'devs', performance_bar_enabled: true })
    res = expectStatus(await put({ performance_bar_enabled: false }), 200)
    expect(res.body).toMatchObject({ performance_bar_allowed_group_path: null, performance_bar_enabled: false })
  })

  it('lets the current name win when both are sent', async () => {
    expect(expectStatus(await put({ signin_enabled: false, password_authentication_enabled_for_web: true }), 200).body.password_authentication_enabled_for_web).toBe(true)
  })
})

/** The 400 body, and proof that nothing changed. */
async function rejects(body: Record<string, unknown>, message: Record<string, string[]>) {
  const before = await get()
  const res = await put(body)
  expect(res.status).toBe(400)
  expect(res.body).toEqual({ message })
  expect(await get()).toEqual(before)
}

describe('requires rules: a switch turned on needs its companions', () => {
  const rules: [string, Record<string, unknown>][] = [
    ['spamfilter_enabled', { spamfilter_api_key: 'key' }],
    ['clientside_errortracker_enabled', { clientside_errortracker_dsn: 'https://dsn' }],
    ['errortracker_enabled', { errortracker_dsn: 'https://dsn' }],
    ['domain_blacklist_enabled', { domain_blacklist: ['spam.example'] }],
    ['enforce_terms', { terms: 'Be nice' }],
    ['housekeeping_enabled', { housekeeping_bitmaps_enabled: true, housekeeping_full_repack_period: 50, housekeeping_gc_period: 200, housekeeping_incremental_repack_period: 10 }],
    ['cloudide_enabled', { cloudide_url: 'https://ide.example' }],
    ['metrics_enabled', { metrics_host: 'localhost', metrics_method_call_threshold: 10, metrics_packet_size: 1, metrics_pool_size: 16, metrics_port: 8089, metrics_sample_interval: 15, metrics_timeout: 10 }],
    ['diagramtool_enabled', { diagramtool_url: 'https://diagrams.example' }],
    ['captcha_enabled', { captcha_private_key: 'private', captcha_site_key: 'site' }],
    ['require_two_factor_authentication', { two_factor_grace_period: 48 }],
    ['shared_runners_enabled', { shared_runners_text: 'Shared runners' }],
    ['jobqueue_throttling_enabled', { jobqueue_throttling_factor: 0.5, jobqueue_throttling_queues: ['default'] }],
    ['throttle_authenticated_api_enabled', { throttle_authenticated_api_period_in_seconds: 60, throttle_authenticated_api_requests_per_period: 100 }],
    ['throttle_authenticated_web_enabled', { throttle_authenticated_web_period_in_seconds: 60, throttle_authenticated_web_requests_per_period: 100 }],
    ['throttle_unauthenticated_enabled', { throttle_unauthenticated_period_in_seconds: 60, throttle_unauthenticated_requests_per_period: 100 }],
    ['unique_ips_limit_enabled', { unique_ips_limit_per_user: 10, unique_ips_limit_time_window: 3600 }],
  ]

  it.each(rules)('%s alone answers 400 naming each missing companion, and with them 200', async (toggle, companions) => {
    await rejects({ [toggle]: true }, Object.fromEntries(Object.keys(companions).map((c) => [c, ['is missing']])))
    const res = expectStatus(await put({ [toggle]: true, ...companions }), 200)
    expect(res.body).toMatchObject({ [toggle]: true, ...companions })
  })

  it.each(rules.filter(([t]) => t !== 'shared_runners_enabled' && t !== 'housekeeping_enabled' && !t.startsWith('throttle_') && t !== 'require_two_factor_authentication' && t !== 'unique_ips_limit_enabled' && t !== 'metrics_enabled'))(
    '%s may not be left with a blank companion, in the same request or a later one',
    async (toggle, companions) => {
      const [first] = Object.keys(companions)
      const blank = Array.isArray(companions[first]) ? [] : typeof companions[first] === 'number' ? null : ''
      await rejects({ [toggle]: true, ...companions, [first]: blank }, { [first]: ["can't be blank"] })
      expectStatus(await put({ [toggle]: true, ...companions }), 200)
      await rejects({ [first]: blank }, { [first]: ["can't be blank"] })
    },
  )

  it('turning a switch off needs no companion', async () => {
    expectStatus(await put({ housekeeping_enabled: false, metrics_enabled: false }), 200)
  })
})

describe('ranges and enumerations', () => {
  it.each([
    [{ default_branch_protection: 5 }, { default_branch_protection: ['does not have a valid value'] }],
    [{ default_project_visibility: 'secret' }, { default_project_visibility: ['does not have a valid value'] }],
    [{ default_group_visibility: 'everyone' }, { default_group_visibility: ['does not have a valid value'] }],
    [{ enabled_git_access_protocol: 'ftp' }, { enabled_git_access_protocol: ['does not have a valid value'] }],
    [{ restricted_visibility_levels: ['secret'] }, { restricted_visibility_levels: ["'secret' is not a valid visibility level"] }],
    [{ jobqueue_throttling_factor: 0 }, { jobqueue_throttling_factor: ['must be greater than 0'] }],
    [{ jobqueue_throttling_factor: 1 }, { jobqueue_throttling_factor: ['must be less than 1'] }],
    [{ rsa_key_restriction: 512 }, { rsa_key_restriction: ['must be forbidden, allowed, or one of these sizes: 1024, 2048, 3072, or 4096'] }],
    [{ dsa_key_restriction: 4096 }, { dsa_key_restriction: ['must be forbidden, allowed, or one of these sizes: 1024, 2048, or 3072'] }],
    [{ ecdsa_key_restriction: 255 }, { ecdsa_key_restriction: ['must be forbidden, allowed, or one of these sizes: 256, 384, or 521'] }],
    [{ ed25519_key_restriction: 1 }, { ed25519_key_restriction: ['must be forbidden, allowed, or one of these sizes: 256'] }],
    [{ max_attachment_size: 0 }, { max_attachment_size: ['must be greater than 0'] }],
    [{ max_artifacts_size: -1 }, { max_artifacts_size: ['must be greater than 0'] }],
    [{ max_pages_size: -1 }, { max_pages_size: ['must be greater than or equal to 0'] }],
    [{ session_expire_delay: -5 }, { session_expire_delay: ['must be greater than or equal to 0'] }],
    [{ default_projects_limit: -1 }, { default_projects_limit: ['must be greater than or equal to 0'] }],
    [{ terminal_max_session_time: -1 }, { terminal_max_session_time: ['must be greater than or equal to 0'] }],
    [{ polling_interval_multiplier: -0.5 }, { polling_interval_multiplier: ['must be greater than or equal to 0'] }],
    [{ two_factor_grace_period: -1 }, { two_factor_grace_period: ['must be greater than or equal to 0'] }],
    [{ throttle_unauthenticated_period_in_seconds: 0 }, { throttle_unauthenticated_period_in_seconds: ['must be greater than 0'] }],
    [{ throttle_authenticated_api_requests_per_period: 0 }, { throttle_authenticated_api_requests_per_period: ['must be greater than 0'] }],
    [{ housekeeping_incremental_repack_period: 0 }, { housekeeping_incremental_repack_period: ['must be greater than 0'] }],
    [{ housekeeping_full_repack_period: 5 }, { housekeeping_full_repack_period: ['must be greater than or equal to 10'] }],
    [{ housekeeping_gc_period: 20 }, { housekeeping_gc_period: ['must be greater than or equal to 50'] }],
    [{ repostorage_timeout_medium: 60 }, { repostorage_timeout_medium: ['must be less than or equal to 55'] }],
    [{ repostorage_timeout_fast: 40 }, { repostorage_timeout_medium: ['must be greater than or equal to 40'] }],
    [{ circuitbreaker_access_retries: 0 }, { circuitbreaker_access_retries: ['must be greater than or equal to 1'] }],
    [{ metrics_port: 70000 }, { metrics_port: ['must be less than or equal to 65535'] }],
    [{ default_artifacts_expire_in: 'soon' }, { default_artifacts_expire_in: ['is not a correct duration'] }],
    [{ default_artifacts_expire_in: '' }, { default_artifacts_expire_in: ["can't be blank"] }],
    [{ repository_storages: ['nfs'] }, { repository_storages: ["can't include: nfs"] }],
    [{ repository_storages: [] }, { repository_storages: ["can't be blank"] }],
    [{ import_sources: ['svn'] }, { import_sources: ["'svn' is not a import source"] }],
    [{ disabled_oauth_sign_in_sources: ['github'] }, { disabled_oauth_sign_in_sources: ["'github' is not an OAuth sign-in source"] }],
    [{ admin_notification_email: 'nobody' }, { admin_notification_email: ['is invalid'] }],
    [{ home_page_url: 'not a url' }, { home_page_url: ['must be a valid URL'] }],
  ])('%j answers 400 %j and changes nothing', async (body, message) => {
    await rejects(body, message)
  })

  it('accepts the edges: 0 and -1 key restrictions, a factor inside (0, 1), durations, nil protocol', async () => {
    const res = expectStatus(await put({
      rsa_key_restriction: -1, ed25519_key_restriction: 256, dsa_key_restriction: 0, jobqueue_throttling_factor: '0.25',
      default_artifacts_expire_in: '1 week 2 days', enabled_git_access_protocol: 'nil', housekeeping_full_repack_period: 10,
    }), 200)
    expect(res.body).toMatchObject({ rsa_key_restriction: -1, ed25519_key_restriction: 256, jobqueue_throttling_factor: 0.25, default_artifacts_expire_in: '1 week 2 days', enabled_git_access_protocol: null })
    expect(expectStatus(await put({ enabled_git_access_protocol: 'http' }), 200).body.enabled_git_access_protocol).toBe('http')
  })

  it('reads default_artifacts_expire_in as CI reads artifacts:expire_in (ChronicDuration): clock forms and a bare last number too', async () => {
    for (const text of ['1:30:00', '1h 30', 'never', '2 weeks and 3 days']) {
      expect(expectStatus(await put({ default_artifacts_expire_in: text }), 200).body.default_artifacts_expire_in).toBe(text)
    }
  })

  it('rejects a whole PUT when one setting is wrong, naming every wrong one', async () => {
    await rejects({ signup_enabled: false, max_attachment_size: 0, rsa_key_restriction: 1 }, {
      max_attachment_size: ['must be greater than 0'],
      rsa_key_restriction: ['must be forbidden, allowed, or one of these sizes: 1024, 2048, 3072, or 4096'],
    })
  })
})

describe('types', () => {
  it.each([
    [{ signup_enabled: 'maybe' }, 'signup_enabled'],
    [{ default_projects_limit: 'many' }, 'default_projects_limit'],
    [{ default_projects_limit: 1.5 }, 'default_projects_limit'],
    [{ polling_interval_multiplier: 'fast' }, 'polling_interval_multiplier'],
    [{ restricted_visibility_levels: { a: { b: 1 } } }, 'restricted_visibility_levels'],
    [{ sign_in_text: { nested: true } }, 'sign_in_text'],
  ])('%j answers 400 "is invalid" for the field and changes nothing', async (body, field) => {
    await rejects(body, { [field]: ['is invalid'] })
  })

  it('keeps arrays as arrays and integers as numbers from strings', async () => {
    const res = expectStatus(await request(server, 'PUT', '/api/v4/application/settings', {
      headers: { 'PRIVATE-TOKEN': server.rootToken }, form: 'default_projects_limit=7&jobqueue_throttling_queues[]=default',
    }), 200)
    expect(res.body).toMatchObject({ default_projects_limit: 7, jobqueue_throttling_queues: ['default'] })
  })
})
