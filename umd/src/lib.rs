//! umd (being written).
