//! kmd-iface (being written).
