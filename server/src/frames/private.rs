//! A seat's game view as the spectators' view with the seat's own fields put in.
//!
//! Of a deal view, only a few fields differ from viewer to viewer: the seat the view is for,
//! its hand, what it may do, and the cards shown to some seats only (a skat, a talon, a
//! declarer's discards, a Kieker's hand). Everything else — the rules, the auction, the tricks,
//! the scores — every viewer sees alike. So the spectators' view is serialised whole once per
//! change (the template), and each seat's state is the template's text with the seat's own
//! fields written in ([`private_fields`], [`own_fields`]), read from a view that need hold only
//! those (`AnyGame::own_view`).
//!
//! The spectators' view holds no hidden card, so a field wrongly left off a game's list would
//! show a seat what the spectators see, never another seat's cards. A test plays series of
//! every game with bots and holds every seat's state so made equal, byte for byte, to its own
//! view serialised whole.

use fipsen_rules::{GameId, GameView};
use serde::ser::{self, Impossible, Serialize, Serializer};

/// The deal's fields of `game` that differ from viewer to viewer: a seat's own, or shown to
/// some seats only; in the order the deal's view writes them (the rules name them).
pub fn private_fields(game: GameId) -> &'static [&'static str] {
    game.own_fields()
}

/// The deal's fields named in `names` (in the order the view writes them) of `view`: their
/// JSON, one after the other, and where each ends in it; `None` if the view does not write
/// every one of them in that order (a field skipped, or no deal found).
pub fn own_fields(view: &GameView, names: &'static [&'static str]) -> Option<Own> {
    let mut written = Written { json: Vec::with_capacity(256), ends: Vec::with_capacity(names.len()) };
    let complete = view.serialize(Capture { level: Level::Series, names, own: &mut written }).ok()?;
    if !complete || written.ends.len() != names.len() {
        return None;
    }
    let json = String::from_utf8(written.json).ok()?.into_boxed_str();
    let mut ends = Vec::with_capacity(names.len());
    for end in written.ends {
        // A field's end lies within the text, on a character's boundary.
        json.get(..end)?;
        ends.push(u32::try_from(end).ok()?);
    }
    Some(Own { names, json, ends: ends.into_boxed_slice() })
}

/// The JSON of a seat's own fields, one after the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Own {
    /// The fields' names, as given to [`own_fields`].
    names: &'static [&'static str],
    json: Box<str>,
    /// Where each field's JSON ends in `json`.
    ends: Box<[u32]>,
}

impl Own {
    /// The JSON of field number `index` (of the names given to [`own_fields`]).
    pub fn field(&self, index: usize) -> Option<&str> {
        let end = *self.ends.get(index)? as usize;
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1] as usize,
        };
        self.json.get(start..end)
    }

    /// Each field's name and JSON.
    pub fn fields(&self) -> Vec<(&'static str, &str)> {
        self.names.iter().enumerate().filter_map(|(i, name)| Some((*name, self.field(i)?))).collect()
    }
}

/// The JSON of the fields captured so far, and where each ends.
struct Written {
    json: Vec<u8>,
    ends: Vec<usize>,
}

/// Where in the view the capture stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Level {
    /// The series view: its `deal` is the deal view.
    Series,
    /// The deal view: its fields named are written.
    Deal,
}

/// A serializer that writes nothing but the JSON of the deal's fields named, in their order;
/// every other value is passed over without being serialised. It answers whether no named
/// field was skipped.
struct Capture<'a> {
    level: Level,
    names: &'static [&'static str],
    own: &'a mut Written,
}

/// Why a capture failed: a field named could not be written.
#[derive(Debug)]
struct Failed(String);

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failed {}

impl ser::Error for Failed {
    fn custom<T: std::fmt::Display>(message: T) -> Failed {
        Failed(message.to_string())
    }
}

/// The members of a struct under capture.
struct CaptureStruct<'a> {
    level: Level,
    names: &'static [&'static str],
    own: &'a mut Written,
    complete: bool,
}

impl ser::SerializeStruct for CaptureStruct<'_> {
    type Ok = bool;
    type Error = Failed;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Failed> {
        match self.level {
            Level::Series if key == "deal" => {
                let own = &mut *self.own;
                self.complete &= value.serialize(Capture { level: Level::Deal, names: self.names, own })?;
            }
            // The names are looked for in their order: one comparison a field.
            Level::Deal if self.names.get(self.own.ends.len()) == Some(&key) => {
                serde_json::to_writer(&mut self.own.json, value).map_err(ser::Error::custom)?;
                self.own.ends.push(self.own.json.len());
            }
            _ => {}
        }
        Ok(())
    }

    fn skip_field(&mut self, key: &'static str) -> Result<(), Failed> {
        if self.level == Level::Deal && self.names.contains(&key) {
            self.complete = false;
        }
        Ok(())
    }

    fn end(self) -> Result<bool, Failed> {
        Ok(self.complete)
    }
}

/// Values other than structs and options are passed over; a deal found inside anything but a
/// struct or an option (a list, a map, an enum's variant) is not one this capture knows.
impl<'a> Serializer for Capture<'a> {
    type Ok = bool;
    type Error = Failed;
    type SerializeSeq = Impossible<bool, Failed>;
    type SerializeTuple = Impossible<bool, Failed>;
    type SerializeTupleStruct = Impossible<bool, Failed>;
    type SerializeTupleVariant = Impossible<bool, Failed>;
    type SerializeMap = Impossible<bool, Failed>;
    type SerializeStruct = CaptureStruct<'a>;
    type SerializeStructVariant = Impossible<bool, Failed>;

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<CaptureStruct<'a>, Failed> {
        Ok(CaptureStruct { level: self.level, names: self.names, own: self.own, complete: true })
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<bool, Failed> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<bool, Failed> {
        value.serialize(self)
    }

    fn serialize_bool(self, _v: bool) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_i8(self, _v: i8) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_i16(self, _v: i16) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_i32(self, _v: i32) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_i64(self, _v: i64) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_u8(self, _v: u8) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_u16(self, _v: u16) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_u32(self, _v: u32) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_u64(self, _v: u64) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_f32(self, _v: f32) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_f64(self, _v: f64) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_char(self, _v: char) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_str(self, _v: &str) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_none(self) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_unit(self) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, _variant: &'static str) -> Result<bool, Failed> {
        Ok(true)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<bool, Failed> {
        Err(Failed("a view inside an enum's variant".into()))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Failed> {
        Err(Failed("a view inside a list".into()))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Failed> {
        Err(Failed("a view inside a tuple".into()))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct, Failed> {
        Err(Failed("a view inside a tuple".into()))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Failed> {
        Err(Failed("a view inside an enum's variant".into()))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Failed> {
        Err(Failed("a view written as a map".into()))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Failed> {
        Err(Failed("a view inside an enum's variant".into()))
    }
}
