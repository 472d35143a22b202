//! Send-message descriptors: decoding and building (being written).
