// Checks of the client's files that need no browser: generated protocol types are current, the
// client type-checks against them, and every word and every error code has a text in German,
// English and Japanese.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { generate, OUTPUT_PATH, SCHEMA_PATH } from './gen-protocol-types.mjs';

// i18n.js touches the browser's storage only when a language is chosen: give it a stand-in.
globalThis.localStorage ??= /** @type {any} */ ({ getItem: () => null, setItem: () => {} });
globalThis.document ??= /** @type {any} */ ({ documentElement: {} });
const { LANGS, addStrings, missingKeys, has, setLang, t } = await import('../../client-web/js/i18n.js');
// The games' own words join the client's through the registry of games.
const { GAMES } = await import('../../client-web/js/games/index.js');

test('the protocol typedefs are generated from the current JSON Schema', () => {
  const expected = generate(readFileSync(SCHEMA_PATH, 'utf8'));
  assert.equal(readFileSync(OUTPUT_PATH, 'utf8'), expected, 'run node tests/browser/gen-protocol-types.mjs');
});

test('no text says "1" with a plural noun in English or German', async () => {
  // Every key of the client's words (its own and the games'), read from their files.
  const files = ['i18n.js', ...['analysis', 'announce', 'reviews', 'series', 'tournament'].map((f) => `${f}-strings.js`)].map((f) => `../../client-web/js/${f}`);
  for (const g of readdirSync(new URL('../../client-web/js/games/', import.meta.url))) if (g.endsWith('-strings.js')) files.push(`../../client-web/js/games/${g}`);
  // The pages' words (the tournament's, the series page's…) join the client's as their modules load.
  for (const f of files.filter((f) => f.endsWith('-strings.js'))) addStrings((await import(f)).strings);
  const keys = new Set(files.flatMap((f) => [...readFileSync(new URL(f, import.meta.url), 'utf8').matchAll(/^\s*'([\w.]+)': /gm)].map((m) => m[1])));
  const values = { n: 1, name: 'Anna', a: 'Anna', b: 'Bea', cards: '♣A', card: '♣A', pot: 5, stake: 1, paid: 1, amount: 1, total: 1, i: 1, deal: 1, deals: 1, s: 1 };
  const plural = { en: /\b1 (cards|tricks|deals|moves|points|counters|players|seats)\b/, de: /\b1 (Karten|Stiche|Spiele|Züge|Punkte|Zähler|Plätze)\b/ };
  const wrong = [];
  for (const lang of /** @type {const} */ (['en', 'de'])) {
    setLang(lang);
    for (const key of keys) {
      if (key.endsWith('.one') || !has(key)) continue;
      const text = t(key, values);
      if (plural[lang].test(text)) wrong.push(`${lang}:${key}: ${text}`);
    }
  }
  setLang('en');
  assert.deepEqual(wrong, []);
});

test('every text exists in every language', () => {
  assert.deepEqual(missingKeys(), []);
  assert.deepEqual(LANGS, ['de', 'en', 'ja']);
});

test('a count of one takes the singular where the language has one', () => {
  setLang('en');
  assert.equal(t('room.waiting', { n: 1 }), 'Waiting for one more player…');
  assert.equal(t('room.waiting', { n: 2 }), 'Waiting for 2 more players…');
  setLang('de');
  assert.equal(t('away.others', { n: 1 }), 'Die anderen haben einen Zug gemacht.');
  assert.equal(t('away.others', { n: 3 }), 'Die anderen haben 3 Züge gemacht.');
  // One watcher "schaut zu", several "schauen zu" (the lobby, the room and the table's bar).
  assert.equal(t('room.spectators', { n: 1 }), '1 schaut zu');
  assert.equal(t('room.spectators', { n: 2 }), '2 schauen zu');
  assert.equal(t('home.lobby_watchers', { n: 1 }), '1 schaut zu');
  setLang('ja');
  assert.equal(t('room.waiting', { n: 1 }), 'あと 1 人を待っています…', 'no singular in Japanese: the one text, not the English singular');
  setLang('en');
});

test('every game offers the whole game interface, and its words in every language', async () => {
  const { OPTIONAL, REQUIRED } = await import('../../client-web/js/games/interface.js');
  // The shared screens find every member; a module names nothing beyond the interface (an
  // optional part misspelt would otherwise never be asked for).
  const whole = [...REQUIRED, ...Object.keys(OPTIONAL)].sort();
  assert.ok(Object.keys(GAMES).length >= 2);
  for (const [id, game] of Object.entries(GAMES)) {
    assert.equal(game.id, id);
    assert.deepEqual(Object.keys(game).sort(), whole, `${id} offers the game interface and nothing else`);
    // A game whose move is chosen in steps (Wippen) brings the parts of that choice, all of them.
    if (game.handPicks) for (const part of ['answer', 'pickCard', 'pickedCard']) assert.notEqual(game[part], OPTIONAL[part], `${id} chooses its moves in steps: its own ${part}`);
    // A singular (`<key>.one`) is optional: a language without it uses the one text.
    const keys = LANGS.map((lang) =>
      Object.keys(game.strings[lang] ?? {})
        .filter((k) => !k.endsWith('.one'))
        .sort(),
    );
    for (const [i, lang] of LANGS.entries()) assert.deepEqual(keys[i], keys[0], `${id}: the same words in ${lang} as in ${LANGS[0]}`);
  }
});

test('a game module without a required part is refused, and its optional parts are the common case', async () => {
  const { OPTIONAL, REQUIRED, withDefaults } = await import('../../client-web/js/games/interface.js');
  const { points, suitName } = await import('../../client-web/js/format.js');
  const required = Object.fromEntries(REQUIRED.map((key) => [key, GAMES.prisdorf[key]]));
  for (const key of REQUIRED) {
    assert.throws(() => withDefaults({ ...required, [key]: undefined }), new RegExp(`lacks ${key}\\b`), `without ${key}`);
  }
  const bare = withDefaults(required);
  assert.deepEqual(Object.keys(bare).sort(), [...REQUIRED, ...Object.keys(OPTIONAL)].sort());
  setLang('en');
  // The table's own bar, the trick in the middle, the shared sheet; no auction, trumps or chips.
  for (const part of ['tableBar', 'centreExtra', 'centreShown', 'sheetHead', 'sheetBody', 'sheetFoot', 'auctionPile', 'trumps']) assert.equal(bare[part]({}, {}), null, part);
  for (const part of ['seatChips', 'pickedUp', 'revealZones', 'gameTerms', 'inviteFacts']) assert.deepEqual(bare[part]({}, 0), [], part);
  for (const part of ['bidText', 'callText', 'contractText', 'gameText', 'resultWord']) assert.equal(bare[part]({}), '', part);
  assert.equal(bare.gameValue({ tricks: 3 }), 0);
  assert.equal(bare.sheetGame({}), '—');
  assert.equal(bare.trumpsName('diamonds'), suitName('diamonds'));
  assert.notEqual(GAMES.prisdorf.trumpsName('diamonds'), bare.trumpsName('diamonds'), 'Prisdorf names diamonds Ruten');
  assert.equal(bare.forehand({ forehand: 2, vorhand: 1 }), 2);
  assert.deepEqual(bare.forehandWords, GAMES.grossenaspe.forehandWords);
  assert.equal(bare.lengthText({ deals: 12 }), t('invite.deals', { n: 12 }));
  assert.equal(bare.lengthText({}), t('invite.deals_open'));
  assert.equal(bare.totalText(-24), points(-24));
  assert.equal(bare.handPicks, false);
  assert.equal(bare.pickedCard('HA'), false);
  assert.deepEqual(bare.strings, {});
  // A module's own part wins over the common case.
  assert.equal(GAMES.prisdorf.forehand({ forehand: 2, vorhand: 1 }), 1);
});

test('English names the player left of the dealer "Forehand" in every game, German "Vorhand"', () => {
  for (const [lang, word] of [
    ['en', 'Forehand'],
    ['de', 'Vorhand'],
  ]) {
    setLang(/** @type {any} */ (lang));
    for (const [id, module] of Object.entries(GAMES)) {
      if (!module.forehandWords) continue;
      const [chip, term] = module.forehandWords;
      assert.equal(t(chip), word, `${id}: the seat's chip in ${lang}`);
      assert.equal(t(`term.${term}`), word, `${id}: the term explained in ${lang}`);
      assert.ok(!t(`term.${term}.text`).includes(lang === 'en' ? 'Vorhand' : 'Forehand'), `${id}: the explanation in ${lang}`);
    }
  }
  setLang('en');
  assert.equal(t('opt.first_lead.forehand'), 'Forehand', 'Prisdorf\'s form');
  assert.doesNotMatch(t('opt.first_lead.help'), /Vorhand/);
});

test('the tournament pages have every word in every language', async () => {
  const { strings } = await import('../../client-web/js/tournament-strings.js');
  // A singular (`<key>.one`) is optional (Japanese has none); every other word is in every language.
  const keys = LANGS.map((lang) =>
    Object.keys(strings[lang] ?? {})
      .filter((k) => !k.endsWith('.one'))
      .sort(),
  );
  assert.ok(keys[0].length > 50, 'the tournament pages have their words');
  for (const [i, lang] of LANGS.entries()) assert.deepEqual(keys[i], keys[0], `the same tournament words in ${lang} as in ${LANGS[0]}`);
});

test('every error code the server may send has a readable message in every language', () => {
  const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));
  const error = schema.$defs.ServerMessage.oneOf.find((m) => m.properties?.type?.const === 'error');
  const codes = error.properties.code.enum;
  assert.ok(codes.length > 40, 'the schema lists the error codes');
  for (const lang of LANGS) {
    setLang(lang);
    const missing = codes.filter((code) => !has(`err.${code}`));
    assert.deepEqual(missing, [], `error messages missing in ${lang}`);
  }
});

test('the client type-checks against the protocol types (tsc --checkJs)', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.client.json'], { cwd: import.meta.dirname, encoding: 'utf8' });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
});
