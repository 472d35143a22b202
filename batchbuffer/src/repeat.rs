//! Open-ended trailing groups (genxml `<group count="0">`), such as MI_LOAD_REGISTER_IMM's extra
//! (register, value) pairs: a fixed-capacity list, so packets stay `Copy` and packing allocates
//! nothing.

use crate::codec::Packet;
use crate::layout::{Kind, Layout, Loc};
use crate::value::{FieldValue, Problem};
use platform::Platform;
use std::fmt;

/// Up to `N` elements of a trailing group, in order.
#[derive(Clone, Copy)]
pub struct Repeat<T, const N: usize> {
    len: usize,
    items: [T; N],
}

impl<T: Copy + Default, const N: usize> Repeat<T, N> {
    /// The most elements the packet's DWord Length can announce.
    pub const CAPACITY: usize = N;

    /// The group holding `items`, or `None` when there are more than [`Self::CAPACITY`].
    pub fn from_slice(items: &[T]) -> Option<Self> {
        let mut r = Self::default();
        r.items.get_mut(..items.len())?.copy_from_slice(items);
        r.len = items.len();
        Some(r)
    }

    /// Appends `item`; gives it back when the group is full.
    pub fn push(&mut self, item: T) -> Result<(), T> {
        let slot = self.items.get_mut(self.len).ok_or(item)?;
        *slot = item;
        self.len += 1;
        Ok(())
    }
}

impl<T, const N: usize> Repeat<T, N> {
    /// The elements.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
    /// How many elements there are.
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when the group is empty (the packet has its base length).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: Copy + Default, const N: usize> Default for Repeat<T, N> {
    fn default() -> Self {
        Repeat {
            len: 0,
            items: [T::default(); N],
        }
    }
}

impl<T: PartialEq, const N: usize> PartialEq for Repeat<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Eq, const N: usize> Eq for Repeat<T, N> {}

impl<T: fmt::Debug, const N: usize> fmt::Debug for Repeat<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Dwords per element: the group's `loc` spans exactly one element.
fn stride(loc: Loc) -> usize {
    (loc.width() / 32).max(1) as usize
}

impl<T: Packet + Copy + Default + PartialEq, const N: usize> FieldValue for Repeat<T, N> {
    const NESTED: Option<&'static Layout> = Some(T::LAYOUT);

    fn put(&self, p: Platform, _: Kind, loc: Loc, dw: &mut [u32]) -> Result<(), Problem> {
        let step = stride(loc);
        for (k, item) in self.as_slice().iter().enumerate() {
            let at = loc.dw as usize + k * step;
            let out = dw.get_mut(at..).unwrap_or(&mut []);
            item.pack(p, out).map_err(Problem::Inner)?;
        }
        Ok(())
    }

    /// Reads every element from `loc.dw` to the end of `dw` (the packet, cut to the length its
    /// header announces).
    fn get(p: Platform, _: Kind, loc: Loc, dw: &[u32]) -> Result<Self, Problem> {
        let step = stride(loc);
        let tail = dw.get(loc.dw as usize..).unwrap_or(&[]);
        if !tail.len().is_multiple_of(step) {
            return Err(Problem::PartialElement(tail.len(), step));
        }
        if tail.len() / step > N {
            return Err(Problem::TooManyElements(tail.len() / step, N));
        }
        let mut r = Self::default();
        for (slot, chunk) in r.items.iter_mut().zip(tail.chunks_exact(step)) {
            *slot = T::unpack(p, chunk).map_err(Problem::Inner)?;
        }
        r.len = tail.len() / step;
        Ok(r)
    }
}
