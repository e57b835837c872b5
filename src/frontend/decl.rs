//! Declarations: type specifiers and declarators, typedefs, enumerations, global variables,
//! local variables (with initialisers; uninitialised locals are havocked) and static locals.

use super::attrs::{bare_name, classify, declarator_attributes, spec_attributes, AttrClass};
use super::builder::Lower;
use super::repr::{declaration_key, Binding, Place, RVal, Root, Val, ADDRESS};
use super::types::{CInt, CType, IntKind};
use super::FrontendError;
use crate::cfa::{HavocKind, VarKind};
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// What a declarator declares: its name (if any) and type, and whether it is `noreturn`.
pub type Declared = (Option<(String, Span)>, CType, bool);

/// Storage class of a declaration.
#[derive(Default)]
pub struct Storage {
    pub typedef: bool,
    pub is_static: bool,
    pub is_extern: bool,
    /// `const` among the specifiers (the declared object is read-only unless it is a pointer).
    pub is_const: bool,
    /// `_Noreturn` or `__attribute__((noreturn))` among the specifiers.
    pub noreturn: bool,
}

impl<'a> Lower<'a> {
    /// The storage class and the type of declaration specifiers.
    pub fn decl_specifiers(
        &mut self,
        specs: &[Node<DeclarationSpecifier>],
        span: Span,
    ) -> Result<(Storage, CType), FrontendError> {
        let mut st = Storage::default();
        let mut tys = Vec::new();
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(c) => match c.node {
                    StorageClassSpecifier::Typedef => st.typedef = true,
                    StorageClassSpecifier::Static => st.is_static = true,
                    StorageClassSpecifier::Extern => st.is_extern = true,
                    StorageClassSpecifier::ThreadLocal => {
                        return self.unsupported(c.span, "thread-local storage")
                    }
                    StorageClassSpecifier::Auto | StorageClassSpecifier::Register => {}
                },
                DeclarationSpecifier::TypeSpecifier(t) => tys.push(t),
                DeclarationSpecifier::TypeQualifier(q) => match q.node {
                    TypeQualifier::Atomic => return self.unsupported(q.span, "_Atomic"),
                    TypeQualifier::Const => st.is_const = true,
                    _ => {}
                },
                DeclarationSpecifier::Function(f) => {
                    st.noreturn |= f.node == FunctionSpecifier::Noreturn;
                }
                DeclarationSpecifier::Alignment(_) | DeclarationSpecifier::Extension(_) => {}
            }
        }
        let ty = self.type_specifiers(&tys, span)?;
        // Among the specifiers of a typedef or with a tagged type, an attribute may belong to
        // the type.
        let on_type = st.typedef
            || tys
                .iter()
                .any(|t| matches!(t.node, TypeSpecifier::Enum(_) | TypeSpecifier::Struct(_)));
        let (ty, noreturn) = self.apply_attributes(ty, &spec_attributes(specs), on_type);
        st.noreturn |= noreturn;
        if let CType::Unsupported(_) = ty {
            // `enum e {…} __attribute__((packed))`, `struct __attribute__((packed)) s {…}`:
            // the tag names the changed type.
            for t in &tys {
                let tag = match &t.node {
                    TypeSpecifier::Enum(e) => e
                        .node
                        .identifier
                        .as_ref()
                        .map(|id| format!("enum {}", id.node.name)),
                    TypeSpecifier::Struct(s) if s.node.declarations.is_some() => s
                        .node
                        .identifier
                        .as_ref()
                        .map(|id| format!("struct {}", id.node.name)),
                    _ => None,
                };
                if let Some(tag) = tag {
                    self.bind(&tag, Binding::Typedef(ty.clone()));
                }
            }
        }
        Ok((st, ty))
    }

    /// The type of a type name (in casts and `sizeof`).
    pub fn type_name(&mut self, tn: &Node<TypeName>) -> Result<CType, FrontendError> {
        let mut tys = Vec::new();
        for s in &tn.node.specifiers {
            match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => tys.push(t),
                SpecifierQualifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic => {
                    return self.unsupported(q.span, "_Atomic")
                }
                _ => {}
            }
        }
        let base = self.type_specifiers(&tys, tn.span)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d)?.1),
            None => Ok(base),
        }
    }

    pub fn type_specifiers(
        &mut self,
        tys: &[&Node<TypeSpecifier>],
        span: Span,
    ) -> Result<CType, FrontendError> {
        let (
            mut signed,
            mut unsigned,
            mut char,
            mut short,
            mut int,
            mut long,
            mut boolean,
            mut void,
        ) = (0, 0, 0, 0, 0, 0, 0, 0);
        let mut other: Option<CType> = None;
        for t in tys {
            match &t.node {
                TypeSpecifier::Void => void += 1,
                TypeSpecifier::Char => char += 1,
                TypeSpecifier::Short => short += 1,
                TypeSpecifier::Int => int += 1,
                TypeSpecifier::Long => long += 1,
                TypeSpecifier::Signed => signed += 1,
                TypeSpecifier::Unsigned => unsigned += 1,
                TypeSpecifier::Bool => boolean += 1,
                TypeSpecifier::Float => {
                    other = Some(CType::Unsupported("floating point (float)".into()))
                }
                TypeSpecifier::Double => {
                    other = Some(CType::Unsupported("floating point (double)".into()))
                }
                TypeSpecifier::TS18661Float(_) => {
                    other = Some(CType::Unsupported("floating point (_FloatN)".into()))
                }
                TypeSpecifier::Complex => {
                    other = Some(CType::Unsupported("complex numbers".into()))
                }
                TypeSpecifier::Atomic(_) => return self.unsupported(t.span, "_Atomic"),
                TypeSpecifier::Struct(s) => other = Some(self.struct_type(s)?),
                TypeSpecifier::Enum(e) => other = Some(self.enum_type(e)?),
                TypeSpecifier::TypedefName(id) => match self.lookup(&id.node.name) {
                    Some(Binding::Typedef(ty)) => other = Some(ty.clone()),
                    _ => {
                        return self.error(id.span, format!("unknown type name `{}`", id.node.name))
                    }
                },
                TypeSpecifier::TypeOf(of) => other = Some(self.type_of_specifier(of)?),
            }
        }
        if let Some(o) = other {
            return Ok(o);
        }
        if void > 0 {
            return Ok(CType::Void);
        }
        if boolean > 0 {
            return Ok(CType::Int(CInt::BOOL));
        }
        if signed + unsigned + char + short + int + long == 0 {
            // Implicit int (old C) — gcc accepts it with a warning.
            return Ok(CType::Int(CInt::INT));
        }
        if signed > 0 && unsigned > 0 {
            return self.error(span, "both signed and unsigned");
        }
        let kind = if char > 0 {
            IntKind::Char
        } else if short > 0 {
            IntKind::Short
        } else if long >= 2 {
            IntKind::LongLong
        } else if long == 1 {
            IntKind::Long
        } else {
            IntKind::Int
        };
        Ok(CType::Int(CInt::new(kind, unsigned == 0)))
    }

    fn enum_type(&mut self, e: &Node<EnumType>) -> Result<CType, FrontendError> {
        let tag = e
            .node
            .identifier
            .as_ref()
            .map(|i| format!("enum {}", i.node.name));
        if e.node.enumerators.is_empty() {
            return match tag.as_deref().and_then(|t| self.lookup(t)) {
                Some(Binding::Typedef(t)) => Ok(t.clone()),
                _ => Ok(CType::Int(CInt::UINT)),
            };
        }
        // gcc's rules (ISO C before C23 allows only values of `int`): inside the list an
        // enumerator has type `int` when its value fits, else the type of its value expression
        // (an implicit value is the previous one plus one in the previous one's type, an error
        // when that overflows); after the list, the ones that do not fit `int` have the
        // enumeration's type, which is `unsigned int` or `int` when every value fits 32 bits,
        // else the first of `long`, `long long` wide enough.
        let dm = self.dm();
        let mut prev: Option<(i128, CInt)> = None;
        let mut values = Vec::new();
        for en in &e.node.enumerators {
            let (v, ty) = match (&en.node.expression, prev) {
                (Some(x), _) => self.const_int_typed(x)?,
                (None, None) => (0, CInt::INT),
                (None, Some((p, pty))) => {
                    if p + 1 > pty.range(dm).1 {
                        return self.error(en.span, "overflow in enumeration values");
                    }
                    (p + 1, pty)
                }
            };
            let (lo, hi) = CInt::INT.range(dm);
            let ty = if (lo..=hi).contains(&v) {
                CInt::INT
            } else {
                ty
            };
            self.bind(&en.node.identifier.node.name, Binding::Enum(v, ty));
            values.push((&en.node.identifier.node.name, v, en.span));
            prev = Some((v, ty));
        }
        let min = values.iter().map(|x| x.1).min().unwrap_or(0);
        let max = values.iter().map(|x| x.1).max().unwrap_or(0);
        let fits = |t: CInt| {
            let (lo, hi) = t.range(dm);
            lo <= min && max <= hi
        };
        let candidates = if min >= 0 {
            [
                CInt::UINT,
                CInt::new(IntKind::Long, false),
                CInt::new(IntKind::LongLong, false),
            ]
        } else {
            [CInt::INT, CInt::LONG, CInt::new(IntKind::LongLong, true)]
        };
        let Some(ety) = candidates.into_iter().find(|t| fits(*t)) else {
            let span = values.last().map(|x| x.2).unwrap_or(e.span);
            return self.unsupported(span, "enumeration values that no integer type holds");
        };
        let (lo, hi) = CInt::INT.range(dm);
        for (name, v, _) in values {
            if !(lo..=hi).contains(&v) {
                self.bind(name, Binding::Enum(v, ety));
            }
        }
        let ty = CType::Int(ety);
        if let Some(t) = tag {
            self.bind(&t, Binding::Typedef(ty.clone()));
        }
        Ok(ty)
    }

    /// The name and type of a declarator applied to `base`, with the attributes written in the
    /// declarator applied (`on_type`: a typedef's); also whether they include `noreturn`.
    pub fn declared(
        &mut self,
        base: CType,
        d: &Node<Declarator>,
        on_type: bool,
    ) -> Result<Declared, FrontendError> {
        let (name, ty) = self.declarator(base, d)?;
        let (ty, noreturn) = self.apply_attributes(ty, &declarator_attributes(d), on_type);
        Ok((name, ty, noreturn))
    }

    /// The name and type of a declarator applied to `base`.
    pub fn declarator(
        &mut self,
        base: CType,
        d: &Node<Declarator>,
    ) -> Result<(Option<(String, Span)>, CType), FrontendError> {
        let mut ty = base;
        for dd in &d.node.derived {
            if let DerivedDeclarator::Pointer(_) = dd.node {
                ty = CType::Pointer(Box::new(ty));
            }
        }
        for dd in d.node.derived.iter().rev() {
            match &dd.node {
                DerivedDeclarator::Pointer(_) => {}
                DerivedDeclarator::Array(a) => {
                    let n = match &a.node.size {
                        ArraySize::Unknown => None,
                        ArraySize::VariableUnknown => {
                            return self.unsupported(dd.span, "variable-length array")
                        }
                        ArraySize::VariableExpression(x) | ArraySize::StaticExpression(x) => {
                            let v = match self.const_int(x) {
                                Ok(v) => v,
                                Err(FrontendError::Unsupported { what, .. })
                                    if what.contains("constant") =>
                                {
                                    return self.unsupported(dd.span, "variable-length array")
                                }
                                Err(e) => return Err(e),
                            };
                            if v < 0 {
                                return self.error(x.span, "negative array size");
                            }
                            Some(v as u64)
                        }
                    };
                    ty = CType::Array(Box::new(ty), n);
                }
                DerivedDeclarator::Function(f) => {
                    let mut params = Vec::new();
                    for p in &f.node.parameters {
                        let (_, pt) = self.decl_specifiers(&p.node.specifiers, p.span)?;
                        let pt = match &p.node.declarator {
                            Some(pd) => self.declared(pt, pd, false)?.1,
                            None => pt,
                        };
                        match pt {
                            CType::Void => {}
                            // A parameter of function type is a pointer to it (C11 6.7.6.3p8).
                            f @ CType::Function(..) => params.push(CType::Pointer(Box::new(f))),
                            other => params.push(other),
                        }
                    }
                    ty = CType::Function(Box::new(ty), Some(params));
                }
                DerivedDeclarator::KRFunction(ids) => {
                    let ps = if ids.is_empty() {
                        None
                    } else {
                        Some(vec![CType::Int(CInt::INT); ids.len()])
                    };
                    ty = CType::Function(Box::new(ty), ps);
                }
                DerivedDeclarator::Block(_) => return self.unsupported(dd.span, "blocks"),
            }
        }
        match &d.node.kind.node {
            DeclaratorKind::Abstract => Ok((None, ty)),
            DeclaratorKind::Identifier(id) => Ok((Some((id.node.name.clone(), id.span)), ty)),
            DeclaratorKind::Declarator(inner) => self.declarator(ty, inner),
        }
    }

    /// An integer constant expression.
    pub fn const_int(&mut self, e: &Node<Expression>) -> Result<i128, FrontendError> {
        self.const_int_typed(e).map(|(v, _)| v)
    }

    /// The value and type of an integer constant expression.
    pub fn const_int_typed(&mut self, e: &Node<Expression>) -> Result<(i128, CInt), FrontendError> {
        let saved = self.cur;
        self.cur = self.new_loc("constant expression");
        let r = self.rval(e);
        self.cur = saved;
        let v = r?;
        match self.cfa.tm.const_value(v.t) {
            Some(x) => Ok((
                if v.ty.signed {
                    crate::bv::value::to_signed(x, v.ty.width(self.dm()))
                } else {
                    x as i128
                },
                v.ty,
            )),
            None => self.unsupported(e.span, "expression is not an integer constant"),
        }
    }

    /// The global declarations: typedefs, enumerations, variables (zero-initialised, then
    /// initialised in order), functions.
    pub fn global_declarations(&mut self, unit: &'a TranslationUnit) -> Result<(), FrontendError> {
        for ext in &unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => self.declaration(d, true)?,
                ExternalDeclaration::StaticAssert(_) => {}
                ExternalDeclaration::FunctionDefinition(f) => {
                    let (st, rt) = self.decl_specifiers(&f.node.specifiers, f.span)?;
                    let (name, ty, noreturn) = self.declared(rt, &f.node.declarator, false)?;
                    if let Some((n, _)) = name {
                        self.note_function_attributes(&n, &f.node.specifiers, &f.node.declarator);
                        if st.noreturn || noreturn {
                            self.noreturn.insert(n.clone());
                        }
                        self.scopes[0].insert(n.clone(), Binding::Function(ty));
                        self.functions.insert(n, &f.node);
                    }
                }
            }
        }
        // A defined function marked to run before or after `main` runs without a call.
        let mut runs: Vec<_> = self.runs_code.iter().collect();
        runs.sort_by_key(|(_, (pos, _))| (pos.line, pos.col));
        for (name, (pos, attr)) in runs {
            if self.functions.contains_key(name) {
                return Err(FrontendError::Unsupported {
                    pos: pos.clone(),
                    what: format!("attribute `{attr}` (function `{name}` runs without a call)"),
                });
            }
        }
        Ok(())
    }

    /// A declaration (global when `global`, otherwise in the current block).
    pub fn declaration(
        &mut self,
        d: &Node<Declaration>,
        global: bool,
    ) -> Result<(), FrontendError> {
        self.at(d.span);
        let (st, base) = self.decl_specifiers(&d.node.specifiers, d.span)?;
        let before = self.cfa.edges.len();
        // Whether the declaration declares a local object of automatic storage.
        let mut automatic = false;
        for idecl in &d.node.declarators {
            let (name, ty, noreturn) =
                self.declared(base.clone(), &idecl.node.declarator, st.typedef)?;
            let Some((name, nspan)) = name else { continue };
            if st.typedef {
                let ty = if name == "__bitmc_float128" {
                    CType::Unsupported("floating point (__float128)".into())
                } else {
                    ty
                };
                self.bind(&name, Binding::Typedef(ty));
                continue;
            }
            if let CType::Function(..) = ty {
                self.note_function_attributes(&name, &d.node.specifiers, &idecl.node.declarator);
                if st.noreturn || noreturn {
                    self.noreturn.insert(name.clone());
                }
                if !self.functions.contains_key(&name) {
                    self.bind(&name, Binding::Function(ty));
                }
                continue;
            }
            let unsupported_type = unsupported_object(&name, &ty, idecl);
            let writable_elsewhere =
                !st.is_static && (!st.is_const || matches!(ty, CType::Pointer(_)));
            let function_pointer =
                matches!(&ty, CType::Pointer(p) if matches!(**p, CType::Function(..)));
            if let (CType::Pointer(pointee), Some(init), false) =
                (&ty, &idecl.node.initializer, function_pointer)
            {
                // `int *p = &x;`, `int *p = a;`: bound to the object for good (assigning `p` is
                // unsupported); `void *p = (void *)0;`: an address-only variable.
                if let (Initializer::Expression(e), false) = (&init.node, st.is_static) {
                    automatic |= !global && !st.is_extern;
                    self.pointer_declaration(&name, nspan, pointee, e, global, writable_elsewhere)?;
                    continue;
                }
            }
            if let Some(why) = unsupported_type {
                if global && idecl.node.initializer.is_none() {
                    // Declarations from headers (`extern FILE *stdin;`): an error only if used.
                    self.scopes[0].insert(name.clone(), Binding::Invalid(why));
                    continue;
                }
                return self.unsupported(nspan, why);
            }
            let init = idecl.node.initializer.as_ref();
            if global {
                self.global_var(&name, nspan, ty, init, writable_elsewhere)?;
            } else if st.is_static || st.is_extern {
                self.block_scope_static(&name, nspan, ty, init, &st, writable_elsewhere)?;
            } else {
                automatic = true;
                self.local_var(&name, nspan, ty, init)?;
            }
        }
        // A declaration of a local object runs even when it assigns nothing (a pointer bound
        // to an object).
        if automatic && self.nothing_since(before) {
            self.mark_statement();
        }
        Ok(())
    }

    /// A `static` or `extern` declaration in a block: the same object every time the block
    /// is entered (a `static` one initialised once, before `main`), or the global it names.
    fn block_scope_static(
        &mut self,
        name: &str,
        nspan: Span,
        ty: CType,
        init: Option<&Node<Initializer>>,
        st: &Storage,
        writable_elsewhere: bool,
    ) -> Result<(), FrontendError> {
        let key = (self.fctx()?.name.clone(), nspan.start);
        if let Some(b) = self.statics.get(&key).cloned() {
            self.bind(name, b);
        } else if st.is_extern {
            match self.scopes[0].get(name).cloned() {
                Some(b) => self.bind(name, b),
                None => self.global_var(name, nspan, ty, None, writable_elsewhere)?,
            }
        } else {
            let fname = self.fctx()?.name.clone();
            let b = self
                .in_static_init(|lw| lw.static_var(&format!("{fname}::{name}"), nspan, ty, init))?;
            self.statics.insert(key, b.clone());
            self.bind(name, b);
        }
        Ok(())
    }

    /// A global (`external`: other translation units may write it).
    fn global_var(
        &mut self,
        name: &str,
        span: Span,
        ty: CType,
        init: Option<&Node<Initializer>>,
        external: bool,
    ) -> Result<(), FrontendError> {
        let existing = self.scopes[0].get(name).cloned();
        match existing {
            // A later declaration of the same global (`extern int x; int x = 1;`).
            Some(
                b @ (Binding::Var(..)
                | Binding::Array(_)
                | Binding::Struct(_)
                | Binding::Structs(_)
                | Binding::Ref(..)
                | Binding::FnPtr(..)),
            ) => {
                if let Some(i) = init {
                    self.initialize(&b, i)?;
                }
            }
            _ => {
                let b = self.static_var(name, span, ty, init)?;
                if external {
                    let vars = self.object_vars(&b);
                    self.external_globals.extend(vars);
                }
                self.note_function_pointers(&b);
                self.scopes[0].insert(name.to_string(), b);
            }
        }
        Ok(())
    }

    /// A pointer variable (not `static`) with an initialiser expression.
    fn pointer_declaration(
        &mut self,
        name: &str,
        span: Span,
        pointee: &CType,
        e: &Node<Expression>,
        global: bool,
        external: bool,
    ) -> Result<(), FrontendError> {
        let (full, kind) = if global {
            (name.to_string(), VarKind::Global)
        } else {
            (format!("{}::{name}", self.fctx()?.name), VarKind::Local)
        };
        let v = self.expr(e)?;
        let b = self.pointer_binding(&full, v, pointee, kind, span)?;
        if global && external {
            match &b {
                Binding::PtrVar(pv, _) | Binding::Ref(pv, _) => self.external_globals.push(*pv),
                _ => self.external_pointers.push(name.to_string()),
            }
        }
        if global {
            self.note_function_pointers(&b);
            self.scopes[0].insert(name.to_string(), b);
        } else {
            self.bind(name, b);
        }
        Ok(())
    }

    /// A variable with static storage: zero-initialised, then initialised.
    fn static_var(
        &mut self,
        name: &str,
        span: Span,
        ty: CType,
        init: Option<&Node<Initializer>>,
    ) -> Result<Binding, FrontendError> {
        let b = self.new_object(name, span, &ty, VarKind::Global, init)?;
        self.zero(&b);
        if let Some(i) = init {
            self.initialize(&b, i)?;
        }
        Ok(b)
    }

    fn local_var(
        &mut self,
        name: &str,
        span: Span,
        ty: CType,
        init: Option<&Node<Initializer>>,
    ) -> Result<(), FrontendError> {
        let fname = self.fctx()?.name.clone();
        let b = self.new_object(&format!("{fname}::{name}"), span, &ty, VarKind::Local, init)?;
        match init {
            Some(i) => {
                if matches!(
                    b,
                    Binding::Array(_) | Binding::Struct(_) | Binding::Structs(_)
                ) {
                    // Elements and members without an initialiser are zero.
                    self.zero(&b);
                }
                // The initialiser is evaluated before the name is in scope for gcc only when
                // it does not refer to it; C puts the name in scope first.
                self.bind(name, b.clone());
                self.initialize(&b, i)?;
            }
            // A function pointer holds no function until it is assigned (see `fnptr`).
            None if matches!(b, Binding::FnPtr(..)) => self.bind(name, b),
            None => {
                // Function pointers hold no function until assigned; the rest is arbitrary.
                let functions = self.function_pointer_vars(&b);
                for v in self.object_vars(&b) {
                    if !functions.contains(&v) {
                        self.havoc(v, HavocKind::Uninitialized);
                    }
                }
                self.hold_no_function(&functions);
                self.bind(name, b);
            }
        }
        Ok(())
    }

    /// A compound literal `(T){ … }` in a function: an unnamed object of automatic storage
    /// in the enclosing block, initialised as a declaration is (C11 6.5.2.5). Gives the
    /// identifier the object is bound to (a name no C identifier can have), for the caller to
    /// evaluate as a value or a place.
    pub fn compound_literal(
        &mut self,
        c: &Node<CompoundLiteral>,
        span: Span,
    ) -> Result<Node<Expression>, FrontendError> {
        if self.fctx.is_none() {
            return self.unsupported(span, "compound literal outside a function");
        }
        let ty = self.type_name(&c.node.type_name)?;
        if let CType::Unsupported(why) = &ty {
            return self.unsupported(span, format!("{why} (compound literal)"));
        }
        let pos = self.src.span_pos(span);
        let name = format!("(literal {}:{})", pos.line, pos.col);
        let init = Node::new(Initializer::List(c.node.initializer_list.clone()), span);
        self.local_var(&name, span, ty, Some(&init))?;
        let id = Node::new(Identifier { name }, span);
        Ok(Node::new(Expression::Identifier(Box::new(id)), span))
    }

    /// The value of a compound literal (see [`Lower::compound_literal`]).
    pub fn literal_value(
        &mut self,
        c: &Node<CompoundLiteral>,
        span: Span,
    ) -> Result<Val, FrontendError> {
        let id = self.compound_literal(c, span)?;
        self.expr(&id)
    }

    /// Creates the variables of an object of type `ty`.
    fn new_object(
        &mut self,
        name: &str,
        span: Span,
        ty: &CType,
        kind: VarKind,
        init: Option<&Node<Initializer>>,
    ) -> Result<Binding, FrontendError> {
        let pos = Some(self.span_pos(span));
        match ty {
            CType::Int(i) => {
                let v = self.new_var(name, *i, kind, pos);
                self.declare_object(Root::Scalar(v, *i));
                Ok(Binding::Var(v, *i))
            }
            CType::Struct(def) => {
                let v = self.new_struct(name, def, kind, &pos)?;
                self.declare_struct_object(&Place::Struct(v.clone()), span)?;
                Ok(Binding::Struct(v))
            }
            CType::Array(..) => match struct_array(ty) {
                Some((def, dims)) => {
                    let dims = self.struct_array_dims(name, span, ty, dims, init)?;
                    let sa = self.new_struct_array(name, &def, dims, kind, &pos)?;
                    self.declare_struct_object(&Place::Structs(sa.clone()), span)?;
                    Ok(Binding::Structs(sa))
                }
                None => {
                    let b = self.new_array(name, span, ty, kind, init)?;
                    if let Binding::Array(view) = &b {
                        let arr = view.arr.clone();
                        self.declare_object(Root::Array(&arr));
                    }
                    Ok(b)
                }
            },
            CType::Pointer(f) if matches!(**f, CType::Function(..)) => {
                Ok(self.new_function_pointer(name, f, kind, span))
            }
            // A pointer variable without an initialiser that binds it to an object: general
            // when the memory plan says so (see `memory`), otherwise address-only.
            CType::Pointer(q) => {
                let key = declaration_key(name, pos.as_ref());
                if self.mem.plan.general.contains(&key) {
                    let v = self.new_var(name, CInt::PTR, kind, pos);
                    self.declare_object(Root::Scalar(v, CInt::PTR));
                    Ok(Binding::Ref(v, (**q).clone()))
                } else {
                    let pv = self.new_var(name, ADDRESS, kind, pos);
                    Ok(Binding::PtrVar(pv, (**q).clone()))
                }
            }
            CType::Void => self.error(span, format!("variable `{name}` of type void")),
            CType::Function(..) => self.error(span, "function type"),
            CType::Unsupported(w) => self.unsupported(span, w.clone()),
        }
    }

    /// Assigns zero to every variable of an object.
    fn zero(&mut self, b: &Binding) {
        for v in self.object_vars(b) {
            let w = self.cfa.var(v).ty.width;
            let z = self.cfa.tm.bv_const(0, w);
            self.assign(v, z);
        }
    }

    /// Initialises an object from an initialiser.
    fn initialize(&mut self, b: &Binding, init: &Node<Initializer>) -> Result<(), FrontendError> {
        match (b, &init.node) {
            (Binding::Var(v, ty), Initializer::Expression(e)) => {
                let r = self.rval_for(e, *ty)?;
                let t = self.convert(r, *ty);
                self.assign(*v, t);
                Ok(())
            }
            (Binding::Var(v, ty), Initializer::List(items)) => match items.as_slice() {
                [one] if one.node.designation.is_empty() => {
                    self.initialize(&Binding::Var(*v, *ty), &one.node.initializer)
                }
                _ => self.unsupported(init.span, "initialiser list for a scalar"),
            },
            (Binding::Array(a), _) => self.init_array(a, init),
            (Binding::FnPtr(v, ty), Initializer::Expression(e)) => {
                let x = self.expr(e)?;
                let n = self.function_number(x, ty, e.span)?;
                self.assign(*v, n.t);
                Ok(())
            }
            (Binding::Struct(dst), Initializer::Expression(e)) => match self.expr(e)? {
                Val::Struct(src) if src.def == dst.def => {
                    self.copy_struct(dst, &src);
                    Ok(())
                }
                _ => self.error(
                    e.span,
                    "initialisation of a structure by a value of another type",
                ),
            },
            (Binding::Struct(_) | Binding::Structs(_), Initializer::List(_)) => {
                self.init_aggregate(b, init)
            }
            (Binding::Ref(v, _), Initializer::Expression(e)) => {
                let x = self.expr(e)?;
                let r = self.general_pointer(x, e.span)?;
                self.assign(*v, r.t);
                Ok(())
            }
            (Binding::PtrVar(v, _), Initializer::Expression(e)) => match self.expr(e)? {
                Val::Int(r) | Val::Addr(r) => {
                    let a = self.address(r);
                    self.assign(*v, a.t);
                    Ok(())
                }
                _ => self.needs_general(*v),
            },
            _ => self.unsupported(init.span, "this initialiser"),
        }
    }

    /// Records the attributes of a function's declaration or definition that make it run
    /// without a call (`constructor`, `destructor`); gcc merges the attributes of all of a
    /// function's declarations.
    fn note_function_attributes(
        &mut self,
        name: &str,
        specs: &[Node<DeclarationSpecifier>],
        d: &Node<Declarator>,
    ) {
        for (attr, span, _) in spec_attributes(specs)
            .into_iter()
            .chain(declarator_attributes(d))
        {
            if classify(&attr) == AttrClass::RunsCode && !self.runs_code.contains_key(name) {
                let pos = self.span_pos(span);
                self.runs_code
                    .insert(name.to_string(), (pos, bare_name(&attr).to_string()));
            }
        }
    }

    /// The dimensions of an array of structures (the first from the initialiser when the
    /// declaration leaves it out).
    fn struct_array_dims(
        &mut self,
        name: &str,
        span: Span,
        ty: &CType,
        dims: Vec<Option<u64>>,
        init: Option<&Node<Initializer>>,
    ) -> Result<Vec<u64>, FrontendError> {
        let mut out = Vec::new();
        for (i, d) in dims.iter().enumerate() {
            match (d, init) {
                (Some(n), _) => out.push(*n),
                (
                    None,
                    Some(Node {
                        node: Initializer::List(items),
                        span: s,
                    }),
                ) if i == 0 => out.push(self.plan_init(ty, items, *s)?.top_len),
                (None, _) if i == 0 => {
                    return self.unsupported(span, format!("array `{name}` of unknown size"))
                }
                (None, _) => return self.error(span, "array of arrays of unknown size"),
            }
        }
        Ok(out)
    }

    /// Converts an integer value to a type (conversion as if by assignment).
    pub fn convert(&mut self, v: RVal, to: CInt) -> crate::bv::TermId {
        super::arith::convert(&mut self.cfa.tm, v.t, v.ty, to, self.opts.data_model)
    }
}

/// For an array of structures (of any dimension): the structure type and the lengths.
pub fn struct_array(ty: &CType) -> Option<(super::types::StructRef, Vec<Option<u64>>)> {
    match ty.array_dims() {
        (CType::Struct(s), dims) if !dims.is_empty() => Some((s.clone(), dims)),
        _ => None,
    }
}

/// Why an object `name` of type `ty` cannot be declared, if it cannot: a type bitmc does not
/// support, an array of elements it cannot lay out, an array of unknown size without an
/// initialiser.
fn unsupported_object(name: &str, ty: &CType, idecl: &Node<InitDeclarator>) -> Option<String> {
    match ty {
        CType::Unsupported(w) => Some(format!("{w} (declaration of `{name}`)")),
        CType::Array(..)
            if ty.array_shape().is_none()
                && struct_array(ty).is_none()
                && super::array::pointer_array_shape(ty).is_none() =>
        {
            Some(format!("array `{name}` of {}", ty.describe()))
        }
        CType::Array(_, None) if idecl.node.initializer.is_none() => {
            Some(format!("array `{name}` of unknown size"))
        }
        _ => None,
    }
}
