// The card faces as the client draws them: the spade reads as a spade at small sizes and upside
// down (its lobes end high above a stem with a broad foot, unlike a heart turned over). Each
// suit's outline is measured in the sprite the page installs; the hand and a small card are
// screenshot for review in artifacts/.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, assertNoConsoleErrors, launch, openClient, screenshot } from './lib.mjs';

let chrome;
before(async () => {
  chrome = await launch();
});
after(async () => {
  await chrome?.close();
});

/** How wide the filled part of a suit's outline is along a row of its 100 × 100 box. */
function widths(page, suit, rows) {
  return page.evaluate(
    ([suit, rows]) => {
      const path = /** @type {SVGPathElement} */ (document.querySelector(`symbol#suit-${suit} path`));
      return rows.map((y) => {
        let filled = 0;
        for (let x = 0.25; x < 100; x += 0.5) filled += path.isPointInFill(new DOMPoint(x, y)) ? 0.5 : 0;
        return filled;
      });
    },
    [suit, rows],
  );
}

test('a spade is no heart turned over: its stem shows below the lobes, on a broad foot', async () => {
  const me = await openClient(chrome, 'pips', PHONE, 'en');
  // Below three quarters of its height a spade is all stem: a third of its width at most.
  const [lobes, neck, foot] = await widths(me.page, 'S', [60, 80, 96]);
  assert.ok(lobes > 70, `the lobes are wide: ${lobes}`);
  assert.ok(neck <= 33, `a stem, not lobes, at 80 % of the height: ${neck}`);
  assert.ok(foot >= 40, `a broad foot: ${foot}`);

  // For review: small cards with spades and hearts side by side.
  await me.page.evaluate(() => {
    const row = document.createElement('div');
    row.id = 'pip-review';
    row.style.cssText = 'position:fixed;inset:0;background:#fff;display:flex;flex-wrap:wrap;gap:6px;padding:10px;z-index:99';
    for (const width of [24, 36, 54]) {
      for (const code of ['S9', 'H9', 'S7', 'H7', 'SA', 'HA']) {
        const use = `<svg viewBox="0 0 100 150" width="${width}" style="color:${code[0] === "H" ? "#c62828" : "#111"}"><rect x="1.5" y="1.5" width="97" height="147" rx="8" fill="#fff" stroke="#888"/><use href="#suit-${code[0]}" x="10" y="30" width="80" height="80" transform="${code[1] === '9' ? 'rotate(180 50 70)' : ''}"/></svg>`;
        row.insertAdjacentHTML('beforeend', use);
      }
    }
    document.body.append(row);
  });
  await screenshot(me, 'phone-pips');
  assertNoConsoleErrors([me]);
  await me.context.close();
});
