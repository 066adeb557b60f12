//! The table options of Tippen / Dreiblatt (§D10) and the parameters each preset fixes (§D2).

use serde::{Deserialize, Serialize};

use crate::card::{Pack, Rank};
use crate::options::RuleSetError;
use crate::trick::VoidPolicy;

/// The rule sets of the sources (§D2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenPreset"))]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Three cards (1821): the dealer's last card, dealt face up, makes trumps.
    #[serde(rename = "drei_karten_1821")]
    DreiKarten1821,
    /// Loup (1821): six cards, a stake of six.
    #[serde(rename = "loup_1821")]
    Loup1821,
    /// Dreiblatt (1859): trump lead, the Daus rule, robbing, hop and jump, sniffing.
    #[serde(rename = "dreiblatt_1859")]
    Dreiblatt1859,
    /// Meyers (1905): a void player must trump.
    #[serde(rename = "meyers_1905")]
    Meyers1905,
    /// The modern rules after Grupp (default): head the trick, the bête is the stake, an
    /// exchange of up to three cards.
    #[default]
    ModernGrupp,
    /// The modern rules after Katira: the trump card is dealt between the rounds.
    ModernKatira,
    /// Vierblatt: four cards, a stake of four, the 1859 rules.
    Vierblatt,
}

/// Sniffing (§D3 step 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenSniffing"))]
#[serde(rename_all = "snake_case")]
pub enum Sniffing {
    /// No sniffing (default).
    #[default]
    Off,
    /// The trump card is turned for all and taken by the dealer, who may then drop out (1859).
    Alvensleben,
    /// The dealer takes the trump card unseen and must play (modern presets).
    Grupp,
}

/// The card of the Daus rule (§D6, §D11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenDausCard"))]
#[serde(rename_all = "snake_case")]
pub enum DausCard {
    /// The ace of trumps (default).
    #[default]
    Ace,
    /// The two of trumps (52-card tables only).
    Two,
}

impl DausCard {
    /// The rank of the Daus.
    pub const fn rank(self) -> Rank {
        match self {
            DausCard::Ace => Rank::Ace,
            DausCard::Two => Rank::Two,
        }
    }
}

/// The most the middle (pot and reserve) holds unless the table chooses otherwise: a multiple of
/// every hand size, so that a pot played for at the limit gives whole shares.
pub const DEFAULT_MAX_POT: u32 = 1_200;

/// The range a table may choose for `max_pot`. The upper end keeps every payment of a deal, and
/// every balance of a series however long, far inside the counters' range.
pub const MAX_POT_RANGE: (u32, u32) = (12, 1_000_000);

/// A Tippen table's options (§D10).
///
/// ```json
/// {"preset": "modern_grupp", "players": 4, "max_bete": null, "max_pot": 1200, "tipp_zwang": false,
///  "shoving": false, "knocking": false, "sniffing": "off", "robbing": false,
///  "hop_and_jump": false, "daus_card": "ace", "exchange_max": null, "deals": null}
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "TippenRules"))]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// The rule set (default `modern_grupp`).
    pub preset: Preset,
    /// How many players (default 4; the range depends on the preset).
    pub players: u8,
    /// The most a deal is played for; the excess waits in the reserve (a multiple of the hand
    /// size; default none).
    pub max_bete: Option<u32>,
    /// The most the middle — pot and reserve together — ever holds (default 1,200; 12 to
    /// 1,000,000). An ante, a drop-out stake, a bête or a penalty that would lift the middle
    /// above it is cut to what fits; the payments of one settlement are cut together, each in
    /// the same proportion rounded down, and the counters the rounding leaves over (fewer than
    /// the payers) are paid one each by the payers in turn from forehand, so that the middle is
    /// then exactly full. Without it a bête equal to the pot multiplies the pot deal after deal
    /// at a big table.
    pub max_pot: u32,
    /// Everyone must play while the pot holds the stake only (modern presets; default off).
    pub tipp_zwang: bool,
    /// The dealer may pass the deal on before dealing (modern presets; default off).
    pub shoving: bool,
    /// The dealer may take the trump card unseen before seeing his hand (modern presets;
    /// default off).
    pub knocking: bool,
    /// The dealer may take the trump card after seeing his hand (default off).
    pub sniffing: Sniffing,
    /// The holder of the seven of trumps may exchange it for the trump card (1859; default off).
    pub robbing: bool,
    /// An ace or a seven at the bottom of the pack passes the deal on (1859; default off).
    pub hop_and_jump: bool,
    /// The card the winner of the first trick must lead (1859, Vierblatt; default ace).
    pub daus_card: DausCard,
    /// Vierblatt's exchange: up to this many cards, 0 to 4 (default 0).
    pub exchange_max: Option<u8>,
    /// How many deals the series lasts; `None` is open-ended (default).
    pub deals: Option<u32>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::preset(Preset::ModernGrupp, 4)
    }
}

/// How the trump card is found (§D2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrumpKind {
    /// The dealer's own last card, dealt to him face up (1821).
    DealersLast,
    /// The card after this many rounds of one card each; the rest of the rounds follow.
    Between(u8),
}

/// What a preset fixes, with the options applied (§D2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Params {
    pub(crate) pack: Pack,
    pub(crate) hand: u8,
    pub(crate) stake: i32,
    pub(crate) trump: TrumpKind,
    /// Everyone must play while the pot holds the stake only.
    pub(crate) must_play: bool,
    /// The bête is the stake (Grupp), not the pot played for.
    pub(crate) bete_is_stake: bool,
    pub(crate) head: bool,
    pub(crate) void: VoidPolicy,
    /// The first lead must be a trump with three or more active players.
    pub(crate) trump_lead: bool,
    /// The winner of the first trick must lead the Daus of trumps if he holds it.
    pub(crate) daus: Option<Rank>,
    /// Cards each active player may exchange.
    pub(crate) exchange: u8,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 7] = [
        Preset::DreiKarten1821,
        Preset::Loup1821,
        Preset::Dreiblatt1859,
        Preset::Meyers1905,
        Preset::ModernGrupp,
        Preset::ModernKatira,
        Preset::Vierblatt,
    ];

    /// The preset's id, as in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            Preset::DreiKarten1821 => "drei_karten_1821",
            Preset::Loup1821 => "loup_1821",
            Preset::Dreiblatt1859 => "dreiblatt_1859",
            Preset::Meyers1905 => "meyers_1905",
            Preset::ModernGrupp => "modern_grupp",
            Preset::ModernKatira => "modern_katira",
            Preset::Vierblatt => "vierblatt",
        }
    }

    /// The fewest and most players with the 32-card pack, and with the 52-card pack if the
    /// preset plays it (§D2, §D11.13).
    pub const fn player_range(self) -> (u8, u8) {
        match self {
            Preset::DreiKarten1821 | Preset::ModernGrupp | Preset::ModernKatira => (3, 6),
            Preset::Loup1821 => (3, 5),
            Preset::Dreiblatt1859 | Preset::Meyers1905 => (2, 10),
            Preset::Vierblatt => (3, 10),
        }
    }

    /// The hand size h.
    pub const fn hand_size(self) -> u8 {
        match self {
            Preset::Loup1821 => 6,
            Preset::Vierblatt => 4,
            _ => 3,
        }
    }

    /// The stake k.
    pub const fn stake(self) -> i32 {
        match self {
            Preset::Loup1821 => 6,
            Preset::Vierblatt => 4,
            _ => 3,
        }
    }

    const fn modern(self) -> bool {
        matches!(self, Preset::ModernGrupp | Preset::ModernKatira)
    }

    const fn has_lead_rules(self) -> bool {
        matches!(self, Preset::Dreiblatt1859 | Preset::Vierblatt)
    }
}

impl Rules {
    /// A preset's table with its defaults for `players`.
    pub const fn preset(preset: Preset, players: u8) -> Rules {
        Rules {
            preset,
            players,
            max_bete: None,
            max_pot: DEFAULT_MAX_POT,
            tipp_zwang: false,
            shoving: false,
            knocking: false,
            sniffing: Sniffing::Off,
            robbing: false,
            hop_and_jump: false,
            daus_card: DausCard::Ace,
            exchange_max: None,
            deals: None,
        }
    }

    /// Checks the options that their types alone cannot (§D10).
    ///
    /// # Errors
    /// [`RuleSetError`] names the option: a player count outside the preset's range, an option
    /// the preset does not offer, a `max_bete` that is not a positive multiple of the hand
    /// size, a `max_pot` outside [`MAX_POT_RANGE`], an `exchange_max` above 4, the two as Daus
    /// without the 52-card pack, no deals.
    pub fn validate(&self) -> Result<(), RuleSetError> {
        let p = self.preset;
        let (min, max) = p.player_range();
        if !(min..=max).contains(&self.players) {
            return Err(RuleSetError::PlayerCount { players: self.players, min, max });
        }
        let not_offered = |option: &'static str| RuleSetError::OptionNotOffered { option, preset: p.id() };
        if self.tipp_zwang && !p.modern() {
            return Err(not_offered("tipp_zwang"));
        }
        if self.shoving && !p.modern() {
            return Err(not_offered("shoving"));
        }
        if self.knocking && !p.modern() {
            return Err(not_offered("knocking"));
        }
        match self.sniffing {
            Sniffing::Off => {}
            Sniffing::Alvensleben if p == Preset::Dreiblatt1859 => {}
            Sniffing::Grupp if p.modern() => {}
            Sniffing::Alvensleben => return Err(not_offered("sniffing alvensleben")),
            Sniffing::Grupp => return Err(not_offered("sniffing grupp")),
        }
        if self.robbing && p != Preset::Dreiblatt1859 {
            return Err(not_offered("robbing"));
        }
        if self.hop_and_jump && p != Preset::Dreiblatt1859 {
            return Err(not_offered("hop_and_jump"));
        }
        if self.daus_card != DausCard::Ace {
            if !p.has_lead_rules() {
                return Err(not_offered("daus_card"));
            }
            if self.pack() != Pack::P52 {
                return Err(RuleSetError::DausTwoNeedsTwos);
            }
        }
        if let Some(n) = self.exchange_max {
            if p != Preset::Vierblatt {
                return Err(not_offered("exchange_max"));
            }
            if n > 4 {
                return Err(RuleSetError::ExchangeMax(n));
            }
        }
        if let Some(m) = self.max_bete {
            let h = u32::from(p.hand_size());
            if m == 0 || !m.is_multiple_of(h) {
                return Err(RuleSetError::MaxBete { max_bete: m, hand: p.hand_size() });
            }
        }
        let (low, high) = MAX_POT_RANGE;
        if !(low..=high).contains(&self.max_pot) {
            return Err(RuleSetError::MaxPot { max_pot: self.max_pot, min: low, max: high });
        }
        if self.deals == Some(0) {
            return Err(RuleSetError::NoDeals);
        }
        Ok(())
    }

    /// The pack: 32 cards up to six players, 52 from seven.
    pub const fn pack(&self) -> Pack {
        if self.players >= 7 { Pack::P52 } else { Pack::P32 }
    }

    /// The parameters the preset fixes, with the options applied.
    pub(crate) fn params(&self) -> Params {
        let p = self.preset;
        let (head, void) = match p {
            Preset::Meyers1905 => (false, VoidPolicy::MustTrump),
            Preset::ModernGrupp | Preset::ModernKatira => (true, VoidPolicy::OvertrumpElseFree),
            _ => (false, VoidPolicy::TrumpIfUntrumped),
        };
        let trump = match p {
            Preset::DreiKarten1821 | Preset::Loup1821 => TrumpKind::DealersLast,
            Preset::ModernKatira | Preset::Vierblatt => TrumpKind::Between(2),
            _ => TrumpKind::Between(p.hand_size()),
        };
        let must_play = match p {
            Preset::ModernGrupp | Preset::ModernKatira => self.tipp_zwang,
            Preset::Dreiblatt1859 => !self.hop_and_jump,
            _ => true,
        };
        Params {
            pack: self.pack(),
            hand: p.hand_size(),
            stake: p.stake(),
            trump,
            must_play,
            bete_is_stake: p == Preset::ModernGrupp,
            head,
            void,
            trump_lead: p.has_lead_rules(),
            daus: p.has_lead_rules().then_some(self.daus_card.rank()),
            exchange: match p {
                Preset::ModernGrupp | Preset::ModernKatira => 3,
                Preset::Vierblatt => self.exchange_max.unwrap_or(0),
                _ => 0,
            },
        }
    }
}
