// The prompt vocabulary in JavaScript (lib.mjs's promptGroups) lists, for prompts recorded from
// every game by the rules crate's test (prompt-fixtures.json, covering every key of every game),
// exactly the actions the Rust vocabulary lists. No page is opened.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROMPT_KEYS, canonicalJson, promptActions, promptGroups } from './lib.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = JSON.parse(readFileSync(join(here, 'prompt-fixtures.json'), 'utf8'));

test('the JavaScript helper lists what the rules crate lists, for recorded prompts of every game', () => {
  const games = new Set();
  const keys = new Set();
  for (const { game, prompt, hand, offered } of fixtures) {
    games.add(game);
    for (const g of promptGroups(prompt, hand)) keys.add(g.key);
    const listed = promptActions(prompt, hand).map(canonicalJson);
    assert.deepEqual([...listed].sort(), offered.map(canonicalJson).sort(), `${game}: ${JSON.stringify(prompt)}`);
    assert.equal(new Set(listed).size, listed.length, 'each action once');
  }
  assert.equal(games.size, 7, `every game recorded: ${[...games]}`);
  assert.deepEqual([...keys].sort(), PROMPT_KEYS.map((k) => k.key).sort(), 'every key of the vocabulary met');
});

test('a key the vocabulary does not know is refused, and panels can leave out the hand', () => {
  assert.throws(() => promptGroups({ jump: true }), /not in the vocabulary/);
  const prompt = { pass: true, bids: [{ kind: 'tricks', tricks: 2 }], cards: ['CA'], discard: 2 };
  assert.deepEqual(promptActions(prompt, ['C7', 'S8'], { except: ['cards', 'discard'] }), [
    { action: 'bid', bid: { kind: 'tricks', tricks: 2 } },
    { action: 'pass' },
  ]);
  assert.deepEqual(promptActions({ discard: 2 }, ['C7', 'S8', 'H9']).length, 3);
  assert.deepEqual(promptActions({ discard: 2 }, null), [], 'no hand, no discard');
});
