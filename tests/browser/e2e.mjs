// End-to-end test of the dispute page in headless Chromium (run by tests/browser/run.sh, which
// starts a server and passes its address in ORDO_URL and its kind in ORDO_KIND: `server` for
// `ordo serve`, `static` for the static site under a plain file server, where the page judges
// through WebAssembly and must never ask for /api/). Exits non-zero on any failure.
//
// 1. Classic start: click the piece on e3 and the illegal target e5; the page shows "illegal"
//    and ORDO-4.3 (the connection rule), the clause linked to the rules page's #ORDO-4.3.
// 2. The shareable link, copied with its button and opened in a new page and in a fresh browser
//    context (another profile: nothing shared but the link), shows the same verdict and clauses
//    (the page works from its link alone).
// 3. Ordo X: both steps clicked (b3-c3 sideways, then c3-d4), judged legal (ORDOX-3.1).
// 4. Ordo X tie (ORDOX-4.2): the capture b3xb4 splits Black into two single pieces; the page asks
//    which group stays, the question and its previews in view, large enough to read and
//    captioned in words, and judges b3xb4/c4 legal (screenshot: tie-KIND.png).
// 5. Keyboard only: arrow keys and Enter propose e3-e4, judged legal.
// 6. Small defects: an unreadable position in the field leaves the board drawn; an ordo
//    with no legal landing square says so; editing squares asks nothing until editing is done;
//    the page has an icon that loads.
// 7. Show, don't list: after a verdict the board shows the move done, Back/Forward and [ ] step
//    between the boards; ORDO-4.3's split groups are outlined; an ORDOX-4.2 tie outlines the
//    tied groups and previews the board after each choice.
// 8. Endgame values: under `ordo serve --tables` and on the static site of `ordo site
//    --tables` (ORDO_TABLES=yes) each legal move with its endgame value, a click plays it;
//    the static page fetches only the table files a position needs, each once, and shows the
//    values `ordo serve --tables` answers (ORDO_SERVER_URL); a static site shipping no tables
//    says so; where no table covers the position the panel says so.
// 9. Phone layout: at 390 x 844 nothing overflows sideways; a 10x8 board is turned a
//    quarter (8 squares across) and, like an 8x8 and a 16x8 one, keeps squares of 44 CSS px or
//    more, the column letters readable; every control and link is at least 44 x 44 CSS px;
//    clicks and arrow keys follow the turned board.
// 10. Opened from disk (static site, ORDO_SITE_DIR): the page says it must be served over HTTP
//    and how, and never blames the position.
// ORDO_KIND=remote: the site of `ordo site DIR --api URL`, asking another origin's server.
// Screenshots: target/browser/verdict.png (desktop), target/browser/verdict-phone.png.
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const BASE = process.env.ORDO_URL;
const OUT = process.env.ORDO_ARTIFACTS || 'target/browser';
const KIND = process.env.ORDO_KIND || 'server';
if (!BASE) {
  console.error('e2e: ORDO_URL is not set (run tests/browser/run.sh)');
  process.exit(2);
}

let passed = 0;

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
  passed += 1;
  console.log(`ok - ${what}`);
}

async function verdictOf(page) {
  const head = page.locator('#verdict-body .verdict-head');
  await head.waitFor({ timeout: 15000 });
  return {
    verdict: await head.getAttribute('data-verdict'),
    move: await page.locator('#verdict-body .verdict-head code.move').textContent(),
    clauses: await page.locator('#verdict-body a.clause-id').allTextContents(),
    hrefs: await page.locator('#verdict-body a.clause-id').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
  };
}

async function click(page, square, piece) {
  const sel = piece ? `#board circle.piece[data-square="${square}"]` : `#board rect.square[data-square="${square}"]`;
  await page.locator(sel).click();
}

async function disputeAndShare(context, problems) {
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // A 404 from /api/values is the documented answer for a position no table covers (the
  // browser logs it as a failed load); any other console error is a problem.
  page.on('console', (m) => {
    if (m.type() === 'error' && !(m.location().url || '').includes('/api/values')) problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  await page.goto(BASE);
  await page.locator('#board svg').waitFor();
  check(await page.locator('#board circle.piece').count() === 40, 'the standard start is drawn with 40 pieces');
  await click(page, 'e3', true);
  const hints = await page.locator('#board .overlay.hint, #board .overlay.hint-capture').count();
  check(hints > 0, `the legal targets of e3 are highlighted (${hints})`);
  check(await page.locator('#board .overlay.hint[data-square="e4"]').count() === 1, 'e4 is marked as a legal target');
  check(await page.locator('#board .overlay.hint[data-square="e5"]').count() === 0, 'e5 is not marked');
  await click(page, 'e5', false);
  const v = await verdictOf(page);
  check(v.verdict === 'illegal', `e3-e5 is judged illegal (got ${v.verdict})`);
  check(v.move === 'e3-e5', `the verdict names the move e3-e5 (got ${v.move})`);
  check(v.clauses.length === 1 && v.clauses[0] === 'ORDO-4.3', `the clause shown is ORDO-4.3 (got ${v.clauses})`);
  check(v.hrefs[0] === 'rules#ORDO-4.3', 'the clause links to the rules page, rules#ORDO-4.3');
  // The split groups drawn on the board as written, not listed.
  const split = await page.locator('#board .overlay.group[data-role="split"]').evaluateAll(
    (rs) => ({ squares: rs.length, groups: new Set(rs.map((r) => r.getAttribute('data-group'))).size,
      e5: rs.filter((r) => r.getAttribute('data-square') === 'e5').length }));
  check(split.squares === 20 && split.groups === 2 && split.e5 === 1,
    `ORDO-4.3: the board outlines White's 2 split groups (${split.groups} groups, ${split.squares} squares, e5 alone)`);
  check(/would form 2 groups/.test(await page.locator('#verdict-body .frame-note').textContent()), 'the verdict points to the groups on the board');
  check(await page.locator('#board circle.piece.white[data-square="e5"]').count() === 1, 'the board shows the move as written (a White piece on e5)');
  await page.keyboard.press('[');
  check(await page.locator('#board circle.piece.white[data-square="e3"]').count() === 1
    && /^1\/2/.test(await page.locator('#frame-label').textContent()), '[ steps back to the board before the move');
  await page.keyboard.press(']');
  check(/^2\/2/.test(await page.locator('#frame-label').textContent()), '] steps forward again');
  await page.locator('#copy-link').click();
  await page.locator('.share .copied').filter({ hasText: 'Copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  check(link === await page.locator('#share-link').inputValue(), 'the copy button copies the link shown');
  check(link.includes('move=e3-e5') && link.startsWith(BASE + '/?'), `the shareable link is ${link}`);
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, `verdict-${KIND}.png`), fullPage: true });
  if (process.env.ORDO_SCREENSHOTS && KIND === 'static') {
    await page.screenshot({ path: join(process.env.ORDO_SCREENSHOTS, 'page-desktop.png') });
  }

  const other = await context.newPage();
  other.on('pageerror', (e) => problems.push(`page error (shared link): ${e.message}`));
  await other.goto(link);
  const w = await verdictOf(other);
  check(JSON.stringify(w) === JSON.stringify(v), 'the shared link shows the same verdict, move and clauses');
  await freshContext(link, v, problems);
  const rules = await context.newPage();
  await rules.goto(new URL(v.hrefs[0], BASE + '/').href);
  const title = await rules.locator('section.clause[id="ORDO-4.3"] h3').textContent();
  check(title.includes('ORDO-4.3'), `the rules page has the anchor of ORDO-4.3 ("${title.trim()}")`);
  await Promise.all([page.close(), other.close(), rules.close()]);
}

// The link opened by someone else: a new browser profile, nothing shared with the first.
async function freshContext(link, v, problems) {
  const profile = mkdtempSync(join(tmpdir(), 'ordo-e2e-fresh-'));
  const context = await launch(profile);
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`page error (fresh context): ${e.message}`));
    await page.goto(link);
    const w = await verdictOf(page);
    check(JSON.stringify(w) === JSON.stringify(v), `the link opened in a fresh browser context shows the same verdict (${w.move} ${w.verdict} ${w.clauses})`);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function ordoXTwoSteps(context) {
  const page = await context.newPage();
  const start = '2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w x';
  await page.goto(`${BASE}/?position=${encodeURIComponent(start)}`);
  await page.locator('#board svg').waitFor();
  await page.waitForFunction(() => /2062 legal moves/.test(document.getElementById('prompt').textContent));
  await click(page, 'b3', true);
  await click(page, 'c3', false);
  await page.waitForFunction(() => /Step 1: b3-c3/.test(document.getElementById('prompt').textContent));
  check(await page.locator('#board circle.piece.white[data-square="c3"]').count() === 1,
    'after the sideways step the board shows the piece on c3');
  await click(page, 'c3', true);
  check(await page.locator('#board .overlay.hint[data-square="d4"]').count() === 1, 'd4 is a legal second step');
  await click(page, 'd4', false);
  const v = await verdictOf(page);
  check(v.verdict === 'legal' && v.move === 'b3-c3,c3-d4', `Ordo X two clicked steps: ${v.move} ${v.verdict}`);
  check(v.clauses.includes('ORDOX-3.1'), 'the two-step turn is permitted by ORDOX-3.1');
  await page.close();
}

async function ordoXTie(context) {
  const page = await context.newPage();
  await page.goto(`${BASE}/?position=${encodeURIComponent('5/BBB2/1W3/5/5 w x')}`);
  await page.locator('#board svg').waitFor();
  await page.waitForFunction(() => /legal moves/.test(document.getElementById('prompt').textContent));
  await click(page, 'b3', true);
  await click(page, 'b4', true);
  const choices = page.locator('#choices button.group-button');
  await choices.first().waitFor();
  const labels = await choices.allTextContents();
  check(JSON.stringify(labels) === JSON.stringify(['Keep a4', 'Keep c4']), `the tie offers ${labels}`);
  // The tied groups outlined, and the board after each choice beside it.
  check(await page.locator('#board .overlay.group[data-role="tied"]').count() === 2, 'the two tied groups are outlined on the board');
  const previews = await page.locator('#choices figure.tie-preview').evaluateAll((fs) => fs.map((f) => ({
    keep: f.getAttribute('data-keep'),
    black: [...f.querySelectorAll('svg circle.piece.black')].map((c) => c.getAttribute('data-square')).join(' '),
  })));
  check(JSON.stringify(previews) === JSON.stringify([{ keep: 'a4', black: 'a4' }, { keep: 'c4', black: 'c4' }]),
    `each choice previews its board: ${JSON.stringify(previews)}`);
  // The layout: the question and its previews in view, previews large enough to read, each
  // captioned in words (no tiny home-row labels), Cancel not stretched to the row's height.
  const layout = await page.evaluate(() => {
    const box = document.getElementById('choices').getBoundingClientRect();
    const figs = [...document.querySelectorAll('#choices figure.tie-preview')];
    const cancel = [...document.querySelectorAll('#choices button')].find((b) => b.textContent === 'Cancel');
    return { inView: box.top >= -1 && box.bottom <= window.innerHeight + 1, box: `${box.top.toFixed(0)}-${box.bottom.toFixed(0)} of ${window.innerHeight}`,
      widths: figs.map((f) => f.querySelector('svg rect.square').getBoundingClientRect().width),
      captions: figs.map((f) => f.querySelector('figcaption').textContent),
      labels: document.querySelectorAll('#choices text.home-row-label').length,
      cancel: cancel ? cancel.getBoundingClientRect().height : 0 };
  });
  check(layout.inView, `the tie question and its previews are in view (${layout.box} px)`);
  check(layout.widths.length === 2 && layout.widths.every((w) => w >= 40), `the previews are large enough to read (squares of ${layout.widths.map((w) => w.toFixed(0)).join(', ')} px)`);
  check(JSON.stringify(layout.captions) === JSON.stringify(['After b3xb4/a4: the piece on a4 stays', 'After b3xb4/c4: the piece on c4 stays'])
    && layout.labels === 0, `each preview is captioned in words, without tiny labels (${layout.captions.join('; ')})`);
  check(layout.cancel > 0 && layout.cancel <= 60, `Cancel keeps its own height (${layout.cancel.toFixed(0)} px)`);
  await page.screenshot({ path: join(OUT, `tie-${KIND}.png`) });
  if (process.env.ORDO_SCREENSHOTS && KIND === 'static') {
    await page.screenshot({ path: join(process.env.ORDO_SCREENSHOTS, 'page-tie.png') });
  }
  await choices.nth(1).click();
  const v = await verdictOf(page);
  // The boards of the turn: before, the capture (a4 marked for removal), after the removal.
  await page.locator('#frames:not([hidden])').waitFor();
  check(/^3\/3/.test(await page.locator('#frame-label').textContent())
    && await page.locator('#board circle.piece').count() === 2, 'after the verdict the board shows the turn done (2 pieces left)');
  await page.locator('#frame-back').click();
  check(await page.locator('#board circle.removed[data-square="a4"]').count() === 1
    && await page.locator('#board .overlay.group[data-role="removed"][data-square="a4"]').count() === 1
    && await page.locator('#board .overlay.group[data-role="kept"][data-square="c4"]').count() === 1,
  'Back shows the capture with a4 marked for removal and the kept group c4');
  await page.locator('#frame-back').click();
  check(await page.locator('#board circle.piece').count() === 4 && await page.locator('#frame-back').isDisabled(), 'Back again: the board before the move');
  await page.locator('#frame-next').click();
  check(/^2\/3/.test(await page.locator('#frame-label').textContent()), 'Forward steps to the capture');
  check(v.verdict === 'legal' && v.move === 'b3xb4/c4', `the tie choice gives ${v.move} ${v.verdict}`);
  check(v.clauses[0] === 'ORDOX-4.2', `the deciding clause, ORDOX-4.2, comes first (${v.clauses})`);
  check(await page.locator('#verdict-body details.other-permits').count() === 1
    && !(await page.locator('#verdict-body details.other-permits').getAttribute('open') !== null),
  'the other permitting clauses are folded');
  await page.close();
}

async function keyboardOnly(context) {
  const page = await context.newPage();
  await page.goto(BASE);
  await page.locator('#board svg').waitFor();
  await page.waitForFunction(() => /legal moves/.test(document.getElementById('prompt').textContent));
  await page.locator('#board').focus();
  // The cursor starts on a1: four steps right and two up reach e3, one more up e4.
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp', 'Enter', 'ArrowUp', 'Enter']) {
    await page.keyboard.press(key);
  }
  const v = await verdictOf(page);
  check(v.verdict === 'legal' && v.move === 'e3-e4', `keyboard only: ${v.move} ${v.verdict}`);
  await page.close();
}

async function smallDefects(context) {
  const page = await context.newPage();
  const asked = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname.includes('/api/')) asked.push(r.url()); });
  await page.goto(BASE);
  await page.waitForFunction(() => /legal moves/.test(document.getElementById('prompt').textContent));
  await page.locator('#position').fill('not a position');
  await page.locator('#position-form button[type="submit"]').click();
  await page.locator('#verdict-body .error').waitFor();
  check(await page.locator('#board circle.piece').count() === 40, 'an unreadable position leaves the board drawn (40 pieces)');
  check(await page.locator('#position').inputValue() === 'not a position', 'the field keeps the text to fix');

  await click(page, 'c1', true);
  await page.locator('#choices .ordo-button').click();
  await click(page, 'd1', true);
  const prompt = await page.locator('#prompt').textContent();
  check(/no legal landing square/.test(prompt), `an ordo with no legal landing square says so ("${prompt}")`);
  await page.keyboard.press('Escape');

  await page.locator('#edit-toggle').click();
  await page.waitForFunction(() => /Editing/.test(document.getElementById('prompt').textContent));
  await page.waitForLoadState('networkidle');
  const before = asked.length;
  await click(page, 'e3', true);  // White -> Black
  await click(page, 'e5', false); // empty -> White
  await click(page, 'e5', true);  // White -> Black
  await click(page, 'f5', false); // empty -> White
  check(asked.length === before, `editing four squares asked nothing (${asked.length - before} requests)`);
  check(await page.locator('#board circle.piece.black[data-square="e3"]').count() === 1
    && await page.locator('#board circle.piece.black[data-square="e5"]').count() === 1
    && await page.locator('#board circle.piece.white[data-square="f5"]').count() === 1, 'the edits are drawn at once');
  await page.locator('#edit-toggle').click();
  await page.waitForFunction(() => /legal moves/.test(document.getElementById('prompt').textContent));
  const pos = await page.locator('#position').inputValue();
  check(pos.startsWith('2BB2BB2/BBBBBBBBBB/BB2BB2BB/4BW4/10/WW2BW2WW/'), `done editing sets up the edited position (${pos})`);

  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  const res = await page.request.get(new URL(icon, page.url()).href);
  check(res.ok() && (res.headers()['content-type'] || '').includes('svg'), `the favicon ${icon} loads (${res.status()})`);
  await page.close();
}

// Endgame values: each legal move with its endgame value, best first; a click plays it. With
// no tables (the static site), or none covering the position, the panel says so.
async function endgameValues(context) {
  const page = await context.newPage();
  const fetched = [];
  page.on('request', (r) => { const m = /\/tables\/(ctb-[^/?]+)$/.exec(new URL(r.url()).pathname); if (m) fetched.push(m[1]); });
  await page.goto(`${BASE}/?position=${encodeURIComponent('BB2/4/4/WW2 w classic')}`);
  const body = page.locator('#values-body');
  if (process.env.ORDO_TABLES !== 'yes') {
    await body.locator('[data-values="none"]').waitFor();
    const text = await body.textContent();
    check(/no endgame tables here/i.test(text) && !/`/.test(text), `without tables the values panel says so, with no command ("${text.trim()}")`);
    await page.close();
    return;
  }
  await body.locator('ol.values li').first().waitFor();
  const head = await body.locator('.value-head').textContent();
  const rows = await body.locator('button.value-move').evaluateAll((bs) => bs.map((b) => [b.getAttribute('data-move'), b.querySelector('.value-text').textContent]));
  check(head === 'White to move wins in 3 plies', `the panel gives the position's value ("${head}")`);
  check(JSON.stringify(rows[0]) === JSON.stringify(['a1:b1-a3', 'wins in 3 plies']) && rows.some(([, t]) => t === 'draws')
    && rows.some(([, t]) => /^loses in/.test(t)), `each legal move with its value, best first (${rows.length} moves, first ${rows[0]})`);
  await body.locator('button.value-move').first().click();
  await page.waitForFunction(() => document.getElementById('position').value === 'BB2/WW2/4/4 b classic');
  await page.waitForFunction(() => /^Black to move/.test((document.querySelector('#values-body .value-head') || {}).textContent || ''));
  check(/^Black to move loses in 2 plies/.test(await body.locator('.value-head').textContent()), 'clicking a move plays it and shows the values after it');
  if (KIND === 'static') await staticTables(context, page, fetched);
  fetched.length = 0;
  await page.goto(BASE);
  await body.locator('[data-values="none"]').waitFor();
  const beyond = await body.textContent();
  check(/beyond the tables: .* hold no classic Ordo endgame of 20 White pieces against 20 Black pieces on the 10 x 8 board/.test(beyond)
    && !/`|slice|ordo /.test(beyond), `the start position: the panel says in a player's words that it is beyond the tables ("${beyond.trim()}")`);
  check(fetched.length === 0, `no table file fetched for the 10x8 start (${fetched.join(', ')})`);
  await page.close();
}

// The static site's values: the table files fetched are those of 4x4 slices (none for
// another board), each once; the values equal the server's; with no tables shipped the
// panel says so.
async function staticTables(context, page, fetched) {
  check(fetched.length > 0 && new Set(fetched).size === fetched.length && fetched.every((n) => /^ctb-classic-4x4-/.test(n)),
    `the static page fetched only the 4x4 table files it needs, each once (${fetched.join(', ')})`);
  const position = 'BB2/WW2/4/4 b classic';
  const rows = await page.locator('#values-body button.value-move').evaluateAll((bs) => bs.map((b) => [b.getAttribute('data-move'), b.querySelector('.value-text').textContent]));
  const served = await (await fetch(`${process.env.ORDO_SERVER_URL}/api/values?position=${encodeURIComponent(position)}`)).json();
  check(JSON.stringify(rows) === JSON.stringify(served.moves.map((m) => [m.move, m.text])) && rows.length > 0,
    `the static page shows the values ordo serve --tables answers (${rows.length} moves)`);
  const bare = await context.newPage();
  await bare.route('**/tables/index.json', (r) => r.fulfill({ contentType: 'application/json', body: '{"files":[]}' }));
  await bare.goto(`${BASE}/?position=${encodeURIComponent(position)}`);
  const none = bare.locator('#values-body [data-values="none"]');
  await none.waitFor();
  check(/No endgame tables are shipped with this site/.test(await none.textContent()), 'a static site shipping no tables says so');
  await bare.close();
}

// Opened from disk (file://), where the browser lets the page load neither its module nor any
// answer: the page says it must be served over HTTP and how, and never blames the position.
async function openedFromDisk(context) {
  const page = await context.newPage();
  await page.goto(pathToFileURL(resolve(process.env.ORDO_SITE_DIR, 'index.html')).href);
  const error = page.locator('#verdict-body [data-error-where="page"]');
  await error.waitFor();
  const text = await error.textContent();
  const prompt = await page.locator('#prompt').textContent();
  check(/opened from a file/.test(text) && /over HTTP/.test(text) && /--bind 127\.0\.0\.1/.test(text),
    `from file:// the page says it must be served over HTTP and how ("${text.trim()}")`);
  check(!/position cannot be played|fix it/.test(prompt) && !/Failed to fetch/.test(text),
    `from file:// the page does not blame the position ("${prompt.trim()}")`);
  await page.close();
}

// Every control and link on the phone page (the sources opened, so that their links show)
// is at least 44 x 44 CSS px; the check names each one below.
async function thumbTargets(page) {
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  const { shown, small } = await page.evaluate(() => {
    const all = document.querySelectorAll('a[href], button, select, input, summary, textarea, [tabindex="0"]');
    const targets = [...all].map((el) => {
      const r = el.getBoundingClientRect();
      const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} "${(el.textContent || el.value || '').trim().slice(0, 24)}"`;
      return { name, w: r.width, h: r.height, shown: r.width > 0 && r.height > 0 };
    }).filter((t) => t.shown);
    return { shown: targets.length,
      small: targets.filter((t) => t.w < 44 || t.h < 44).map((t) => `${t.name} ${t.w.toFixed(1)} x ${t.h.toFixed(1)}`) };
  });
  check(shown >= 15 && small.length === 0, `on a 390 x 844 phone every control and link is at least 44 x 44 CSS px (${shown} measured)${small.length ? ': ' + small.join('; ') : ''}`);
}

async function phoneScreenshot(context) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  const pos = '2BB2BB2/BBBBBBBBBB/BB2BB2BB/10/10/WW2WW2WW/WWWWWWWWWW/2WW2WW2 w classic';
  await page.goto(`${BASE}/?position=${encodeURIComponent(pos)}&move=e3-e5`);
  await verdictOf(page);
  // Phone layout: the 10x8 board scales to the width: nothing scrolls sideways, neither
  // the page nor the board, and no label takes width beside the board.
  const measure = () => page.evaluate(() => {
    const sq = document.querySelector('#board rect.square').getBoundingClientRect();
    const board = document.getElementById('board');
    const svg = board.querySelector('svg').getBoundingClientRect();
    return { page: document.documentElement.scrollWidth, inner: window.innerWidth, sq: sq.width,
      board: svg.width, boardScroll: board.scrollWidth - board.clientWidth,
      labels: document.querySelectorAll('#board text.home-row-label').length };
  });
  const m = await measure();
  check(m.page <= m.inner, `the phone page has no horizontal overflow (scrollWidth ${m.page} <= innerWidth ${m.inner})`);
  check(m.boardScroll <= 0, `the 10x8 board fits the width without scrolling (overflow ${m.boardScroll} px)`);
  check(m.board >= 370 && m.sq >= 44, `the 10x8 board takes ${m.board.toFixed(0)} of the 390 px (a square ${m.sq.toFixed(1)} CSS px, at least 44)`);
  check(await page.locator('#board svg[data-turned]').count() === 1, 'on a portrait phone the 10x8 board is turned: its 8 rows span the width');
  const turn = await page.evaluate(() => {
    const at = (sq) => document.querySelector(`#board rect.square[data-square="${sq}"]`).getBoundingClientRect();
    const [a1, a2, b1, j1] = ['a1', 'a2', 'b1', 'j1'].map(at);
    const labels = [...document.querySelectorAll('#board text.coord')].map((t) => t.getBoundingClientRect());
    const svg = document.querySelector('#board svg').getBoundingClientRect();
    return { right: a2.left > a1.left && a2.top === a1.top, down: b1.top > a1.top && b1.left === a1.left,
      tall: j1.bottom - a1.top, inside: labels.every((l) => l.left >= a1.left - 0.5 && l.right <= svg.right + 0.5) };
  });
  check(turn.right && turn.down, 'the turned board: rows run rightwards (a1 left of a2), columns down (a1 above b1)');
  check(turn.inside, 'no label takes width beside the turned board (all within the squares\' span)');
  check(m.labels === 0, 'no home-row label takes width beside the board');
  const eight = '1BB2BB1/BBBBBBBB/B2BB2B/8/8/W2WW2W/WWWWWWWW/1WW2WW1 w classic';
  const small = await page.context().newPage();
  await small.setViewportSize({ width: 390, height: 844 });
  await small.goto(`${BASE}/?position=${encodeURIComponent(eight)}`);
  await small.waitForFunction(() => /legal moves/.test(document.getElementById('prompt').textContent));
  await small.locator('#board rect.square').first().waitFor();
  const m8 = await small.evaluate(() => ({ sq: document.querySelector('#board rect.square').getBoundingClientRect().width,
    page: document.documentElement.scrollWidth }));
  check(m8.sq >= 44 && m8.page <= 390, `on a 390 x 844 phone an 8x8 square is ${m8.sq.toFixed(1)} CSS px (at least 44), no overflow`);
  // A 16 x 8 board uses the width it has (turned, 8 squares across), its column letters
  // readable (at least 12 CSS px).
  await small.goto(`${BASE}/?position=${encodeURIComponent('B15/16/16/16/16/16/16/WW14 w classic')}`);
  await small.waitForFunction(() => /legal moves/.test(document.getElementById('prompt').textContent));
  await small.locator('#board rect.square').first().waitFor();
  const m16 = await small.evaluate(() => ({ sq: document.querySelector('#board rect.square').getBoundingClientRect().width,
    page: document.documentElement.scrollWidth,
    letter: Math.min(...[...document.querySelectorAll('#board text.coord.col')].map((t) => t.getBoundingClientRect().height)) }));
  check(m16.sq >= 44 && m16.page <= 390 && m16.letter >= 12,
    `on a 390 x 844 phone a 16x8 square is ${m16.sq.toFixed(1)} CSS px (at least 44), its column letters ${m16.letter.toFixed(1)} px tall (at least 12), no overflow`);
  await small.close();
  await page.locator('#board').focus();
  await page.keyboard.press('ArrowRight');
  check(/a2: White piece/.test(await page.locator('#prompt').textContent()), 'the arrow keys move in the displayed direction on the turned board (ArrowRight: a1 to a2)');
  await page.keyboard.press('ArrowDown');
  check(/b2: White piece/.test(await page.locator('#prompt').textContent()), 'ArrowDown on the turned board: a2 to b2');
  const fresh = await page.context().newPage();
  await fresh.setViewportSize({ width: 390, height: 844 });
  await fresh.goto(`${BASE}/?position=${encodeURIComponent(pos)}`);
  await fresh.waitForFunction(() => /legal moves/.test(document.getElementById('prompt').textContent));
  await click(fresh, 'e3', true);
  await fresh.locator('#board .overlay.hint[data-square="e4"]').waitFor();
  const hint = await fresh.evaluate(() => {
    const c = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    const h = document.querySelector('#board .overlay.hint[data-square="e4"]');
    const sq = document.querySelector('#board rect.square[data-square="e4"]');
    return h ? Math.hypot(...c(h).map((v, i) => v - c(sq)[i])) : -1;
  });
  check(hint >= 0 && hint < 2, `a click on the turned board selects e3 and marks e4 on its own square (${hint.toFixed(1)} px off)`);
  await fresh.close();
  await thumbTargets(page);
  await page.screenshot({ path: join(OUT, `verdict-phone-${KIND}.png`), fullPage: true });
  if (process.env.ORDO_SCREENSHOTS && KIND === 'static') {
    await page.screenshot({ path: join(process.env.ORDO_SCREENSHOTS, 'page-phone.png') });
  }
  await page.setViewportSize({ width: 844, height: 390 });
  await page.locator('#board svg:not([data-turned])').waitFor();
  check(await page.locator('#board svg[data-turned]').count() === 0, 'the phone turned to landscape: the board is drawn unturned again');
  await page.close();
}

function launch(profile) {
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

async function main() {
  const profile = mkdtempSync(join(tmpdir(), 'ordo-e2e-'));
  const context = await launch(profile);
  const problems = [];
  // The static site judges in the browser: it never asks for the API.
  const apiRequests = [];
  context.on('request', (r) => { if (new URL(r.url()).pathname.includes('/api/')) apiRequests.push(r.url()); });
  console.log(`e2e: the ${KIND} page at ${BASE}`);
  try {
    await disputeAndShare(context, problems);
    await ordoXTwoSteps(context);
    await ordoXTie(context);
    await keyboardOnly(context);
    await smallDefects(context);
    await endgameValues(context);
    await phoneScreenshot(context);
    if (KIND === 'static' && process.env.ORDO_SITE_DIR) await openedFromDisk(context);
    check(problems.length === 0, `no page errors${problems.length ? ': ' + problems.join('; ') : ''}`);
    if (KIND === 'remote') {
      const own = apiRequests.filter((u) => u.startsWith(BASE));
      check(apiRequests.length > 0 && own.length === 0, `the --api page asks the other server (${apiRequests.length} requests, none to its own host)`);
    } else if (KIND === 'static') {
      check(apiRequests.length === 0, `the static page asked no server for an answer${apiRequests.length ? ': ' + apiRequests[0] : ''}`);
    } else {
      check(apiRequests.length > 0, `the served page asks the API (${apiRequests.length} requests)`);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().then(
  () => { console.log(`e2e: ${passed} passed, 0 failed`); },
  (e) => {
    console.error(`e2e: FAILED: ${e.message}`);
    console.log(`e2e: ${passed} passed, 1 failed`);
    process.exit(1);
  },
);
