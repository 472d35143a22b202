//! batchbuffer (being written).
