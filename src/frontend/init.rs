//! Initialiser lists (C11 6.7.9): which element of an array each initialiser of a
//! brace-enclosed list initialises.
//!
//! The rules followed, as gcc implements them:
//! - a brace-enclosed list initialises the next subobject as a whole (p17, p20): its elements
//!   from its first, or, for a scalar, the scalar (`{ {2} }`, a braced scalar);
//! - an initialiser that is not a brace-enclosed list, met where an aggregate is next, starts
//!   *brace elision* (p20): the aggregate takes as many initialisers from the same list as it
//!   has elements (recursively), and the rest go on to the next subobject of the enclosing
//!   aggregate — so `int m[3][3] = {1, {2}, 3}` sets `m[0] = {1, 2, 3}`;
//! - a character array may be initialised by a string literal, optionally in braces (p14);
//! - a designation `[i]` (p17, p18) sets the position in the aggregate of the innermost
//!   *braced* list (an elided level gives the item back to its parent); `[i][j]` descends into
//!   element `i` as an elided level starting at `j`; the list goes on after the designated
//!   element, at the level of the last designator;
//! - an element initialised twice keeps the last initialiser, and a brace-enclosed list for a
//!   subaggregate overrides every earlier initialiser of its elements (p19; gcc agrees: in
//!   `{2, -1, [0] = {[1] = 4}}` the first row is `{0, 4}`); an overridden initialiser with
//!   side effects is `unsupported` (C leaves open whether its effects happen); excess
//!   initialisers, which gcc drops with a warning, are an error.
//!
//! The planner only reads types and syntax; it returns the elements (flat, row-major offsets of
//! scalars) and the expressions that initialise them, in list order, for the caller to lower.

use super::builder::Lower;
use super::expr::has_side_effects;
use super::repr::InitPart;
use super::structs::scalars;
use super::types::{CType, IntKind};
use super::FrontendError;
use lang_c::ast::{Designator, Expression, Initializer, InitializerListItem};
use lang_c::span::{Node, Span};

/// The plan of an initialiser list.
#[derive(Debug, Default)]
pub struct InitPlan<'a> {
    /// The parts in list order (the order their expressions are evaluated in).
    pub parts: Vec<InitPart<'a>>,
    /// The number of elements of the outermost array the list reaches (its length when the
    /// declaration leaves it out).
    pub top_len: u64,
    /// The subaggregates initialised by a brace-enclosed list as a whole: before which part,
    /// and their flat offset and number of scalars (each overrides what earlier initialisers
    /// gave any of its elements, C11 6.7.9p19: the elements it does not name are zero).
    covers: Vec<(usize, u64, u64)>,
}

/// The element at position `pos` of an aggregate (an array or a structure): its type and
/// flat offset from the aggregate's start; `None` past its end.
fn element(ty: &CType, pos: u64) -> Option<(CType, u64)> {
    match ty {
        CType::Array(e, n) => n
            .is_none_or(|n| pos < n)
            .then(|| ((**e).clone(), pos.saturating_mul(scalars(e)))),
        CType::Struct(s) => {
            let m = s.0.members.get(usize::try_from(pos).ok()?)?;
            let off = s.0.members[..pos as usize]
                .iter()
                .map(|m| scalars(&m.ty))
                .sum();
            Some((m.ty.clone(), off))
        }
        _ => None,
    }
}

fn is_aggregate(ty: &CType) -> bool {
    matches!(ty, CType::Array(..) | CType::Struct(_))
}

fn is_string_literal(e: &Node<Expression>) -> bool {
    matches!(e.node, Expression::StringLiteral(_))
}

fn is_char_array(ty: &CType) -> bool {
    matches!(ty, CType::Array(e, _) if matches!(**e, CType::Int(i) if i.kind == IntKind::Char))
}

/// The cursor of one list: its items, the next one to take, and whether that one's
/// designation has been applied already (an elided level then takes it as positioned).
struct Cursor<'a> {
    items: &'a [Node<InitializerListItem>],
    next: usize,
    designated: bool,
}

impl Cursor<'_> {
    fn advance(&mut self) {
        self.next += 1;
        self.designated = false;
    }
}

impl<'a> Lower<'a> {
    /// Plans the initialisation of an array of type `ty` (its outermost length may be unknown)
    /// by the brace-enclosed list `items`.
    pub fn plan_init<'x>(
        &mut self,
        ty: &CType,
        items: &'x [Node<InitializerListItem>],
        span: Span,
    ) -> Result<InitPlan<'x>, FrontendError> {
        let mut plan = InitPlan::default();
        plan.top_len = self.braced(ty, 0, items, span, &mut plan)?;
        // A structure initialised by an expression and then in part by a later initialiser:
        // gcc then drops the expression's value for the whole structure, which C11 6.7.9p19
        // leaves in doubt.
        for (i, p) in plan.parts.iter().enumerate() {
            let InitPart::Struct { offset, len, expr } = p else {
                continue;
            };
            let (lo, hi) = (*offset, offset + len);
            let later_part = plan.parts[i + 1..].iter().any(|q| {
                let n = match q {
                    InitPart::Scalar { .. } => 1,
                    InitPart::String { len, .. } | InitPart::Struct { len, .. } => *len,
                };
                q.offset() < hi && lo < q.offset() + n
            });
            let later_cover = plan
                .covers
                .iter()
                .any(|&(at, o, n)| at > i && o < hi && lo < o + n && !(o <= lo && hi <= o + n));
            if later_part || later_cover {
                return self.unsupported(
                    expr.span,
                    "a structure initialised by an expression and in part by a later initialiser",
                );
            }
        }
        // An element initialised twice keeps its last initialiser; a braced list for an
        // aggregate overrides every earlier initialiser of its elements.
        let mut last = std::collections::HashMap::new();
        let mut covers = plan.covers.iter().peekable();
        for (i, p) in plan.parts.iter().enumerate() {
            while let Some(&(_, o, n)) = covers.next_if(|c| c.0 <= i) {
                for x in o..o + n {
                    last.remove(&x);
                }
            }
            let len = match p {
                InitPart::Scalar { .. } => 1,
                InitPart::String { len, .. } | InitPart::Struct { len, .. } => *len,
            };
            for o in p.offset()..p.offset() + len {
                last.insert(o, i);
            }
        }
        for &(_, o, n) in covers {
            for x in o..o + n {
                last.remove(&x);
            }
        }
        let winners: std::collections::HashSet<usize> = last.into_values().collect();
        let mut keep = Vec::with_capacity(plan.parts.len());
        for (i, p) in plan.parts.iter().enumerate() {
            if winners.contains(&i) {
                keep.push(*p);
            } else if has_side_effects(&p.expr().node) {
                return self
                    .unsupported(p.expr().span, "an overridden initialiser with side effects");
            }
        }
        plan.parts = keep;
        Ok(plan)
    }

    /// Takes items from `cur` for the aggregate `ty` at flat `offset`: all of a braced list
    /// (`braced`), or, under brace elision, as many as the aggregate has elements. `start`
    /// holds designators that position the first item inside it. Returns how many elements
    /// of `ty` were reached.
    fn fill<'x>(
        &mut self,
        ty: &CType,
        offset: u64,
        cur: &mut Cursor<'x>,
        braced: bool,
        start: &'x [Node<Designator>],
        plan: &mut InitPlan<'x>,
    ) -> Result<u64, FrontendError> {
        if !is_aggregate(ty) {
            return Err(FrontendError::Internal(
                "initialiser list planned for a scalar".into(),
            ));
        }
        let mut pos: u64 = 0;
        let mut reached: u64 = 0;
        let mut designators = start;
        while let Some(item) = cur.items.get(cur.next) {
            if designators.is_empty() && !item.node.designation.is_empty() && !cur.designated {
                if !braced {
                    // The designation belongs to the list of the enclosing braces.
                    break;
                }
                designators = &item.node.designation;
                cur.designated = true;
            }
            if let Some((d, rest)) = designators.split_first() {
                pos = self.designated_position(ty, d)?;
                designators = rest;
            }
            let Some((elem, rel)) = element(ty, pos) else {
                if braced {
                    return self.error(item.span, "excess elements in initialiser");
                }
                break;
            };
            let at = offset + rel;
            if !designators.is_empty() {
                // `[i][j] = …`, `.a.b = …`: element `i` continues as an elided level.
                if !is_aggregate(&elem) {
                    return self.error(item.span, "designator for a scalar element");
                }
                let ds = std::mem::take(&mut designators);
                self.fill(&elem, at, cur, false, ds, plan)?;
            } else {
                self.element(&elem, at, cur, item, plan)?;
            }
            pos += 1;
            reached = reached.max(pos);
            if let CType::Struct(u) = ty {
                if u.0.union {
                    // A union takes one initialiser; only a designator names another member.
                    pos = u.0.members.len() as u64;
                }
            }
        }
        Ok(reached)
    }

    /// Element `elem` at `at` from the list's current item `item`, undesignated or at the
    /// end of its designation: a braced list, a string for a character array, a structure
    /// as a whole, a scalar, or (brace elision) an aggregate that takes items from this list.
    fn element<'x>(
        &mut self,
        elem: &CType,
        at: u64,
        cur: &mut Cursor<'x>,
        item: &'x Node<InitializerListItem>,
        plan: &mut InitPlan<'x>,
    ) -> Result<(), FrontendError> {
        match &item.node.initializer.node {
            Initializer::List(sub) => {
                cur.advance();
                self.braced(elem, at, sub, item.span, plan)?;
            }
            Initializer::Expression(e) if is_string_literal(e) && is_char_array(elem) => {
                cur.advance();
                plan.parts.push(InitPart::String {
                    offset: at,
                    len: scalars(elem),
                    expr: e,
                });
            }
            Initializer::Expression(e) if self.is_struct_of_type(e, elem)? => {
                // A structure initialised by an expression of its type, as a whole.
                cur.advance();
                plan.parts.push(InitPart::Struct {
                    offset: at,
                    len: scalars(elem),
                    expr: e,
                });
            }
            Initializer::Expression(_) if is_aggregate(elem) => {
                // Brace elision: the element takes items from this list.
                let before = cur.next;
                self.fill(elem, at, cur, false, &[], plan)?;
                if cur.next == before {
                    return Err(FrontendError::Internal(
                        "brace elision took no initialiser".into(),
                    ));
                }
            }
            Initializer::Expression(e) => {
                cur.advance();
                plan.parts.push(InitPart::Scalar {
                    offset: at,
                    expr: e,
                });
            }
        }
        Ok(())
    }

    /// Whether `e` is an expression of the structure type `ty` (not evaluated).
    fn is_struct_of_type(
        &mut self,
        e: &Node<Expression>,
        ty: &CType,
    ) -> Result<bool, FrontendError> {
        if !matches!(ty, CType::Struct(_)) {
            return Ok(false);
        }
        Ok(self.type_of(e)? == *ty)
    }

    /// A brace-enclosed list `items` initialising the object `ty` at flat `offset`; returns
    /// how many elements of an array it reaches (of a string literal, its length with the
    /// terminating null character).
    fn braced<'x>(
        &mut self,
        ty: &CType,
        offset: u64,
        items: &'x [Node<InitializerListItem>],
        span: Span,
        plan: &mut InitPlan<'x>,
    ) -> Result<u64, FrontendError> {
        match ty {
            CType::Array(..) | CType::Struct(_) => {
                plan.covers.push((plan.parts.len(), offset, scalars(ty)));
                // `char s[4] = {"abc"}`: a string literal in braces.
                if let [one] = items {
                    if let Initializer::Expression(e) = &one.node.initializer.node {
                        if one.node.designation.is_empty()
                            && is_string_literal(e)
                            && is_char_array(ty)
                        {
                            plan.parts.push(InitPart::String {
                                offset,
                                len: scalars(ty),
                                expr: e,
                            });
                            return match &e.node {
                                Expression::StringLiteral(s) => {
                                    match super::literal::string_bytes(&s.node) {
                                        Some(b) => Ok(b.len() as u64 + 1),
                                        None => self.unsupported(
                                            e.span,
                                            "wide or non-ASCII string literal",
                                        ),
                                    }
                                }
                                _ => Ok(1),
                            };
                        }
                    }
                }
                let mut cur = Cursor {
                    items,
                    next: 0,
                    designated: false,
                };
                self.fill(ty, offset, &mut cur, true, &[], plan)
            }
            // A braced scalar: exactly one initialiser, without designation.
            _ => match items {
                [one] if one.node.designation.is_empty() => match &one.node.initializer.node {
                    Initializer::Expression(e) => {
                        plan.parts.push(InitPart::Scalar { offset, expr: e });
                        Ok(1)
                    }
                    Initializer::List(sub) => self.braced(ty, offset, sub, one.span, plan),
                },
                [] => self.error(span, "empty braces for a scalar"),
                [_, extra, ..] => self.error(extra.span, "excess elements in scalar initialiser"),
                [one] => self.error(one.span, "designator for a scalar"),
            },
        }
    }

    /// The position a designator names in the aggregate `ty`: an array index or a member.
    fn designated_position(
        &mut self,
        ty: &CType,
        d: &Node<Designator>,
    ) -> Result<u64, FrontendError> {
        match (&d.node, ty) {
            (Designator::Index(e), CType::Array(..)) => {
                let v = self.const_int(e)?;
                u64::try_from(v).or_else(|_| self.error(e.span, "negative array designator"))
            }
            (Designator::Member(id), CType::Struct(s)) => {
                let name = &id.node.name;
                if let Some(k) =
                    s.0.members
                        .iter()
                        .position(|m| m.name.as_ref() == Some(name))
                {
                    return Ok(k as u64);
                }
                let nested = s.0.members.iter().any(|m| {
                    m.name.is_none() && matches!(&m.ty, CType::Struct(i) if i.0.members.iter().any(|x| x.name.as_ref() == Some(name)))
                });
                if nested {
                    self.unsupported(
                        d.span,
                        format!("designator `.{name}` of a member of an anonymous structure"),
                    )
                } else {
                    self.error(
                        d.span,
                        format!("`{}` has no member named `{name}`", ty.describe()),
                    )
                }
            }
            (Designator::Range(_), _) => self.unsupported(d.span, "designator range `[a ... b]`"),
            (Designator::Index(_), _) => self.error(d.span, "array designator for a structure"),
            (Designator::Member(_), _) => self.error(d.span, "member designator for an array"),
        }
    }
}
