//! Statistics of a run as typed values: counters, means, durations, before/after pairs.
//!
//! An engine (and the preprocessing and invariant search around it) reports what it did as a
//! [`Stats`]: named [`Value`]s in the order they should be shown. `-v` prints each as
//! `name: value`; `--json` writes counters and times as numbers and pairs as objects, so that a
//! program reads them without parsing text; the tests read counters by name ([`Stats::count`]).

use std::borrow::Cow;
use std::fmt;
use std::time::Duration;

/// One statistic's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// How many times something happened, or how many things there are.
    Count(u64),
    /// A mean or a rate, shown with `digits` decimals; `None` when it is undefined (a mean of
    /// nothing).
    Real { value: Option<f64>, digits: u8 },
    /// Time spent.
    Time(Duration),
    /// A size before and after a transformation.
    Change { before: u64, after: u64 },
    /// Whether something happened.
    Flag(bool),
    /// Anything else, as text (a member's answer, a kind of loading).
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Count(n) => write!(f, "{n}"),
            Value::Real { value: None, .. } => f.write_str("-"),
            Value::Real {
                value: Some(x),
                digits,
            } => write!(f, "{x:.*}", *digits as usize),
            Value::Time(d) => {
                let s = d.as_secs_f64();
                // Short times keep their microseconds (the time of one kind of query).
                let digits = if s < 0.1 { 6 } else { 3 };
                write!(f, "{s:.digits$} s")
            }
            Value::Change { before, after } => write!(f, "{before} -> {after}"),
            Value::Flag(b) => f.write_str(if *b { "yes" } else { "no" }),
            Value::Text(t) => f.write_str(t),
        }
    }
}

/// One named statistic.
#[derive(Clone, Debug, PartialEq)]
pub struct Stat {
    pub name: Cow<'static, str>,
    pub value: Value,
}

/// The statistics of a run, in the order they should be shown. Built by chaining:
/// `Stats::new().count("SAT calls", n).time("time", t)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    items: Vec<Stat>,
}

/// A counter from any unsigned size.
fn count_of(n: impl TryInto<u64>) -> u64 {
    n.try_into().unwrap_or(u64::MAX)
}

impl Stats {
    pub fn new() -> Stats {
        Stats::default()
    }

    /// Adds `name` with `value`.
    pub fn push(&mut self, name: impl Into<Cow<'static, str>>, value: Value) -> &mut Stats {
        self.items.push(Stat {
            name: name.into(),
            value,
        });
        self
    }

    /// Adds a counter.
    pub fn counter(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        n: impl TryInto<u64>,
    ) -> &mut Stats {
        self.push(name, Value::Count(count_of(n)))
    }

    /// Adds the mean of `total` over `n` things (undefined when `n` is 0).
    pub fn mean(&mut self, name: &'static str, total: f64, n: usize, digits: u8) -> &mut Stats {
        let value = (n > 0).then(|| total / n as f64);
        self.push(name, Value::Real { value, digits })
    }

    /// Adds a rate or another real number.
    pub fn real(&mut self, name: &'static str, x: f64, digits: u8) -> &mut Stats {
        self.push(
            name,
            Value::Real {
                value: Some(x),
                digits,
            },
        )
    }

    /// Adds a time.
    pub fn time(&mut self, name: &'static str, d: Duration) -> &mut Stats {
        self.push(name, Value::Time(d))
    }

    /// Adds a size before and after.
    pub fn change(
        &mut self,
        name: &'static str,
        before: impl TryInto<u64>,
        after: impl TryInto<u64>,
    ) -> &mut Stats {
        self.push(
            name,
            Value::Change {
                before: count_of(before),
                after: count_of(after),
            },
        )
    }

    /// Adds a yes/no.
    pub fn flag(&mut self, name: &'static str, b: bool) -> &mut Stats {
        self.push(name, Value::Flag(b))
    }

    /// Adds a text.
    pub fn text(&mut self, name: impl Into<Cow<'static, str>>, t: impl Into<String>) -> &mut Stats {
        self.push(name, Value::Text(t.into()))
    }

    /// Appends `other`'s statistics after these.
    pub fn extend(&mut self, other: Stats) {
        self.items.extend(other.items);
    }

    /// The statistics in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Stat> {
        self.items.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The value of the first statistic called `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.items.iter().find(|s| s.name == name).map(|s| &s.value)
    }

    /// The counter called `name`, if there is one.
    pub fn count(&self, name: &str) -> Option<u64> {
        match self.get(name)? {
            Value::Count(n) => Some(*n),
            _ => None,
        }
    }
}

impl<'a> IntoIterator for &'a Stats {
    type Item = &'a Stat;
    type IntoIter = std::slice::Iter<'a, Stat>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_as_minus_v_shows_them() {
        let mut s = Stats::new();
        s.counter("SAT calls", 12usize)
            .mean("mean lemma size", 7.0, 2, 1)
            .mean("mean of nothing", 0.0, 0, 2)
            .time("time", Duration::from_millis(1500))
            .time("short", Duration::from_micros(1234))
            .change("AND gates", 10u32, 4u32)
            .flag("stopped early", false)
            .text("loading", "whole");
        let shown: Vec<String> = s
            .iter()
            .map(|x| format!("{}: {}", x.name, x.value))
            .collect();
        assert_eq!(
            shown,
            [
                "SAT calls: 12",
                "mean lemma size: 3.5",
                "mean of nothing: -",
                "time: 1.500 s",
                "short: 0.001234 s",
                "AND gates: 10 -> 4",
                "stopped early: no",
                "loading: whole",
            ]
        );
        assert_eq!(s.count("SAT calls"), Some(12));
        assert_eq!(s.count("time"), None, "a time is not a counter");
        assert_eq!(s.count("lemmas"), None);
    }

    #[test]
    fn extend_keeps_the_order() {
        let mut a = Stats::new();
        a.counter("a", 1u8);
        let mut b = Stats::new();
        b.counter("b", 2u8).counter("a", 3u8);
        a.extend(b);
        let names: Vec<&str> = a.iter().map(|s| s.name.as_ref()).collect();
        assert_eq!(names, ["a", "b", "a"]);
        assert_eq!(a.count("a"), Some(1), "the first of a name is read");
    }
}
