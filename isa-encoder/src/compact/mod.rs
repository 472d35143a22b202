//! Compaction tables and the compact <-> native bit mapping (being written).
