//! Work-item walk orders inside a work group: which local-ID dimension varies fastest when
//! the group's work items are laid out over hardware threads and their lanes.
//!
//! COMPUTE_WALKER's Walk Order codes name the ranks of x, y and z (0 = fastest); the orders
//! below are the same six written as dimensions fastest first, the form a kernel's required
//! order (zebin `work_group_walk_order_dimensions`) takes. Index = the field's value (NEO's
//! `HwWalkOrderHelper::compatibleDimensionOrders`, whose comments give the rank codes).

use crate::packets::WalkOrder;

/// Dimensions fastest first, per Walk Order value 0–5.
const ORDERS: [(WalkOrder, [u8; 3]); 6] = [
    (WalkOrder::Walk012, [0, 1, 2]),
    (WalkOrder::Walk021, [0, 2, 1]),
    (WalkOrder::Walk102, [1, 0, 2]),
    (WalkOrder::Walk120, [2, 0, 1]),
    (WalkOrder::Walk201, [1, 2, 0]),
    (WalkOrder::Walk210, [2, 1, 0]),
];

/// The walk's dimensions, fastest first.
pub fn walk_dims(w: WalkOrder) -> [u8; 3] {
    ORDERS
        .iter()
        .find(|(o, _)| *o == w)
        .map_or([0, 1, 2], |(_, d)| *d)
}

/// The walk order whose dimensions, fastest first, are `dims` (a permutation of 0, 1, 2).
pub fn walk_order_of(dims: [u8; 3]) -> Option<WalkOrder> {
    ORDERS.iter().find(|(_, d)| *d == dims).map(|(o, _)| *o)
}

/// All six orders in Walk Order field order.
pub fn walk_orders() -> impl Iterator<Item = WalkOrder> {
    ORDERS.iter().map(|(o, _)| *o)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rank code's digits are the ranks of x, y, z: inverting dims-fastest-first must give
    /// the digits in the variant's name.
    #[test]
    fn orders_invert_to_their_rank_codes() {
        for (o, dims) in ORDERS {
            let mut ranks = [0u8; 3];
            for (rank, d) in dims.iter().enumerate() {
                ranks[*d as usize] = rank as u8;
            }
            let name = format!("{o:?}");
            let want = format!("Walk{}{}{}", ranks[0], ranks[1], ranks[2]);
            assert_eq!(name, want);
            assert_eq!(walk_order_of(dims), Some(o));
        }
        assert_eq!(walk_order_of([0, 0, 1]), None);
    }
}
