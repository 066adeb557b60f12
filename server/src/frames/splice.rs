//! A game view serialised with the parts every viewer shares written once per change.
//!
//! A deal view holds, beside each seat's own fields (its hand, what it may do), fields every
//! viewer sees alike: the rules, the auction, the tricks, the contract. [`Splicer`] passes a view
//! to a serializer unchanged, except for the deal's fields named as shared for its game: the
//! first view of a change writes each such field's JSON and keeps it ([`SharedParts`]); every
//! later view of the same change writes the kept JSON in its place instead of serialising the
//! field again. The output is the bytes the plain serialisation gives, as long as the fields
//! named are in fact the same for every viewer (a test holds this over series of every game
//! played by bots, for every viewer).

use std::cell::{Cell, RefCell};

use fipsen_rules::GameId;
use serde::ser::{self, Serialize, Serializer};
use serde_json::value::RawValue;

/// The deal's fields every viewer of `game` sees alike: a seat's own hand, its prompt, the
/// cards shown to some seats only (skat, stock, discards, a Kieker's hand) and the seat the view
/// is for are not among them. A field not named here is serialised for each viewer.
pub fn shared_fields(game: GameId) -> &'static [&'static str] {
    // The lists name the fields that are large or costly to write (the rules, the auction, the
    // tricks, the outcome); a small number is written as quickly as it is looked up.
    match game {
        GameId::Prisdorf | GameId::Grossenaspe | GameId::Anseggerfips | GameId::Duttfips => &[
            "rules",
            "hand_sizes",
            "calls",
            "contract",
            "game",
            "tricks",
            "trick",
            "tricks_taken",
            "outcome",
            "scores",
            "reveal",
        ],
        GameId::Thedinghausen => &[
            "rules",
            "hand_sizes",
            "passed",
            "fipsen",
            "tricks",
            "trick",
            "tricks_taken",
            "counts",
            "outcome",
            "scores",
            "reveal",
        ],
        GameId::Tippen => &[
            "rules",
            "hand_sizes",
            "shoves",
            "hops",
            "decisions",
            "active",
            "exchanges",
            "tricks",
            "trick",
            "tricks_taken",
            "carry",
            "scores",
            "outcome",
            "reveal",
        ],
        GameId::Wippen => {
            &["rules", "hand_sizes", "table", "captured", "sweeps", "moves", "outcome", "scores", "reveal"]
        }
    }
}

/// The JSON of the shared fields of one change's deal view, written by the first view
/// serialised and copied into the others.
#[derive(Debug, Default)]
pub struct SharedParts {
    /// The deal's shared fields' names, for the table's game.
    names: &'static [&'static str],
    /// Their JSON, once the first view is written.
    fields: RefCell<Vec<(&'static str, Box<RawValue>)>>,
    /// Whether the fields were written (by the first view).
    filled: Cell<bool>,
}

impl SharedParts {
    /// Empty parts for a change of a table of `game` (`None` before a series: nothing shared).
    pub fn for_game(game: Option<GameId>) -> SharedParts {
        SharedParts {
            names: game.map_or(&[], shared_fields),
            fields: RefCell::new(Vec::new()),
            filled: Cell::new(false),
        }
    }

    /// Whether no field's JSON is kept (none written yet, or none shared).
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.fields.borrow().is_empty()
    }
}

/// A view to serialise with its deal's shared fields written once: the first view given a
/// [`SharedParts`] fills it, the later ones copy from it.
pub struct Spliced<'a, T: ?Sized> {
    view: &'a T,
    parts: &'a SharedParts,
}

impl<'a, T: ?Sized> Spliced<'a, T> {
    /// `view` (a [`fipsen_rules::GameView`] or a game's series view), with the change's parts.
    pub fn new(view: &'a T, parts: &'a SharedParts) -> Spliced<'a, T> {
        Spliced { view, parts }
    }
}

impl<T: Serialize + ?Sized> Serialize for Spliced<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.parts.names.is_empty() {
            return self.view.serialize(serializer);
        }
        let filling = !self.parts.filled.get();
        let result = self.view.serialize(Splicer {
            inner: serializer,
            level: Level::Series,
            shared: self.parts.names,
            parts: self.parts,
            filling,
        });
        if filling && result.is_ok() {
            self.parts.filled.set(true);
        }
        result
    }
}

/// Where in the view a serializer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// The series view: its `deal` is the deal view.
    Series,
    /// The deal view: its shared fields are spliced.
    Deal,
}

/// A serializer that passes everything to `inner`, splicing the shared fields of the deal.
struct Splicer<'a, S> {
    inner: S,
    level: Level,
    shared: &'static [&'static str],
    parts: &'a SharedParts,
    filling: bool,
}

/// A struct being serialised at a level of the view.
struct SpliceStruct<'a, C> {
    inner: C,
    level: Level,
    shared: &'static [&'static str],
    parts: &'a SharedParts,
    filling: bool,
}

/// The deal view, to be serialised at the deal's level.
struct DealValue<'a, T: ?Sized> {
    value: &'a T,
    shared: &'static [&'static str],
    parts: &'a SharedParts,
    filling: bool,
}

impl<T: Serialize + ?Sized> Serialize for DealValue<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Splicer {
            inner: serializer,
            level: Level::Deal,
            shared: self.shared,
            parts: self.parts,
            filling: self.filling,
        })
    }
}

impl<C: ser::SerializeStruct> ser::SerializeStruct for SpliceStruct<'_, C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), C::Error> {
        match self.level {
            Level::Series if key == "deal" => self.inner.serialize_field(
                key,
                &DealValue { value, shared: self.shared, parts: self.parts, filling: self.filling },
            ),
            Level::Deal if self.shared.contains(&key) => {
                if self.filling {
                    let raw = serde_json::value::to_raw_value(value).map_err(ser::Error::custom)?;
                    self.inner.serialize_field(key, &*raw)?;
                    self.parts.fields.borrow_mut().push((key, raw));
                    Ok(())
                } else {
                    let fields = self.parts.fields.borrow();
                    match fields.iter().find(|(name, _)| *name == key) {
                        Some((_, raw)) => self.inner.serialize_field(key, &**raw),
                        // Not written by the first view (skipped there): written here.
                        None => self.inner.serialize_field(key, value),
                    }
                }
            }
            _ => self.inner.serialize_field(key, value),
        }
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
        self.inner.skip_field(key)
    }

    fn end(self) -> Result<C::Ok, C::Error> {
        self.inner.end()
    }
}

impl<'a, S: Serializer> Serializer for Splicer<'a, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = S::SerializeSeq;
    type SerializeTuple = S::SerializeTuple;
    type SerializeTupleStruct = S::SerializeTupleStruct;
    type SerializeTupleVariant = S::SerializeTupleVariant;
    type SerializeMap = S::SerializeMap;
    type SerializeStruct = SpliceStruct<'a, S::SerializeStruct>;
    type SerializeStructVariant = S::SerializeStructVariant;

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct, S::Error> {
        Ok(SpliceStruct {
            inner: self.inner.serialize_struct(name, len)?,
            level: self.level,
            shared: self.shared,
            parts: self.parts,
            filling: self.filling,
        })
    }

    fn serialize_bool(self, v: bool) -> Result<S::Ok, S::Error> {
        self.inner.serialize_bool(v)
    }
    fn serialize_i8(self, v: i8) -> Result<S::Ok, S::Error> {
        self.inner.serialize_i8(v)
    }
    fn serialize_i16(self, v: i16) -> Result<S::Ok, S::Error> {
        self.inner.serialize_i16(v)
    }
    fn serialize_i32(self, v: i32) -> Result<S::Ok, S::Error> {
        self.inner.serialize_i32(v)
    }
    fn serialize_i64(self, v: i64) -> Result<S::Ok, S::Error> {
        self.inner.serialize_i64(v)
    }
    fn serialize_i128(self, v: i128) -> Result<S::Ok, S::Error> {
        self.inner.serialize_i128(v)
    }
    fn serialize_u8(self, v: u8) -> Result<S::Ok, S::Error> {
        self.inner.serialize_u8(v)
    }
    fn serialize_u16(self, v: u16) -> Result<S::Ok, S::Error> {
        self.inner.serialize_u16(v)
    }
    fn serialize_u32(self, v: u32) -> Result<S::Ok, S::Error> {
        self.inner.serialize_u32(v)
    }
    fn serialize_u64(self, v: u64) -> Result<S::Ok, S::Error> {
        self.inner.serialize_u64(v)
    }
    fn serialize_u128(self, v: u128) -> Result<S::Ok, S::Error> {
        self.inner.serialize_u128(v)
    }
    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        self.inner.serialize_f32(v)
    }
    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        self.inner.serialize_f64(v)
    }
    fn serialize_char(self, v: char) -> Result<S::Ok, S::Error> {
        self.inner.serialize_char(v)
    }
    fn serialize_str(self, v: &str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_str(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<S::Ok, S::Error> {
        self.inner.serialize_bytes(v)
    }
    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_none()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        match self.level {
            // An optional deal: its fields are spliced all the same.
            Level::Deal => self.inner.serialize_some(&DealValue {
                value,
                shared: self.shared,
                parts: self.parts,
                filling: self.filling,
            }),
            Level::Series => self.inner.serialize_some(value),
        }
    }
    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit()
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_struct(name)
    }
    fn serialize_unit_variant(self, name: &'static str, index: u32, variant: &'static str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_variant(name, index, variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        self.inner.serialize_newtype_struct(name, value)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner.serialize_newtype_variant(name, index, variant, value)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<S::SerializeSeq, S::Error> {
        self.inner.serialize_seq(len)
    }
    fn serialize_tuple(self, len: usize) -> Result<S::SerializeTuple, S::Error> {
        self.inner.serialize_tuple(len)
    }
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<S::SerializeTupleStruct, S::Error> {
        self.inner.serialize_tuple_struct(name, len)
    }
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<S::SerializeTupleVariant, S::Error> {
        self.inner.serialize_tuple_variant(name, index, variant, len)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<S::SerializeMap, S::Error> {
        self.inner.serialize_map(len)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<S::SerializeStructVariant, S::Error> {
        self.inner.serialize_struct_variant(name, index, variant, len)
    }
    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}
