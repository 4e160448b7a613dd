// The one script of the pages, and what it reads. On a job page it follows a running job's log: it asks the page's
// own `…/-/jobs/:id/trace.json?offset=N` for the lines after those shown (coloured by the server with the log
// stylesheet's classes) and the job's status, and stops when the job has ended. That route checks what the job page
// checks, so whoever may see the page (an anonymous viewer of a public project too) sees it grow, and no one else.
// On a project page it makes the clone URLs' Copy buttons work. Served from our origin under its hash, so a page's CSP
// can allow exactly `script-src 'self'`.
import { type PageRoute } from '../page-routes.js'
import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { COMPLETED_STATUSES } from '../../../core/job-status.js'
import { jobTraceFrom } from '../../services/ci/index.js'
import { findJob, jobsProject } from '../../services/ci/index.js'
import type { WebContext } from '../context.js'
import { CSP } from '../layout.js'
import { traceHtml } from './job-log.js'

const SCRIPT = `(function () {
  'use strict';
  function follow(pre) {
    var offset = Number(pre.getAttribute('data-offset')) || 0;
    var traceUrl = pre.getAttribute('data-trace-url');
    var state = document.getElementById('job-status');
    function tick() {
      fetch(traceUrl + '?offset=' + offset, { credentials: 'same-origin', cache: 'no-store' })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (t) {
          // Signed out meanwhile, or the job is gone: the page stays as it is.
          if (!t) return false;
          if (t.status && state) { state.textContent = t.status; state.className = 'ci-status ci-' + t.status; }
          if (!t.append) pre.textContent = '';
          // The server's rendering of the new lines: escaped text in spans with class names, as in the page itself.
          var part = document.createElement('template');
          part.innerHTML = t.html;
          pre.appendChild(part.content);
          offset = t.offset;
          pre.setAttribute('data-offset', String(offset));
          return !t.complete;
        })
        .then(function (more) {
          if (more) setTimeout(tick, 1000); else pre.setAttribute('data-follow', 'done');
        }, function () { setTimeout(tick, 3000); });
    }
    setTimeout(tick, 1000);
  }
  function copy(button) {
    button.addEventListener('click', function () {
      var text = button.getAttribute('data-copy');
      var field = document.getElementById(button.getAttribute('data-copy-field'));
      // The word changes; the icon beside it stays.
      var word = button.querySelector('span') || button;
      function done() { word.textContent = 'Copied'; setTimeout(function () { word.textContent = 'Copy'; }, 2000); }
      // The clipboard API needs a secure context (https or loopback); elsewhere the field's text is selected and copied.
      if (navigator.clipboard) return navigator.clipboard.writeText(text).then(done, function () { if (field) field.select(); });
      if (field) { field.select(); if (document.execCommand('copy')) done(); }
    });
  }
  var pre = document.getElementById('trace');
  if (pre && pre.getAttribute('data-follow') === '1') follow(pre);
  var buttons = document.querySelectorAll('button[data-copy]');
  for (var i = 0; i < buttons.length; i++) copy(buttons[i]);
})();
`

const BODY = Buffer.from(SCRIPT)
export const PAGE_SCRIPT_PATH = `/-/collab/page-${createHash('sha256').update(BODY).digest('hex').slice(0, 16)}.js`

/** A page with the script: the strict policy, plus our own script and its fetches to our own origin. */
export const SCRIPT_CSP = CSP.replace("default-src 'none';", "default-src 'none'; script-src 'self'; connect-src 'self';")

export function sendPageScript(req: RouteRequest, res: ServerResponse) {
  res.writeHead(200, {
    'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': String(BODY.length),
    'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff',
  })
  res.end(req.method === 'HEAD' ? undefined : BODY)
}

const NEWLINE = 0x0a

/**
 * `GET …/-/jobs/:id/trace.json?offset=N` (GitLab's page has the same route): the job's status and the log's lines after
 * byte N as HTML. While the job runs only whole lines are sent, so that no escape sequence or character is cut in two;
 * its last answer, after the job ended, has the rest. An offset past the log's end (the log was erased) starts again.
 */
export async function jobTraceJson(ctx: WebContext, req: RouteRequest, res: ServerResponse, projectPath: string, id: number) {
  const p = jobsProject(ctx, projectPath)
  // The status is read before the log, so the log read after the job ended is its last.
  const job = findJob(ctx, p, id)
  const asked = Number(req.query.offset)
  const wanted = Number.isSafeInteger(asked) && asked > 0 ? asked : 0
  const { from, bytes, size } = await jobTraceFrom(ctx, String(p.id), job.id, wanted)
  const complete = COMPLETED_STATUSES.has(job.status)
  const upTo = complete ? bytes.length : bytes.lastIndexOf(NEWLINE) + 1
  const body = Buffer.from(JSON.stringify({
    id: job.id, status: job.status, complete, append: from === wanted, offset: from + upTo, size,
    html: traceHtml(bytes.subarray(0, upTo)).text,
  }))
  res.writeHead(200, {
    'Content-Type': 'application/json', 'Content-Length': String(body.length), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff',
  })
  res.end(req.method === 'HEAD' ? undefined : body)
}

export const routes: PageRoute[] = [
  { method: 'GET', rest: /^jobs\/(\d{1,9})\/trace\.json$/, page: (ctx, req, res, project, m) => jobTraceJson(ctx, req, res, project, Number(m[1])) },
  { method: 'GET', path: PAGE_SCRIPT_PATH, asset: sendPageScript },
]
