// The one script of the pages: follows a running job's log. It asks the API for the bytes after those already shown
// (`Range: bytes=N-`, answered 206, or 416 when nothing is new), appends them as text (never markup), and stops when
// the job has ended. Served from our origin under its hash, so the job page's CSP can allow exactly `script-src 'self'`.
import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { RouteRequest } from '../../http/router.js'
import { CSP } from '../layout.js'

const SCRIPT = `(function () {
  'use strict';
  var pre = document.getElementById('trace');
  if (!pre || pre.getAttribute('data-follow') !== '1') return;
  var offset = Number(pre.getAttribute('data-offset')) || 0;
  var traceUrl = pre.getAttribute('data-trace-url');
  var jobUrl = pre.getAttribute('data-job-url');
  var state = document.getElementById('job-status');
  var decoder = new TextDecoder();
  // Colours are the server's work on a reload; appended text drops the escape sequences instead of showing them.
  var ESCAPES = /\\u001b\\[[0-9;?]*[ -\\/]*[@-~]|\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)|\\r(?!\\n)/g;
  var DONE = { success: 1, failed: 1, canceled: 1, skipped: 1 };
  var opts = { credentials: 'same-origin', cache: 'no-store' };
  function readNew() {
    return fetch(traceUrl, { credentials: 'same-origin', cache: 'no-store', headers: { Range: 'bytes=' + offset + '-' } })
      .then(function (r) {
        if (r.status === 206) return r.arrayBuffer();
        if (r.status === 200) return r.arrayBuffer().then(function (b) { return b.slice(offset); });
        return new ArrayBuffer(0);
      })
      .then(function (buf) {
        if (!buf.byteLength) return;
        offset += buf.byteLength;
        pre.setAttribute('data-offset', String(offset));
        pre.appendChild(document.createTextNode(decoder.decode(buf, { stream: true }).replace(ESCAPES, '')));
      });
  }
  function tick() {
    fetch(jobUrl, opts).then(function (r) { return r.ok ? r.json() : null; }).then(function (job) {
      // Signed out meanwhile, or the job is gone: the page stays as it is.
      if (!job) return false;
      var status = job.status;
      if (status && state) { state.textContent = status; state.className = 'ci-status ci-' + status; }
      // The log read after the job ended is its last: nothing follows it.
      return readNew().then(function () { return !DONE[status]; });
    }).then(function (more) {
      if (more) setTimeout(tick, 1000); else pre.setAttribute('data-follow', 'done');
    }, function () { setTimeout(tick, 3000); });
  }
  setTimeout(tick, 1000);
})();
`

const BODY = Buffer.from(SCRIPT)
export const JOB_SCRIPT_PATH = `/-/collab/job-${createHash('sha256').update(BODY).digest('hex').slice(0, 16)}.js`

/** The job page's policy: the strict one, plus our own script and its fetches to our own API. */
export const JOB_CSP = CSP.replace("default-src 'none';", "default-src 'none'; script-src 'self'; connect-src 'self';")

export function sendJobScript(req: RouteRequest, res: ServerResponse) {
  res.writeHead(200, {
    'Content-Type': 'text/javascript; charset=utf-8', 'Content-Length': String(BODY.length),
    'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff',
  })
  res.end(req.method === 'HEAD' ? undefined : BODY)
}
