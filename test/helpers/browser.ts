// A real headless Chromium for the web-page tests: Debian's binary driven by playwright-core (which downloads no
// browser), one page that records and dismisses dialogs, and screenshots under .scratch/web-screenshots/ (git-ignored).
import { existsSync, mkdirSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'

export const SHOTS = join(process.cwd(), '.scratch', 'web-screenshots')

function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) if (dir && existsSync(join(dir, name))) return join(dir, name)
  }
  return undefined
}

/** Chromium's path, or undefined when none is installed (the browser tests are then skipped). */
export const chromiumPath = findChromium()

/** A page of its own (its own context: cookies, storage, permissions); `close` closes it, not the browser. */
export interface BrowserPage { page: Page; dialogs: string[]; shot(name: string): Promise<Buffer>; close(): Promise<void> }

// One Chromium per test worker: workers run file after file (isolate: false), and launching took seconds of a loaded
// machine for each browser file. Playwright closes it when the worker exits.
let shared: Promise<Browser> | undefined

async function browser(): Promise<Browser> {
  const running = await shared
  if (running?.isConnected()) return running
  const { chromium } = await import('playwright-core')
  shared = chromium.launch({ executablePath: chromiumPath, headless: true })
  return shared
}

export async function openBrowserPage(height: number): Promise<BrowserPage> {
  mkdirSync(SHOTS, { recursive: true })
  const context = await (await browser()).newContext({ viewport: { width: 1200, height } })
  const page = await context.newPage()
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  return { page, dialogs, shot: (name) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }), close: () => context.close() }
}

/**
 * Nothing hostile content carried ran: no element it would have made (whether or not the CSP would have stopped it
 * running), no flag set, no dialog opened.
 */
export async function expectNoScriptRan(page: Page, dialogs: string[]) {
  // The pages' own script file and icons are ours; data never makes a script or svg element.
  expect(await page.locator('script:not([src*="/-/collab/page-"]), svg:not(.icon), img[src="x"]').count()).toBe(0)
  expect(await page.evaluate('typeof window.__xss')).toBe('undefined')
  expect(dialogs).toEqual([])
}
