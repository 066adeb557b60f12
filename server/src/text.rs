//! Text from people (names, titles, chat): trimmed, and cleaned of the characters that show
//! nothing or turn the text around them.

use fipsen_protocol::{ErrorCode, MAX_NAME_CHARS};

/// Checks a player's name: 1 to 32 characters once trimmed, with at least one visible
/// character and no control, invisible or text-direction characters (which could make one
/// name look like another, or turn the text around it).
pub fn clean_name(name: &str) -> Result<String, ErrorCode> {
    let name = name.trim();
    let count = name.chars().count();
    if count == 0
        || count > MAX_NAME_CHARS
        || name.chars().any(|c| c.is_control() || is_invisible(c))
        || !name.chars().any(|c| !c.is_whitespace())
    {
        return Err(ErrorCode::NameInvalid);
    }
    // Runs of spaces would make two names look alike.
    Ok(name.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Free text from a person (chat, titles): control, invisible and text-direction characters
/// removed, line breaks and tabs turned into spaces, trimmed.
pub fn clean_text(text: &str) -> String {
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() || is_invisible(c) => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_string()
}

/// Characters that show nothing or change the direction of the text around them: Unicode's
/// format characters (zero-width spaces and joiners, direction marks, embeddings, overrides
/// and isolates, the byte-order mark, tags) and the blank fillers that look like nothing.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}
