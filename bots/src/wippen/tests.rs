//! Tests of the Wippen bots.
