// The master seed of the fixed-seed server (`--insecure-fixed-seed`, started by harness.mjs) and
// what its first deals hold, so the tests can play chosen situations. The seed was found with
//
//   cargo run -p fipsen-rules --example find_seed -- 4 kieker-win 4 durch 3 fips
//
// (the example prints the seed, then each deal and how seat 0 wins it). Every new room on that
// server gets the same first deal; seat 3 (or 2) deals, so seat 0 is Vorhand and leads first.
// The tests check each hand as shown against these lists first: if the dealing ever changes,
// they say so, and the command above finds a new seed.

export const SEED = '91cf398d1154d246e24bb96fa691d6d8cd441cec5de5ecbd9018b780e188589b';

/** The first deal at four. */
export const FOUR = {
  dealt: [
    ['C7', 'C10', 'CA', 'SA', 'H7'],
    ['CQ', 'S9', 'H10', 'HJ', 'HK'],
    ['C9', 'S8', 'SJ', 'SQ', 'H8'],
    ['CK', 'S10', 'SK', 'HA', 'D7'],
  ],
  skat: ['CJ', 'S7'],
  stock: ['C8', 'H9', 'HQ'],
  /** Seat 0 bids Kieker, keeps five clubs and leads them from the top: CA draws every trump. */
  kieker: { layAway: ['S7', 'SA', 'H7', 'H9', 'HQ'], trumps: 'clubs', leads: ['CA', 'CJ', 'C10', 'C8', 'C7'] },
  /** Seat 0 bids 3, takes the skat, lays away two and takes every trick led this way. */
  durch: { layAway: ['S7', 'H7'], trumps: 'clubs', leads: ['CA', 'CJ', 'C10', 'C7', 'SA'] },
};

/** The first deal at three: seat 0 holds a Siebener Fips (and no court card, so may bid Kieker). */
export const THREE = {
  dealt: [
    ['C7', 'CA', 'S7', 'H7', 'D7'],
    ['C10', 'CJ', 'CQ', 'S9', 'H10'],
    ['S8', 'SQ', 'SA', 'H8', 'HK'],
  ],
  skat: ['SK', 'HA'],
  stock: ['C8', 'C9', 'CK', 'S10', 'SJ', 'H9', 'HJ', 'HQ'],
};
