//! The proof-obligation queue: obligations are kept in an arena (so that an engine can link an
//! obligation to the one it leads to, for its counterexample) and scheduled by level, lowest
//! first. An obligation can be scheduled again (at the same level after its predecessor was
//! queued, at a higher level after it was blocked).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The id of an obligation in a [`Queue`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ObId(u32);

impl ObId {
    /// The position of the obligation in its queue's arena (ids are given in order from 0).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How obligations of the same level are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Fewest steps to a goal first, then the one scheduled at its level first (PDR).
    Shallowest,
    /// The one scheduled at its level last first: a depth-first search toward the initial
    /// states (IC3CFA).
    Newest,
}

struct Entry<T> {
    item: T,
    depth: usize,
    level: usize,
    seq: u64,
}

/// Proof obligations of type `T` (see the module doc).
pub struct Queue<T> {
    entries: Vec<Entry<T>>,
    heap: BinaryHeap<Reverse<(usize, u64, u64, ObId)>>,
    order: Order,
    next_seq: u64,
}

impl<T> Queue<T> {
    /// An empty queue.
    pub fn new(order: Order) -> Self {
        Queue {
            entries: Vec::new(),
            heap: BinaryHeap::new(),
            order,
            next_seq: 0,
        }
    }

    /// Adds an obligation `depth` steps from a goal and schedules it at `level`.
    pub fn add(&mut self, item: T, level: usize, depth: usize) -> ObId {
        let id = ObId(u32::try_from(self.entries.len()).expect("fewer than 2^32 obligations"));
        self.entries.push(Entry {
            item,
            depth,
            level,
            seq: self.next_seq,
        });
        self.next_seq += 1;
        self.push(id);
        id
    }

    /// Schedules obligation `id` again at `level`. At a level above the one it had, it comes
    /// after the obligations scheduled there before; at its own level or below, it keeps its
    /// place.
    pub fn schedule(&mut self, id: ObId, level: usize) {
        let e = &mut self.entries[id.0 as usize];
        if level > e.level {
            e.seq = self.next_seq;
            self.next_seq += 1;
        }
        e.level = level;
        self.push(id);
    }

    fn push(&mut self, id: ObId) {
        let e = &self.entries[id.0 as usize];
        let (a, b) = match self.order {
            Order::Shallowest => (e.depth as u64, e.seq),
            Order::Newest => (0, u64::MAX - e.seq),
        };
        self.heap.push(Reverse((e.level, a, b, id)));
    }

    /// The next obligation and its level.
    pub fn pop(&mut self) -> Option<(ObId, usize)> {
        self.heap
            .pop()
            .map(|Reverse((level, _, _, id))| (id, level))
    }

    /// The obligation `id`.
    pub fn get(&self, id: ObId) -> &T {
        &self.entries[id.0 as usize].item
    }

    /// The obligation `id`, to change.
    pub fn get_mut(&mut self, id: ObId) -> &mut T {
        &mut self.entries[id.0 as usize].item
    }

    /// How many steps obligation `id` is from a goal.
    pub fn depth(&self, id: ObId) -> usize {
        self.entries[id.0 as usize].depth
    }

    /// Every obligation with its id and the level it was last scheduled at, in the order they
    /// were added.
    pub fn iter(&self) -> impl Iterator<Item = (ObId, &T, usize)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| (ObId(i as u32), &e.item, e.level))
    }

    /// How many obligations were added.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no obligation was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(q: &mut Queue<char>) -> Vec<(char, usize)> {
        std::iter::from_fn(|| q.pop().map(|(id, l)| (*q.get(id), l))).collect()
    }

    #[test]
    fn lowest_level_first_then_the_policy() {
        for (order, want) in [
            (Order::Shallowest, ['b', 'c', 'd', 'a']),
            (Order::Newest, ['b', 'd', 'c', 'a']),
        ] {
            let mut q = Queue::new(order);
            q.add('a', 3, 0);
            q.add('b', 1, 2);
            q.add('c', 2, 0);
            q.add('d', 2, 1);
            let got: Vec<char> = drain(&mut q).into_iter().map(|(c, _)| c).collect();
            assert_eq!(got, want, "{order:?}");
        }
    }

    #[test]
    fn rescheduling_higher_goes_behind_and_retrying_keeps_the_place() {
        let mut q = Queue::new(Order::Shallowest);
        let a = q.add('a', 1, 0);
        q.add('b', 2, 0);
        assert_eq!(q.pop(), Some((a, 1)));
        q.schedule(a, 2);
        assert_eq!(drain(&mut q), vec![('b', 2), ('a', 2)]);
        let c = q.add('c', 2, 0);
        q.add('d', 2, 0);
        assert_eq!(q.pop(), Some((c, 2)));
        q.schedule(c, 2);
        assert_eq!(q.pop(), Some((c, 2)));
        assert_eq!(q.depth(c), 0);
        assert_eq!(q.len(), 4);
    }
}
