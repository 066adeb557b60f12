// The client's application of an update's patches (client-web/js/patch.js), without a browser:
// each kind of patch, the old state left as it was, and a patch that does not fit refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyPatches } from '../../client-web/js/patch.js';

const before = () => ({
  room: { room: 'abc', turn: { seat: 1, waited_ms: 20 }, seats: [{ connected: true }, { connected: true }] },
  game: { number: 3, scoresheet: [{ number: 1 }, { number: 2 }], deal: { trick: [], turn: 1 } },
});

test('set, append and unset change what they name and nothing else', () => {
  const old = before();
  const kept = JSON.parse(JSON.stringify(old));
  const now = applyPatches(old, [
    { op: 'set', path: ['room', 'seats', 1, 'connected'], value: false },
    { op: 'append', path: ['game', 'scoresheet'], values: [{ number: 3 }] },
    { op: 'append', path: ['game', 'deal', 'trick'], values: [{ seat: 1, card: 'HA' }] },
    { op: 'set', path: ['game', 'deal', 'turn'], value: 2 },
    { op: 'unset', path: ['room', 'turn'] },
    { op: 'set', path: ['room', 'next_deal_in_ms'], value: 5000 },
  ]);
  assert.deepEqual(now, {
    room: { room: 'abc', seats: [{ connected: true }, { connected: false }], next_deal_in_ms: 5000 },
    game: { number: 3, scoresheet: [{ number: 1 }, { number: 2 }, { number: 3 }], deal: { trick: [{ seat: 1, card: 'HA' }], turn: 2 } },
  });
  // The state given is left as it was; the parts no patch touched are shared.
  assert.deepEqual(old, kept);
  assert.equal(now.room.seats[0], old.room.seats[0]);
  assert.notEqual(now.game, old.game);
});

test('a whole part, or the whole state, is replaced by set', () => {
  const now = applyPatches(before(), [{ op: 'set', path: ['game'], value: null }]);
  assert.equal(now.game, null);
  const whole = applyPatches(before(), [{ op: 'set', path: [], value: { room: { room: 'x' }, game: null } }]);
  assert.deepEqual(whole, { room: { room: 'x' }, game: null });
});

test('a patch whose path leads nowhere is refused', () => {
  assert.throws(() => applyPatches(before(), [{ op: 'set', path: ['game', 'nothing', 'here'], value: 1 }]));
  assert.throws(() => applyPatches(before(), [{ op: 'append', path: ['room', 'room'], values: [1] }]));
  assert.throws(() => applyPatches(before(), [{ op: 'set', path: ['room', 'seats', 5], value: {} }]));
  assert.throws(() => applyPatches(before(), [{ op: 'unset', path: ['room', 'seats', 0] }]));
});
