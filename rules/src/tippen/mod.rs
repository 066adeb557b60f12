//! Tippen / Dreiblatt (docs/rules/tippen.md §D): a small-hand gambling game of plain tricks for a pot of
//! play-money counters, in seven presets from 1821 to the modern books, for 2 to 10 players.
//!
//! * The dealer antes the stake k into the pot (and may shove the deal on, or hop and jump may
//!   pass it); the hands are dealt one card at a time with a trump card (the next card, or the
//!   1821 dealer's own last card face up), which the dealer may knock or sniff for.
//! * Each player plays or passes (unless everyone must play); a robber exchanges the seven of
//!   trumps for the turned card; the modern presets exchange cards with the talon.
//! * h tricks are played under the preset's follow policy (§0.4) and lead rules (1859: a trump
//!   to the first trick, the Daus to the second); each trick takes a share P / h of the pot
//!   played for, and a player without a trick pays a bête into the next pot.
//!
//! Counters are play money. Σ balances + pot + reserve = 0 after every action.
//!
//! Stakes never grow without bound: the middle (pot and reserve together) holds at most the
//! table's `max_pot` (default 1,200 counters). An ante, a drop-out stake, a bête or a penalty
//! that would lift it higher is cut to what fits — the payments of one settlement are cut
//! together, each in the same proportion rounded down, and the counters the rounding leaves
//! over (fewer than the payers) are paid one each by the payers in turn from forehand, so that
//! the middle is then exactly full — so a bête equal to the pot, which at a big table multiplies the
//! pot deal after deal, stops at the limit. Every balance then moves by a bounded amount a
//! deal, and a series without an end closes its books after the deal that leaves a balance at
//! a billion counters ([`BALANCE_CEILING`]): no counter ever leaves the range it is kept in.
//!
//! [`Series`] is a table's run of deals with its scoresheet; [`Deal`] is one deal, which takes
//! an [`Action`] for a [`Seat`](crate::Seat) and answers with [`Event`]s or a
//! [`RuleError`](crate::RuleError), leaving the state as it was. [`Deal::view`] /
//! [`Series::view`] build what one viewer may see; [`Event::for_viewer`] empties hands,
//! discards, exchanges and trump cards taken unseen for everyone else.

mod deal;
mod engine;
mod event;
mod rules;
mod series;
mod view;

pub use deal::{Action, Carry, Choice, Deal, Decision, Exchange, Hop, Outcome, Phase};
pub use event::{Event, Reveal};
pub use rules::{DEFAULT_MAX_POT, DausCard, MAX_POT_RANGE, Preset, Rules, Sniffing};
pub use series::{BALANCE_CEILING, ScoreRow, Series, SeriesView, first_dealer};
pub use view::{DealView, Prompt};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::Seat;
    use crate::seed::Seed;

    /// Every method the shared `holstein_engine!` macro calls on a series, with its signature.
    #[test]
    fn the_series_offers_what_the_game_interface_needs() {
        let rules = Rules::default();
        assert_eq!(rules.validate(), Ok(()));
        let (mut series, events): (Series, Vec<Event>) = Series::new(rules, Seed::from_u64(1)).expect("valid");
        assert!(!events.is_empty());
        let _: &Rules = series.rules();
        let _: u32 = series.number();
        let seat: Seat = series.deal().turn().expect("someone acts");
        let legal: Vec<Action> = series.legal_actions(seat);
        let _: &'static str = legal[0].kind();
        series.check(seat, legal[0]).expect("listed");
        let _: bool = series.deal().current_trick().is_empty() && series.deal().phase() == Phase::Play;
        let _: bool = series.deal().is_over() || series.is_over();
        let mut view: SeriesView = series.view(Some(seat));
        assert!(!view.deal.prompt.is_empty());
        view.deal.prompt = Prompt::default();
        let redacted: Event = events[0].for_viewer(None);
        let _ = redacted;
        let _: &[i32] = series.totals();
        assert_eq!(series.next_deal(), Err(crate::error::RuleError::DealNotOver));
        let _: Vec<Event> = series.apply(seat, legal[0]).expect("legal");
    }

    #[test]
    fn random_series_of_every_preset_end_and_keep_the_counters_at_zero() {
        let mut x = 7u64;
        let mut rnd = move |n: usize| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((x >> 33) as usize) % n
        };
        for preset in Preset::ALL {
            let (min, max) = preset.player_range();
            for players in min..=max {
                let mut rules = Rules { deals: Some(6), ..Rules::preset(preset, players) };
                match preset {
                    Preset::ModernGrupp | Preset::ModernKatira => {
                        rules.shoving = players % 2 == 0;
                        rules.knocking = players % 3 == 0;
                        rules.sniffing = if players % 2 == 1 { Sniffing::Grupp } else { Sniffing::Off };
                        rules.tipp_zwang = players == 4;
                    }
                    Preset::Dreiblatt1859 => {
                        rules.robbing = true;
                        rules.hop_and_jump = players % 2 == 0;
                        rules.sniffing = if players % 3 == 0 { Sniffing::Alvensleben } else { Sniffing::Off };
                        rules.max_bete = Some(12);
                    }
                    Preset::Vierblatt => rules.exchange_max = Some(players % 5),
                    _ => {}
                }
                rules.validate().unwrap_or_else(|e| panic!("{rules:?}: {e}"));
                let (mut series, _) = Series::new(rules, Seed::from_u64(u64::from(players))).expect("valid");
                let mut steps = 0;
                while !series.is_over() {
                    steps += 1;
                    assert!(steps < 5_000);
                    if series.deal().is_over() {
                        series.next_deal().expect("next");
                        continue;
                    }
                    let seat = series.deal().turn().expect("someone acts");
                    let legal = series.legal_actions(seat);
                    series.apply(seat, legal[rnd(legal.len())]).expect("legal");
                    let sum: i32 = series.totals().iter().sum();
                    assert_eq!(sum + series.pot() + series.reserve(), 0, "{rules:?}");
                }
            }
        }
    }
}
